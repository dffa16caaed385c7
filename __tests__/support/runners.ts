// Runners (see src/workers/index.ts) that stand in for threads in tests.
import type { Runner } from '../../src/workers/index.js'
import { runTask } from '../../src/workers/tasks.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Runs each task here, then answers after an uneven delay, so chunks finish out of order as on threads of different speed. */
export function shuffledRunner(lanes: number, chunk: number): Runner {
  let calls = 0
  return {
    lanes,
    chunk,
    run: async (task) => {
      const result = runTask(task)
      await sleep([7, 0, 3, 1][calls++ % 4]!)
      return result as never
    }
  }
}
