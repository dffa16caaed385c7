// How a build spreads its heavy steps: in-process by default (tests, small
// catalogs), over a worker pool for large catalogs.
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ReadRecords, RecordRead } from '../catalog/load.js'
import { writeFilesSync, type WriteBatch } from '../output/write-tree.js'
import { workerPool, type WorkerPool } from './pool.js'
import { runTask, type Task, type TaskResults } from './tasks.js'

export { workerPool, type WorkerPool } from './pool.js'

/** Where the tasks of one job run. */
export interface Runner {
  /** Tasks to keep running at once. */
  lanes: number
  /** Items per task. */
  chunk: number
  /**
   * Runs `task` in `lane` (0 ≤ lane < lanes); by the time it returns, the task's
   * input has been copied or used, so the caller may drop it.
   */
  run<T extends Task>(task: T, lane: number): Promise<TaskResults[T['kind']]>
}

export interface Parallel {
  /** The runner for a job of `items` items: threads for large jobs, this thread for small ones. */
  forJob(items: number): Runner
  write: WriteBatch
  /** Threads used by this build (0 when everything ran in this thread). */
  threads(): number
  /** Stop the threads that read and classify; a later job starts fresh ones (see WorkerPool.recycle). */
  recycle(): Promise<void>
}

/**
 * Records per task: small enough to balance the lanes and to keep this thread's
 * own chunk short (replies wait while it works), large enough that messages are few.
 */
export const CHUNK = 100

const here: Runner = {
  lanes: 1,
  chunk: CHUNK,
  run: async (task) => runTask(task) as never
}

export const inProcess: Parallel = {
  forJob: () => here,
  write: writeFilesSync,
  threads: () => 0,
  recycle: async () => {}
}

/**
 * Below this many records a job runs in this thread. A thread costs about 0.1 s
 * to start and runs its first chunks slowly until its code is optimised; measured
 * at 600 / 2,000 / 5,000 / 10,000 apps, builds with one thread took 1.2 / 1.9 / 3.1 /
 * 4.3 s against 0.9 / 1.7 / 3.3 / 5.3 s without.
 */
export const MIN_PARALLEL_ITEMS = 5000

/**
 * Calls `work` over [0, total) in chunks of `chunk`, `lanes` chunks at a time;
 * each lane takes the next chunk when its last is done, so a slow thread gets fewer.
 */
export async function inChunks(
  { lanes, chunk }: Pick<Runner, 'lanes' | 'chunk'>,
  total: number,
  work: (from: number, to: number, lane: number) => Promise<void>
): Promise<void> {
  let next = 0
  const run = async (lane: number) => {
    while (next < total) {
      const from = next
      next = Math.min(total, from + Math.max(1, chunk))
      await work(from, next, lane)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, (_, lane) => run(lane)))
}

/**
 * Read catalog records and judge their seed releases (the `load` task), in
 * chunks over the runner's lanes; one result per file, in order.
 */
export function recordReader(par: Parallel): ReadRecords {
  return async (files) => {
    const runner = par.forJob(files.length)
    const out: RecordRead[] = new Array(files.length)
    await inChunks(runner, files.length, async (from, to, lane) => {
      const read = await runner.run({ kind: 'load', files: files.slice(from, to) }, lane)
      read.forEach((r, i) => (out[from + i] = r))
    })
    return out
  }
}

/** The thread bundles: `tasks` reads, classifies and writes (dist/worker), `write` only writes (dist/writer). */
export interface WorkerScripts {
  tasks: string | URL
  write: string | URL
}

/**
 * The thread bundles in `dir` (relative to the running entry bundle), or
 * undefined where they are missing (running from source): the build then stays in one thread.
 */
export function bundledWorkers(entryUrl: string, dir: string): WorkerScripts | undefined {
  const at = (name: string) => path.join(path.dirname(fileURLToPath(entryUrl)), ...dir.split('/'), name, 'index.js')
  const [tasks, write] = [at('worker'), at('writer')]
  return existsSync(tasks) && existsSync(write) ? { tasks, write } : undefined
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, max: number): number | undefined {
  const set = env[name]
  if (set === undefined || set.trim() === '') return undefined
  const n = Number(set)
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new Error(`${name}="${set}" is not a whole number from 0 to ${max}`)
  return n
}

/** Threads for a build besides this one: UPDATESAFE_WORKERS if set (0 turns them off), else one per further core, up to 3. */
export function workerCount(env: NodeJS.ProcessEnv, cores = availableParallelism()): number {
  return wholeNumber(env, 'UPDATESAFE_WORKERS', 64) ?? Math.max(0, Math.min(cores - 1, 3))
}

/** Records from which a job uses the threads: UPDATESAFE_WORKERS_MIN if set, else MIN_PARALLEL_ITEMS. */
export function parallelMinimum(env: NodeJS.ProcessEnv): number {
  return wholeNumber(env, 'UPDATESAFE_WORKERS_MIN', 10 ** 9) ?? MIN_PARALLEL_ITEMS
}

/**
 * A batch holding a file this large (in string units or bytes) is written by this
 * thread. Sent to a writing thread, a file is held twice more, as the message and
 * in that thread's heap: apps.json and changes.json of a 10,000-app site are 20 MB
 * and 13 MB as strings, and keeping them here lowered the peak RSS by about 20 MB.
 * Writing them here takes milliseconds.
 */
export const WRITE_HERE_FROM = 1 << 20

/**
 * `jobs` threads read and classify beside this thread; `writers` (one thread, see
 * WRITERS) write the tree while this thread renders. Writing has a thread of its own
 * because a job thread, even a fresh one, loads the parsers and the classifier it does not need.
 */
export function pooled(jobs: WorkerPool, writers: WorkerPool, minItems = MIN_PARALLEL_ITEMS): Parallel {
  // This thread is lane 0 and works too; each pool thread gets two lanes so it
  // always has a task queued while this thread is busy with its own chunk.
  const threads: Runner = {
    lanes: 1 + 2 * jobs.size,
    chunk: CHUNK,
    run: async (task, lane) => {
      if (lane !== 0) return jobs.run(task)
      const result = runTask(task)
      // Let the threads' replies in (and hand them their next chunks) before this thread takes another chunk.
      await new Promise((resolve) => setImmediate(resolve))
      return result as never
    }
  }
  // Whether a job was large enough for the threads: from then on the build is, and the writers write.
  let engaged = false
  return {
    forJob: (items) => {
      if (items < minItems) return here
      engaged = true
      return threads
    },
    write: (files) => {
      if (!engaged || files.some(([, content]) => content.length >= WRITE_HERE_FROM)) return writeFilesSync(files)
      return writers.run({ kind: 'write', files }).then(() => undefined)
    },
    threads: () => (engaged ? jobs.size : 0),
    recycle: () => jobs.recycle()
  }
}

/**
 * Writing threads, whatever the number of job threads. This thread renders every
 * file, and one writing thread keeps up with it: at 10,000 apps it waited 40–70%
 * of the time on tmpfs. On a slow disk, three writers took as long as one and
 * spent 60% more system time, while each further writer added about 12 MB of peak
 * RSS (3 job threads: 298–302 MB with three writers, 273–278 MB with one).
 */
export const WRITERS = 1

/**
 * Run `fn` with pools of threads started from `scripts` (the thread bundles)
 * when the machine and UPDATESAFE_WORKERS allow, and stop them after.
 */
export async function withParallel<T>(
  scripts: WorkerScripts | undefined,
  env: NodeJS.ProcessEnv,
  fn: (par: Parallel | undefined) => Promise<T>,
  startPool: (script: string | URL, size: number) => WorkerPool = workerPool
): Promise<T> {
  const count = scripts ? workerCount(env) : 0
  const minItems = parallelMinimum(env)
  if (!scripts || count === 0) return fn(undefined)
  const jobs = startPool(scripts.tasks, count)
  const writers = startPool(scripts.write, WRITERS)
  try {
    return await fn(pooled(jobs, writers, minItems))
  } finally {
    await Promise.all([jobs.close(), writers.close()])
  }
}
