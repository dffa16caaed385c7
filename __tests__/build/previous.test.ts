// Reading the run report of the previous snapshot: since when apps are stale.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readPreviousStaleSince } from '../../src/build/previous.js'
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

describe('readPreviousStaleSince', () => {
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
    const since = await readPreviousStaleSince(await withStatus('ok', renderStatusDoc(report)), log)
    expect([...since]).toEqual([
      ['adminer', '2026-12-09T04:23:00.000Z'],
      ['gitea', '2026-12-01T04:23:00.000Z']
    ])
    expect(log.warnings).toEqual([])
  })

  it('starts afresh, quietly, before there was a status.json', async () => {
    const log = recorder()
    expect((await readPreviousStaleSince(await withStatus('none'), log)).size).toBe(0)
    expect((await readPreviousStaleSince(undefined, log)).size).toBe(0)
    expect(log.warnings).toEqual([])
  })

  it('starts afresh with a warning naming the file when it is not JSON or not the schema', async () => {
    for (const [name, text, why] of [
      ['bad-json', '{', 'is not JSON'],
      ['bad-schema', '{"schema":"updatesafe.status.v1"}', 'does not match updatesafe.status.v1 (runAt:']
    ] as const) {
      const log = recorder()
      expect((await readPreviousStaleSince(await withStatus(name, text), log)).size).toBe(0)
      expect(log.warnings).toEqual([expect.stringContaining(`${path.join(dir, name, 'api/v1/status.json')} ${why}`)])
    }
  })
})
