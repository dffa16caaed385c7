// A logger that keeps each line with its level, for tests that read what was logged.
import type { Logger } from '../../src/util/types.js'

export function recorder(): { log: Logger; lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    log: {
      info: (m) => lines.push(`info: ${m}`),
      warning: (m) => lines.push(`warning: ${m}`),
      error: (m) => lines.push(`error: ${m}`)
    }
  }
}
