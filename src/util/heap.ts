// V8 sizes the young generation by Node version: from Node 24 (the action's runtime) its
// semi-spaces grow to 64 MB, against 16 MB on Node 20, and a 10,000-app build peaked at
// 365–400 MB instead of about 250 MB. The size is fixed when the process starts (a flag
// set at run time does not take), so an entry on such a Node runs itself again with it.
import { spawn } from 'node:child_process'
import { constants } from 'node:os'

export const SEMI_SPACE_FLAG = '--max-semi-space-size=16'

/** Whether this process should run again with SEMI_SPACE_FLAG: Node 24 or later, and no size chosen already. */
export function needsSmallYoungGeneration(
  nodeVersion: string = process.versions.node,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS
): boolean {
  const major = Number(nodeVersion.split('.')[0])
  const chosen = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((a) => /^--max-semi-space-size(=|$)/.test(a))
  return major >= 24 && !chosen
}

/**
 * Runs `script` again in a child Node with SEMI_SPACE_FLAG and the same arguments,
 * environment and standard streams; resolves to its exit status.
 */
export function rerunWithSmallYoungGeneration(script: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, SEMI_SPACE_FLAG, script, ...args], {
      stdio: 'inherit'
    })
    child.on('error', reject)
    // A child killed by a signal exits as a shell reports it: 128 + the signal's number.
    child.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)))
  })
}
