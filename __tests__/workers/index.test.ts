// The job plumbing of src/workers/index.ts, in this thread: chunking over lanes,
// the thread count from the environment, and reading records in order.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readRecord } from '../../src/catalog/load.js'
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import {
  bundledWorkers,
  inChunks,
  inProcess,
  MIN_PARALLEL_ITEMS,
  parallelMinimum,
  pooled,
  recordReader,
  withParallel,
  workerCount,
  WRITE_HERE_FROM,
  type Parallel,
  type WorkerPool
} from '../../src/workers/index.js'
import type { Task } from '../../src/workers/tasks.js'
import { shuffledRunner } from '../support/runners.js'
import { tempDir } from '../support/tmp.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('inChunks', () => {
  it('covers every index exactly once, at most `lanes` chunks at a time, whatever order they finish in', async () => {
    for (const [total, lanes, chunk] of [
      [0, 2, 5],
      [1, 2, 5],
      [23, 3, 4],
      [100, 1, 7],
      [10, 4, 100]
    ] as const) {
      const hits = new Array<number>(total).fill(0)
      let running = 0
      let most = 0
      let call = 0
      await inChunks({ lanes, chunk }, total, async (from, to) => {
        expect(to - from).toBeLessThanOrEqual(chunk)
        expect(to).toBeGreaterThan(from)
        running++
        most = Math.max(most, running)
        await sleep([5, 0, 2][call++ % 3]!)
        for (let i = from; i < to; i++) hits[i]!++
        running--
      })
      expect(hits.every((h) => h === 1)).toBe(true)
      expect(most).toBeLessThanOrEqual(lanes)
    }
  })

  it('rejects when one chunk fails', async () => {
    await expect(
      inChunks({ lanes: 2, chunk: 2 }, 10, async (from) => {
        if (from === 4) throw new Error('chunk 4 failed')
      })
    ).rejects.toThrow('chunk 4 failed')
  })
})

describe('workerCount and parallelMinimum', () => {
  it('uses one thread per further core up to 3 (this thread works too), none on one core, and UPDATESAFE_WORKERS when set', () => {
    expect(workerCount({}, 1)).toBe(0)
    expect(workerCount({}, 2)).toBe(1)
    expect(workerCount({}, 16)).toBe(3)
    expect(workerCount({ UPDATESAFE_WORKERS: '0' }, 8)).toBe(0)
    expect(workerCount({ UPDATESAFE_WORKERS: '3' }, 1)).toBe(3)
    expect(workerCount({ UPDATESAFE_WORKERS: '' }, 3)).toBe(2)
    for (const bad of ['-1', '1.5', 'many', '65'])
      expect(() => workerCount({ UPDATESAFE_WORKERS: bad }, 2)).toThrow('UPDATESAFE_WORKERS')
  })

  it('starts threads for jobs of MIN_PARALLEL_ITEMS records, or UPDATESAFE_WORKERS_MIN when set', () => {
    expect(parallelMinimum({})).toBe(MIN_PARALLEL_ITEMS)
    expect(parallelMinimum({ UPDATESAFE_WORKERS_MIN: '200' })).toBe(200)
    expect(() => parallelMinimum({ UPDATESAFE_WORKERS_MIN: 'few' })).toThrow('UPDATESAFE_WORKERS_MIN')
  })
})

describe('recordReader', () => {
  let dir: string
  let cleanup: () => Promise<void>
  beforeEach(async () => ({ dir, cleanup } = await tempDir()))
  afterEach(() => cleanup())

  it('returns one result per file in the order given, when chunks finish out of order', async () => {
    await mkdir(path.join(dir, 'apps'))
    const files: string[] = []
    for (let i = 0; i < 13; i++) {
      const file = path.join(dir, 'apps', `app-${i}.yml`)
      // Every third record is invalid, so issues must land on the right file too.
      await writeFile(file, i % 3 === 0 ? `name: App ${i}\n` : `name: App ${i}\nrepo: owner/app-${i}\n`)
      files.push(file)
    }
    const par: Parallel = { ...inProcess, forJob: () => shuffledRunner(3, 2) }
    const read = await recordReader(par)(files)
    expect(read).toEqual(files.map(readRecord))
    expect(read[3]!.issues[0]!.file).toBe(files[3])
    expect(read[4]!.entry?.name).toBe('App 4')
  })
})

describe('pooled', () => {
  let dir: string
  let cleanup: () => Promise<void>
  beforeEach(async () => ({ dir, cleanup } = await tempDir()))
  afterEach(() => cleanup())

  function fakePool(): WorkerPool & { tasks: Task[] } {
    const tasks: Task[] = []
    let started = false
    return {
      tasks,
      size: 3,
      get started() {
        return started
      },
      run: async (task) => {
        started = true
        tasks.push(task)
        return (task.kind === 'write' ? task.files.length : []) as never
      },
      close: async () => {},
      recycle: async () => {
        started = false
      }
    }
  }

  it('runs small jobs in this thread and large ones on the pool, one lane per thread', async () => {
    const pool = fakePool()
    const par = pooled(pool, fakePool(), 5)
    const small = par.forJob(4)
    expect(small.lanes).toBe(1)
    await small.run({ kind: 'classify', inputs: [] }, 0)
    expect(pool.tasks).toEqual([])
    expect(par.threads()).toBe(0)
    const large = par.forJob(5)
    // Lane 0 is this thread; each of the 3 threads has two lanes.
    expect(large.lanes).toBe(7)
    await large.run({ kind: 'classify', inputs: [{ releases: [] }] }, 0)
    expect(pool.tasks).toEqual([])
    await large.run({ kind: 'classify', inputs: [] }, 1)
    expect(pool.tasks).toEqual([{ kind: 'classify', inputs: [] }])
    expect(par.threads()).toBe(3)
  })

  it('writes in this thread until a job was large enough for the threads, then on the writing threads, also once the job threads are stopped', async () => {
    const jobs = fakePool()
    const writers = fakePool()
    const par = pooled(jobs, writers, 5)
    const first = path.join(dir, 'a', 'first.txt')
    expect(par.write([[first, 'one']])).toBeUndefined()
    expect(existsSync(first)).toBe(true)
    par.forJob(4)
    expect(par.write([[path.join(dir, 'a', 'small.txt'), 'in this thread']])).toBeUndefined()
    await par.forJob(5).run({ kind: 'classify', inputs: [] }, 1)
    expect(jobs.started).toBe(true)
    await par.recycle()
    expect(jobs.started).toBe(false)
    await par.write([[path.join(dir, 'b', 'second.txt'), 'two']])
    expect(writers.tasks).toEqual([{ kind: 'write', files: [[path.join(dir, 'b', 'second.txt'), 'two']] }])
    expect(jobs.tasks.map((t) => t.kind)).toEqual(['classify'])
    expect(existsSync(path.join(dir, 'b'))).toBe(false)
    expect(par.threads()).toBe(3)
  })

  it('writes a batch holding a large file in this thread, also once the threads are engaged', async () => {
    const writers = fakePool()
    const par = pooled(fakePool(), writers, 5)
    par.forJob(5)
    const small = path.join(dir, 'c', 'small.txt')
    const large = path.join(dir, 'c', 'large.json')
    const big = 'é'.repeat(WRITE_HERE_FROM)
    expect(
      par.write([
        [small, 'x'],
        [large, big]
      ])
    ).toBeUndefined()
    expect(await readFile(large, 'utf8')).toBe(big)
    expect(existsSync(small)).toBe(true)
    await par.write([[path.join(dir, 'c', 'just-under.txt'), 'y'.repeat(WRITE_HERE_FROM - 1)]])
    expect(writers.tasks.map((t) => (t.kind === 'write' ? t.files.map(([f]) => path.basename(f)) : t.kind))).toEqual([
      ['just-under.txt']
    ])
  })
})

describe('withParallel', () => {
  const scripts = { tasks: '/bundles/worker.js', write: '/bundles/writer.js' }
  function recordingStart() {
    const started: Array<{ script: string; size: number; closed: boolean }> = []
    const start = (script: string | URL, size: number): WorkerPool => {
      const entry = { script: String(script), size, closed: false }
      started.push(entry)
      return {
        size,
        started: false,
        run: async () => [] as never,
        close: async () => {
          entry.closed = true
        },
        recycle: async () => {}
      }
    }
    return { started, start }
  }

  it('starts as many job threads as UPDATESAFE_WORKERS asks but one writing thread, and stops both pools after', async () => {
    const { started, start } = recordingStart()
    const threads = await withParallel(
      scripts,
      { UPDATESAFE_WORKERS: '3', UPDATESAFE_WORKERS_MIN: '1' },
      async (par) => {
        par!.forJob(1)
        return par!.threads()
      },
      start
    )
    expect(threads).toBe(3)
    expect(started).toEqual([
      { script: scripts.tasks, size: 3, closed: true },
      { script: scripts.write, size: 1, closed: true }
    ])
  })

  it('stops the pools when the build throws', async () => {
    const { started, start } = recordingStart()
    await expect(
      withParallel(scripts, { UPDATESAFE_WORKERS: '2' }, async () => Promise.reject(new Error('bad record')), start)
    ).rejects.toThrow('bad record')
    expect(started.map((p) => p.closed)).toEqual([true, true])
  })

  it('starts no thread when turned off or when the thread bundles are missing', async () => {
    const { started, start } = recordingStart()
    expect(await withParallel(scripts, { UPDATESAFE_WORKERS: '0' }, async (par) => par, start)).toBeUndefined()
    expect(await withParallel(undefined, { UPDATESAFE_WORKERS: '3' }, async (par) => par, start)).toBeUndefined()
    expect(started).toEqual([])
  })
})

describe('bundledWorkers', () => {
  it('finds both thread bundles beside the committed entry bundles, and none beside the sources', () => {
    const root = path.resolve('.')
    const url = (p: string) => pathToFileURL(path.join(root, p)).href
    const both = { tasks: path.join(root, 'dist/worker/index.js'), write: path.join(root, 'dist/writer/index.js') }
    expect(bundledWorkers(url('dist/cli/index.js'), '..')).toEqual(both)
    expect(bundledWorkers(url('dist/index.js'), '.')).toEqual(both)
    expect(bundledWorkers(url('src/cli.ts'), '..')).toBeUndefined()
  })
})
