// Real worker threads: the pool starts the committed worker bundle (as the CLI
// and the action do) and must give exactly what this thread computes.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readRecord } from '../../src/catalog/load.js'
import { classifyReleases } from '../../src/classify/classifier.js'
import { workerPool, type WorkerPool } from '../../src/workers/index.js'
import { tempDir } from '../support/tmp.js'

const SCRIPT = path.resolve('dist/worker/index.js')
const notes = readFileSync('__tests__/fixtures/release-notes/notes.jsonl', 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { version: string; notes: string })

let dir: string
let cleanup: () => Promise<void>
let pool: WorkerPool
beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir())
  pool = workerPool(SCRIPT, 2)
})
afterEach(async () => {
  await pool.close()
  await cleanup()
})

describe('workerPool (threads running dist/worker/index.js)', () => {
  it('starts no thread until the first task', () => {
    expect(pool.started).toBe(false)
  })

  it('classifies real notes exactly as this thread does, over both threads at once', async () => {
    const inputs = notes.map((n) => ({ releases: [{ version: n.version, notes: n.notes }] }))
    const halves = [inputs.slice(0, 116), inputs.slice(116)]
    const results = await Promise.all(halves.map((h) => pool.run({ kind: 'classify', inputs: h })))
    expect(pool.started).toBe(true)
    expect(results.flat()).toEqual(inputs.map(classifyReleases))
  })

  it('reads records, issues included, exactly as this thread does', async () => {
    await mkdir(path.join(dir, 'apps'))
    const good = path.join(dir, 'apps', 'good.yml')
    const bad = path.join(dir, 'apps', 'bad.yml')
    await writeFile(good, 'name: Good\nrepo: owner/good\n')
    await writeFile(bad, 'name: Bad\nrepo: not-a-repo\ncolour: red\n')
    const files = [good, bad, path.join(dir, 'apps', 'missing.yml')]
    expect(await pool.run({ kind: 'load', files })).toEqual(files.map(readRecord))
  })

  it('writes files, and a failed write rejects with the thread error without breaking the pool', async () => {
    const target = path.join(dir, 'out', 'a', 'b.txt')
    expect(await pool.run({ kind: 'write', files: [[target, 'hello']] })).toBe(1)
    expect(await readFile(target, 'utf8')).toBe('hello')
    // Files are created exclusively: writing one twice is an error.
    await expect(pool.run({ kind: 'write', files: [[target, 'again']] })).rejects.toThrow('EEXIST')
    expect(await readFile(target, 'utf8')).toBe('hello')
    expect(await pool.run({ kind: 'classify', inputs: [{ releases: [] }] })).toEqual([
      classifyReleases({ releases: [] })
    ])
  })

  it('recycles: rejects what the threads still run, then starts fresh threads that work as before', async () => {
    const inputs = notes.map((n) => ({ releases: [{ version: n.version, notes: n.notes }] }))
    expect(await pool.run({ kind: 'classify', inputs: inputs.slice(0, 5) })).toEqual(
      inputs.slice(0, 5).map(classifyReleases)
    )
    const running = pool.run({ kind: 'classify', inputs })
    await pool.recycle()
    await expect(running).rejects.toThrow('recycled')
    expect(pool.started).toBe(false)
    expect(await pool.run({ kind: 'classify', inputs: inputs.slice(5, 10) })).toEqual(
      inputs.slice(5, 10).map(classifyReleases)
    )
    expect(pool.started).toBe(true)
  })

  it('a thread of the writer bundle (dist/writer/index.js) writes batches and refuses any other task', async () => {
    const writers = workerPool(path.resolve('dist/writer/index.js'), 1)
    try {
      const target = path.join(dir, 'w', 'x.txt')
      expect(await writers.run({ kind: 'write', files: [[target, 'written']] })).toBe(1)
      expect(await readFile(target, 'utf8')).toBe('written')
      await expect(writers.run({ kind: 'classify', inputs: [] })).rejects.toThrow('only write tasks, not "classify"')
    } finally {
      await writers.close()
    }
  })

  it('rejects tasks after close', async () => {
    await pool.run({ kind: 'classify', inputs: [] })
    await pool.close()
    await expect(pool.run({ kind: 'classify', inputs: [] })).rejects.toThrow('closed')
  })
})
