// Reading the run report of the previous snapshot: since when apps are stale.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readPreviousChanges, readPreviousHistory, readPreviousRun } from '../../src/pipeline/previous.js'
import { renderStatusDoc } from '../../src/site/status.js'
import type { Logger } from '../../src/util/types.js'
import { tempDir } from '../support/tmp.js'

let dir: string
let cleanup: () => Promise<void>
beforeAll(async () => ({ dir, cleanup } = await tempDir()))
afterAll(() => cleanup())

async function withStatus(name: string, text?: string): Promise<string> {
  const root = path.join(dir, name)
  await mkdir(path.join(root, 'api/v1'), { recursive: true })
  if (text !== undefined) await writeFile(path.join(root, 'api/v1/status.json'), text)
  return root
}

function recorder(): Logger & { warnings: string[] } {
  const warnings: string[] = []
  return { warnings, info: () => {}, warning: (m) => warnings.push(m), error: (m) => warnings.push(m) }
}

describe('readPreviousRun: stale since', () => {
  const report = {
    runAt: '2026-12-09T04:23:00.000Z',
    lastChange: '2026-11-21T04:23:00.000Z',
    refresh: true,
    sourceCommit: null,
    apps: 3,
    refreshed: 1,
    stale: ['gitea', 'adminer'],
    failed: [],
    staleBefore: new Map([['gitea', '2026-12-01T04:23:00.000Z']])
  }

  it('gives each stale app of the previous run its date', async () => {
    const log = recorder()
    const { staleSince: since } = await readPreviousRun(await withStatus('ok', renderStatusDoc(report)), log)
    expect([...since]).toEqual([
      ['adminer', '2026-12-09T04:23:00.000Z'],
      ['gitea', '2026-12-01T04:23:00.000Z']
    ])
    expect(log.warnings).toEqual([])
  })

  it('starts afresh, quietly, before there was a status.json', async () => {
    const log = recorder()
    expect((await readPreviousRun(await withStatus('none'), log)).staleSince.size).toBe(0)
    expect((await readPreviousRun(undefined, log)).staleSince.size).toBe(0)
    expect(log.warnings).toEqual([])
  })

  it('never blocks on a pipe or reads a device in its place: a warning names it, as a damaged document', async () => {
    const root = await withStatus('fifo')
    execFileSync('mkfifo', [path.join(root, 'api/v1/status.json')])
    const log = recorder()
    expect((await readPreviousRun(root, log)).staleSince.size).toBe(0)
    expect(log.warnings.join('\n')).toContain('is not a regular file')
    const changes = await readPreviousChanges(root, log)
    expect(changes.changes).toEqual([])
    await mkdir(path.join(root, 'api/v1/changes.json'))
    expect((await readPreviousChanges(root, recorder())).problem).toContain('is not a regular file')
  })

  it('starts afresh with a warning naming the file when it is not JSON or not the schema', async () => {
    for (const [name, text, why] of [
      ['bad-json', '{', 'is not JSON'],
      ['bad-schema', '{"schema":"updatesafe.status.v1"}', 'does not match updatesafe.status.v1 (runAt:']
    ] as const) {
      const log = recorder()
      expect((await readPreviousRun(await withStatus(name, text), log)).staleSince.size).toBe(0)
      expect(log.warnings).toEqual([expect.stringContaining(`${path.join(dir, name, 'api/v1/status.json')} ${why}`)])
    }
  })
})

describe('readPreviousHistory', () => {
  // An entry as releases.json published it before verdicts named their judge (made-up release).
  const entry = {
    version: 'v1.2.0',
    tag: 'v1.2.0',
    date: '2026-11-01',
    url: 'https://github.com/o/r/releases/tag/v1.2.0',
    safeToUpdate: 'caution',
    rationale: 'Caution in v1.2.0: "Changed the default port": the line says a default changed.',
    evidence: 'says a default changed',
    quote: 'Changed the default port',
    security: false,
    breakingKind: null,
    basis: '703f701b.00000000.0123456789ab'
  }
  const doc = (releases: object[]) =>
    JSON.stringify({
      schema: 'updatesafe.releases.v1',
      generatedAt: '2026-11-02T04:23:00.000Z',
      slug: 'app',
      latest: null,
      releases
    })
  async function withHistory(name: string, text: string): Promise<string> {
    const root = path.join(dir, name)
    await mkdir(path.join(root, 'api/v1/apps/app'), { recursive: true })
    await writeFile(path.join(root, 'api/v1/apps/app/releases.json'), text)
    return root
  }

  it('reads a history written before the judge was named as judged by the rules', async () => {
    const h = readPreviousHistory(await withHistory('old-history', doc([entry])), 'app')
    expect('history' in h && h.history.releases).toEqual([{ ...entry, judge: 'rules', rules: 'caution', model: null }])
  })

  it('keeps a model answer, and refuses a judge that does not name the model kept', async () => {
    const model = {
      id: 'openai/gpt-4.1-mini',
      prompt: 1,
      notes: '0123456789ab',
      class: 'caution',
      breakingKind: null,
      line: 'Changed the default port',
      reason: 'A default changed.'
    }
    const good = { ...entry, judge: 'model:openai/gpt-4.1-mini', rules: 'safe', model }
    const h = readPreviousHistory(await withHistory('model-history', doc([good])), 'app')
    expect('history' in h && h.history.releases).toEqual([good])
    const bad = { ...good, judge: 'model:openai/gpt-4o' }
    const read = readPreviousHistory(await withHistory('bad-judge', doc([bad])), 'app')
    expect('problem' in read && read.problem).toContain('judge')
  })
})
