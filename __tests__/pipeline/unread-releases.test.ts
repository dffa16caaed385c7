// Nothing unread or contradictory is published as safe (issue 56). A release that is not read is a gap in the
// history, so every verdict across it is unknown: one below a notes file's window, one GitHub flags as a prerelease
// though its label reads as stable, one a sampled notes file does not hold. Contradictory input is resolved to the
// more cautious verdict, with a warning: two lines of a notes file for one version, a latest version that goes back.
// The notes here are made up; they say what they exercise.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { main } from '../../src/commands.js'
import type { BuildDeps } from '../../src/pipeline/pipeline.js'
import { releasesDocSchema, statusDocSchema, type AppDoc, type ReleasesDoc } from '../../src/schema/index.js'
import { refreshFromGitHub } from '../../src/upstream/github/refresh.js'
import type { Logger } from '../../src/util/types.js'
import { builder, seedNotesLine, writeDemoCatalog } from '../support/demo-chain.js'
import { startFakeGitHub, type FakeRelease } from '../support/fake-github.js'
import { tempDir } from '../support/tmp.js'

const TOKEN = 'ghs_unreadreleasestesttoken012345678'
const BASE = 'https://example.org/catalog'
// Made-up notes: a bug fix the classifier calls safe, and a removed setting it calls breaking.
const FIX = (n: number) => `## Bug fixes\n\n- The sidebar keeps its width after a reload (made-up note ${n})`
const BREAKING =
  '## Breaking changes\n\n- The `DEMO_LISTEN` setting was removed. You must set `DEMO_PORT` instead before upgrading.'

let dir: string
let cleanup: () => Promise<void>
let lines: string[] = []
const log: Logger = {
  info: (m) => lines.push(m),
  warning: (m) => lines.push(`warning: ${m}`),
  error: (m) => lines.push(`error: ${m}`)
}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir())
  await writeDemoCatalog(dir)
  // Published before: v1.0.0, from the catalog's seed and its notes.
  await builder(dir, BASE, log)('s1', '2026-11-01T12:00:00.000Z')
})
afterAll(() => cleanup())

const notesLine = (version: string, notes: string, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ repo: 'demo-org/demo', version, tag: version, date: '2026-11-10', notes, ...extra })}\n`

async function notesFile(name: string, ...entries: string[]): Promise<string> {
  await writeFile(path.join(dir, name), seedNotesLine() + entries.join(''))
  return name
}

async function published(out: string): Promise<{ record: AppDoc; history: ReleasesDoc }> {
  const read = (p: string) => readFile(path.join(dir, out, p), 'utf8')
  return {
    record: JSON.parse(await read('api/v1/apps/demo.json')) as AppDoc,
    history: releasesDocSchema.parse(JSON.parse(await read('api/v1/apps/demo/releases.json')))
  }
}

async function checkFrom(out: string, version: string): Promise<{ safeToUpdate: string; rationale: string }> {
  const text: string[] = []
  await main(['check', '--api', path.join(dir, out), '--from', `demo=${version}`, '--json'], log, {}, (t) =>
    text.push(t)
  )
  return (JSON.parse(text.join('')) as { apps: { safeToUpdate: string; rationale: string }[] }).apps[0]!
}

/** A refresh against a GitHub stand-in holding demo's `releases`. */
async function withGitHub<T>(releases: FakeRelease[], run: (refresh: BuildDeps['refresh']) => Promise<T>): Promise<T> {
  const fake = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'demo-org', name: 'demo', releases }] })
  try {
    return await run(async (targets) =>
      refreshFromGitHub(targets, {
        token: TOKEN,
        apiUrl: fake.apiUrl,
        graphqlUrl: fake.graphqlUrl,
        now: new Date('2026-11-16T06:00:00.000Z'),
        log,
        retry: { retries: 0 }
      })
    )
  } finally {
    await fake.close()
  }
}

describe('a notes file', () => {
  it('records the releases below its window as a gap, so a breaking one there is never crossed as safe', async () => {
    // 60 releases since the published v1.0.0, the 5th breaking: the newest 50 are read, v1.0.1 … v1.0.10 are not.
    const entries = Array.from({ length: 60 }, (_, i) => notesLine(`v1.0.${i + 1}`, i + 1 === 5 ? BREAKING : FIX(i)))
    const at = builder(dir, BASE, log, await notesFile('window.jsonl', ...entries))
    await at('w2', '2026-11-16T06:00:00.000Z', 's1')
    const { record, history } = await published('w2')
    expect(record.safeToUpdate).toBe('unknown')
    expect(record.rationale).toContain('the releases after v1.0.0 and before v1.0.11 were never read')
    // The history keeps its newest 50 releases, the 50 read: the gap lies below them all, so it is not kept, and
    // every update from below them is unknown anyway.
    expect(history.releases.map((e) => e.version).at(-1)).toBe('v1.0.11')
    expect((await checkFrom('w2', 'v1.0.0')).safeToUpdate).toBe('unknown')
    expect((await checkFrom('w2', 'v1.0.5')).safeToUpdate).toBe('unknown')
    expect((await checkFrom('w2', 'v1.0.11')).safeToUpdate).toBe('safe')
  })

  it('records a release missing from a sampled history as a gap: check says unknown across it, never safe', async () => {
    // v1.0.2 is not in the file: v1.0.1 → v1.0.3 crosses it.
    const at = builder(dir, BASE, log, await notesFile('sampled.jsonl', notesLine('v1.0.1', FIX(1))))
    await at('n2', '2026-11-16T06:00:00.000Z', 's1')
    await notesFile('sampled.jsonl', notesLine('v1.0.1', FIX(1)), notesLine('v1.0.3', FIX(3)))
    await at('n3', '2026-11-17T06:00:00.000Z', 'n2')
    const { record, history } = await published('n3')
    expect(history.releases.map((e) => e.version)).toEqual(['v1.0.3', 'v1.0.1', 'v1.0.0'])
    expect(history.gaps).toEqual([{ after: 'v1.0.1', before: 'v1.0.3', found: '2026-11-17' }])
    expect(record).toMatchObject({ latestVersion: 'v1.0.3', safeToUpdate: 'unknown' })
    expect(record.rationale).toContain('the releases after v1.0.1 and before v1.0.3 were never read')
    const across = await checkFrom('n3', 'v1.0.1')
    expect(across.safeToUpdate).toBe('unknown')
    expect(across.rationale).toContain('after v1.0.1 and before v1.0.3 were never read')
    expect((await checkFrom('n3', 'v1.0.2')).safeToUpdate).toBe('unknown')
    expect((await checkFrom('n3', 'v1.0.0')).safeToUpdate).toBe('unknown')
    // Adjacent releases are crossed as read.
    expect((await checkFrom('n2', 'v1.0.0')).safeToUpdate).toBe('safe')
  })

  it('reads both notes of a version given twice, so the more cautious decides, and warns naming the file and line', async () => {
    for (const [name, order] of [
      ['dup-a.jsonl', [FIX(1), BREAKING]],
      ['dup-b.jsonl', [BREAKING, FIX(1)]]
    ] as const) {
      lines = []
      const file = await notesFile(name, ...order.map((notes) => notesLine('v1.0.1', notes)))
      const out = `d-${name}`
      await builder(dir, BASE, log, file)(out, '2026-11-16T06:00:00.000Z', 's1')
      const { record, history } = await published(out)
      expect(record).toMatchObject({ latestVersion: 'v1.0.1', safeToUpdate: 'breaking' })
      expect(history.releases.find((e) => e.version === 'v1.0.1')?.safeToUpdate).toBe('breaking')
      expect(lines).toContainEqual(
        expect.stringMatching(/^warning: version "v1\.0\.1" is also on line 2 with other notes; both notes are read/)
      )
    }
  })
})

describe('a previous snapshot', () => {
  it('whose verdict was edited from breaking to safe is judged again from the notes the build holds, with a warning', async () => {
    const at = builder(dir, BASE, log, await notesFile('tamper.jsonl', notesLine('v1.0.1', BREAKING)))
    await at('t2', '2026-11-16T06:00:00.000Z', 's1')
    expect((await published('t2')).record.safeToUpdate).toBe('breaking')
    // Someone edits the published snapshot: the release, and the record with it, now say safe.
    const edit = async (file: string, change: (text: string) => string) => {
      const at = path.join(dir, 't2', file)
      await writeFile(at, change(await readFile(at, 'utf8')))
    }
    const safe = (t: string) =>
      t.replace(/("safeToUpdate": ?)"breaking"/g, '$1"safe"').replace(/("breakingKind": ?)"\w+"/g, '$1null')
    await edit('api/v1/apps/demo/releases.json', safe)
    await edit('api/v1/apps/demo.json', safe)
    await edit('api/v1/apps.json', safe)
    lines = []
    await at('t3', '2026-11-17T06:00:00.000Z', 't2')
    const { record, history } = await published('t3')
    expect(record.safeToUpdate).toBe('breaking')
    expect(history.releases.find((e) => e.version === 'v1.0.1')?.safeToUpdate).toBe('breaking')
    expect((await checkFrom('t3', 'v1.0.0')).safeToUpdate).toBe('breaking')
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^warning: demo: the previous snapshot's verdict for "v1\.0\.1" does not hold: .*safe there, breaking now/
      )
    )
  })
})

describe('a refresh', () => {
  it('records a release flagged as prerelease but labelled stable, between the published and the latest, as a gap', async () => {
    const releases: FakeRelease[] = [
      { tagName: 'v1.0.0', createdAt: '2026-10-01T12:00:00Z', body: FIX(0) },
      { tagName: 'v2.0.0', createdAt: '2026-11-01T12:00:00Z', body: BREAKING, prerelease: true },
      { tagName: 'v2.0.1', createdAt: '2026-11-10T12:00:00Z', body: FIX(2) }
    ]
    lines = []
    await withGitHub(releases, (refresh) => builder(dir, BASE, log)('p2', '2026-11-16T06:00:00.000Z', 's1', refresh))
    const { record, history } = await published('p2')
    expect(record).toMatchObject({ latestVersion: 'v2.0.1', safeToUpdate: 'unknown' })
    expect(record.rationale).toContain('the releases after v1.0.0 and before v2.0.1 were never read')
    expect(history.gaps).toEqual([{ after: 'v1.0.0', before: 'v2.0.1', found: '2026-11-16' }])
    expect(lines).toContainEqual(expect.stringMatching(/^warning: GitHub: demo: "v2\.0\.0" flagged as prerelease/))
    expect((await checkFrom('p2', 'v1.0.0')).safeToUpdate).toBe('unknown')
  })

  it('says so when a record names a newer release than the notes file holds: none is read, that one unjudged', async () => {
    const catalog = path.join(dir, 'ahead-catalog')
    await mkdir(path.join(catalog, 'apps'), { recursive: true })
    await writeFile(
      path.join(catalog, 'apps/ahead.yml'),
      'name: Ahead\nrepo: demo-org/ahead\nrelease:\n  version: v3.0.0\n' +
        '  url: https://github.com/demo-org/ahead/releases/tag/v3.0.0\n  checked: 2026-11-20\n'
    )
    const file = path.join(dir, 'ahead.jsonl')
    const line = (version: string, n: number) =>
      `${JSON.stringify({ repo: 'demo-org/ahead', version, tag: version, date: '2026-11-10', notes: FIX(n) })}\n`
    await writeFile(file, line('v1.0.0', 0) + line('v1.1.0', 1))
    lines = []
    const out = path.join(dir, 'ahead-out')
    const args = ['build', '--catalog', catalog, '--out', out, '--notes-from', file, '--judge', 'rules']
    expect(await main([...args, '--now', '2026-11-21T12:00:00Z'], log, {})).toBe(0)
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^warning: ahead: the notes file's 2 releases of demo-org\/ahead are older than the record's release "v3\.0\.0", so none is read/
      )
    )
    const record = JSON.parse(await readFile(path.join(out, 'api/v1/apps/ahead.json'), 'utf8')) as AppDoc
    expect(record).toMatchObject({ latestVersion: 'v3.0.0', safeToUpdate: 'unknown' })
  })

  it('never takes the record back to an older version in silence: the published one is kept, stale, named', async () => {
    const v110 = { tagName: 'v1.1.0', createdAt: '2026-11-10T12:00:00Z', body: FIX(1) }
    const v100 = { tagName: 'v1.0.0', createdAt: '2026-10-01T12:00:00Z', body: FIX(0) }
    await withGitHub([v100, v110], (refresh) =>
      builder(dir, BASE, log)('b2', '2026-11-16T06:00:00.000Z', 's1', refresh)
    )
    expect((await published('b2')).record.latestVersion).toBe('v1.1.0')
    // v1.1.0 is deleted upstream: the newest release is v1.0.0 again.
    lines = []
    const r = await withGitHub([v100], (refresh) =>
      builder(dir, BASE, log)('b3', '2026-11-17T06:00:00.000Z', 'b2', refresh)
    )
    expect((await published('b3')).record.latestVersion).toBe('v1.1.0')
    expect(r.stale).toEqual(['demo'])
    const status = statusDocSchema.parse(JSON.parse(await readFile(path.join(dir, 'b3/api/v1/status.json'), 'utf8')))
    expect(JSON.stringify(status)).toContain('demo')
    expect(lines).toContainEqual(
      expect.stringMatching(/^warning: demo: stale.*newest release "v1\.0\.0" is older than the published "v1\.1\.0"/)
    )
  })
})
