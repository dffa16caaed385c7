// The per-release history through real builds: chains of snapshots, each built with --previous
// pointing at the one before, with and without a refresh, and with upstream faults.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { BuildDeps } from '../../src/pipeline/pipeline.js'
import { basisOf } from '../../src/pipeline/history.js'
import { verdictFrom } from '../../src/classify/index.js'
import { CLASSIFIER_DIGEST } from '../../src/classify/index.js'
import { releasesDocSchema, type AppDoc, type ReleasesDoc } from '../../src/schema/index.js'
import type { Logger } from '../../src/util/types.js'
import { tempDir } from '../support/tmp.js'
import {
  BREAKING,
  builder,
  FIX,
  NOTES_FILE,
  release,
  SEED,
  SEED_NOTES,
  seedNotesLine,
  upstream,
  writeDemoCatalog
} from '../support/demo-chain.js'

let dir: string
let cleanup: () => Promise<void>
let warnings: string[]
const log: Logger = { info: () => {}, warning: (m) => warnings.push(m), error: (m) => warnings.push(m) }
const BASE = 'https://example.org/catalog'

beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir())
  warnings = []
  await writeDemoCatalog(dir)
})
afterEach(() => cleanup())

const failing: BuildDeps['refresh'] = async (targets) => ({
  outcomes: new Map(targets.map((t) => [t.slug, { status: 'failed', reason: 'HTTP 502 after retries' } as const])),
  stats: { requests: 1, graphqlPoints: 0, remaining: null, batches: 1 }
})

function run(out: string, now: string, previous?: string, refresh?: BuildDeps['refresh']) {
  return builder(dir, BASE, log)(out, now, previous, refresh)
}

async function releasesOf(out: string): Promise<{ text: string; doc: ReleasesDoc }> {
  const text = await readFile(path.join(dir, out, 'api/v1/apps/demo/releases.json'), 'utf8')
  return { text, doc: releasesDocSchema.parse(JSON.parse(text)) }
}

async function recordOf(out: string): Promise<AppDoc> {
  return JSON.parse(await readFile(path.join(dir, out, 'api/v1/apps/demo.json'), 'utf8')) as AppDoc
}

describe('history across snapshots', () => {
  it('keeps every judged release over three refreshed builds; a breaking release in between makes the verdict from before it breaking', async () => {
    await run('s1', '2026-11-01T12:00:00.000Z')
    expect((await releasesOf('s1')).doc.releases.map((r) => r.version)).toEqual(['v1.0.0'])

    const r11 = release('v1.1.0', BREAKING, '2026-11-10')
    await run('s2', '2026-11-11T12:00:00.000Z', 's1', upstream([r11], '2026-11-11'))
    expect((await recordOf('s2')).safeToUpdate).toBe('breaking')

    const r12 = release('v1.2.0', FIX, '2026-11-20')
    await run('s3', '2026-11-21T12:00:00.000Z', 's2', upstream([r11, r12], '2026-11-21'))
    const record = await recordOf('s3')
    // The record judges the update from what was published last (v1.1.0): only v1.2.0 is crossed.
    expect(record.latestVersion).toBe('v1.2.0')
    expect(record.safeToUpdate).not.toBe('breaking')

    const { doc } = await releasesOf('s3')
    expect(doc.releases.map((r) => [r.version, r.tag, r.date])).toEqual([
      ['v1.2.0', 'v1.2.0', '2026-11-20'],
      ['v1.1.0', 'v1.1.0', '2026-11-10'],
      ['v1.0.0', 'v1.0.0', '2026-10-01']
    ])
    const breaking = doc.releases.find((r) => r.version === 'v1.1.0')!
    expect(breaking).toMatchObject({ safeToUpdate: 'breaking', breakingKind: 'required', security: false })
    expect(breaking.quote).toContain('LEGACY_AUTH')
    expect(breaking.url).toBe('https://github.com/demo-org/demo/releases/tag/v1.1.0')
    expect(doc.latest).toEqual({
      version: 'v1.2.0',
      considered: ['v1.2.0'],
      decidedBy: 'v1.2.0',
      rule: expect.any(String)
    })

    // Someone still on v1.0.0 crosses the breaking v1.1.0: breaking, decided by it, whatever the record says.
    const from10 = verdictFrom(doc.releases, 'v1.0.0', { latest: record.latestVersion })
    expect(from10.safeToUpdate).toBe('breaking')
    expect(from10.decidedBy?.version).toBe('v1.1.0')
    expect(from10.crossed.map((e) => e.version)).toEqual(['v1.2.0', 'v1.1.0'])
    expect(from10.rationale).toContain('LEGACY_AUTH')
    // From v1.1.0 only v1.2.0 is crossed; from the latest there is nothing to update.
    expect(verdictFrom(doc.releases, '1.1.0', { latest: record.latestVersion }).safeToUpdate).toBe(record.safeToUpdate)
    expect(verdictFrom(doc.releases, 'v1.2.0', { latest: record.latestVersion }).crossed).toEqual([])
    // Older than the history reaches, or a label it cannot place: unknown, never safe.
    expect(verdictFrom(doc.releases, 'v0.9.0').safeToUpdate).toBe('unknown')
    expect(verdictFrom(doc.releases, 'nightly').safeToUpdate).toBe('unknown')

    // The page shows the table, with the verdict from each judged release.
    const page = await readFile(path.join(dir, 's3/apps/demo/index.html'), 'utf8')
    expect(page).toContain('Upgrading from an older version?')
    expect(page).toMatch(
      /<tr data-v="v1\.0\.0">[\s\S]*?<\/td><td><span class="k k-breaking">Breaking<\/span> <small>decided by <code>v1\.1\.0<\/code>/
    )
  })

  it('carries the history forward offline and through upstream faults, byte for byte while nothing changes', async () => {
    await run('s1', '2026-11-01T12:00:00.000Z')
    await run(
      's2',
      '2026-11-11T12:00:00.000Z',
      's1',
      upstream([release('v1.1.0', BREAKING, '2026-11-10')], '2026-11-11')
    )
    const judged = await releasesOf('s2')
    expect(judged.doc.generatedAt).toBe('2026-11-11T12:00:00.000Z')
    // Offline (the catalog's seed is older than what was published): nothing is lost, nothing rewritten.
    await run('s3', '2026-11-12T12:00:00.000Z', 's2')
    expect((await releasesOf('s3')).text).toBe(judged.text)
    // GitHub fails: the record is republished stale, the history as it was.
    const faulty = await run('s4', '2026-11-13T12:00:00.000Z', 's3', failing)
    expect(faulty.stale).toEqual(['demo'])
    expect((await releasesOf('s4')).text).toBe(judged.text)
    // A quiet refresh (the same latest release, the same notes): yesterday's verdict and documents stay.
    const quiet = await run(
      's5',
      '2026-11-14T12:00:00.000Z',
      's4',
      upstream([release('v1.1.0', BREAKING, '2026-11-10')], '2026-11-14')
    )
    expect(quiet.changed).toEqual([])
    expect((await releasesOf('s5')).text).toBe(judged.text)
    expect((await recordOf('s5')).safeToUpdate).toBe('breaking')
  })

  it('a quiet offline or stale rebuild moves only status.json and the index: the page keeps the release date the history holds', async () => {
    await run('s1', '2026-11-01T12:00:00.000Z')
    await run(
      's2',
      '2026-11-11T12:00:00.000Z',
      's1',
      upstream([release('v1.1.0', BREAKING, '2026-11-10')], '2026-11-11')
    )
    const page = await readFile(path.join(dir, 's2/apps/demo/index.html'), 'utf8')
    expect(page).toContain('<dt>Released</dt><dd>2026-11-10</dd>')
    // Offline the next day, then with GitHub failing: nothing changed, so only the run's own files move.
    // (The app page of an offline build says so in its banner: it moves once, from the refreshed s2 to s3.)
    await run('s3', '2026-11-12T12:00:00.000Z', 's2')
    expect(await differing('s2', 's3')).toEqual(['api/v1/status.json', 'apps/demo/index.html', 'index.html'])
    expect(await readFile(path.join(dir, 's3/apps/demo/index.html'), 'utf8')).toContain(
      '<dt>Released</dt><dd>2026-11-10</dd>'
    )
    await run('s3b', '2026-11-12T18:00:00.000Z', 's3')
    expect(await differing('s3', 's3b')).toEqual(['api/v1/status.json', 'index.html'])
    expect(await run('s4', '2026-11-13T12:00:00.000Z', 's3', failing)).toMatchObject({ stale: ['demo'] })
    expect(await readFile(path.join(dir, 's4/apps/demo/index.html'), 'utf8')).toContain('2026-11-10')
  })

  it('reuses a verdict only while its basis holds: new notes, a new classifier or a changed override judge again', async () => {
    await run('s1', '2026-11-01T12:00:00.000Z')
    // Doctor the published record: a reused verdict keeps the doctored words. (The history's verdict of a release
    // whose notes the build holds is checked against them: doctored too, it is judged again, with a warning.)
    const doctor = async (out: string, history = false) => {
      const edit = async (file: string, change: (doc: Record<string, unknown>) => void) => {
        const p = path.join(dir, out, file)
        const doc = JSON.parse(await readFile(p, 'utf8')) as Record<string, unknown>
        change(doc)
        await writeFile(p, `${JSON.stringify(doc, null, 2)}\n`)
      }
      const words = 'Doctored words.'
      await edit('api/v1/apps.json', (d) => ((d.apps as { rationale: string }[])[0]!.rationale = words))
      await edit('api/v1/apps/demo.json', (d) => (d.rationale = words))
      if (history)
        await edit(
          'api/v1/apps/demo/releases.json',
          (d) => ((d.releases as { rationale: string }[])[0]!.rationale = words)
        )
    }
    await doctor('s1')
    await run('s2', '2026-11-02T12:00:00.000Z', 's1')
    expect((await recordOf('s2')).rationale).toBe('Doctored words.')
    expect((await releasesOf('s2')).doc.releases[0]!.rationale).toContain('demo inbox')
    expect(warnings).toEqual([])
    await doctor('s2', true)
    await run('s2b', '2026-11-02T13:00:00.000Z', 's2')
    expect((await recordOf('s2b')).rationale).toContain('demo inbox')
    expect((await releasesOf('s2b')).doc.releases[0]!.rationale).toContain('demo inbox')
    expect(warnings).toEqual([
      expect.stringMatching(
        /^demo: the previous snapshot's verdict for "v1\.0\.0" does not hold: it differs in rationale from/
      )
    ])

    // The classifier changed since (its model or judging revision): the basis names another, so judged again.
    const file = path.join(dir, 's2/api/v1/apps/demo/releases.json')
    const doc = JSON.parse(await readFile(file, 'utf8')) as ReleasesDoc
    expect(doc.releases[0]!.basis).toBe(basisOf(CLASSIFIER_DIGEST, undefined, 'v1.0.0', SEED_NOTES))
    doc.releases[0]!.basis = `00000000${doc.releases[0]!.basis.slice(8)}`
    await writeFile(file, JSON.stringify(doc))
    await run('s3', '2026-11-03T12:00:00.000Z', 's2')
    expect((await recordOf('s3')).rationale).toContain('demo inbox')
    expect((await releasesOf('s3')).doc.releases[0]!.rationale).toContain('demo inbox')
    expect((await releasesOf('s3')).doc.releases[0]!.basis.slice(0, 8)).toBe(CLASSIFIER_DIGEST)

    // A curated override for the release: judged again, the override in its basis.
    await doctor('s3', true)
    const yml = path.join(dir, 'catalog/apps/demo.yml')
    await writeFile(
      yml,
      `${SEED}override:\n  class: breaking\n  reason: The upgrade guide asks for a manual step.\n  version: v1.0.0\n`
    )
    await run('s4', '2026-11-04T12:00:00.000Z', 's3')
    const withOverride = await releasesOf('s4')
    expect(withOverride.doc.releases[0]).toMatchObject({ safeToUpdate: 'breaking', breakingKind: 'required' })
    expect(withOverride.doc.releases[0]!.rationale).toContain('Curated override')
    expect(withOverride.doc.releases[0]!.basis.split('.')[1]).not.toBe('00000000')
    expect((await recordOf('s4')).safeToUpdate).toBe('breaking')

    // Edited notes of the same release (the notes file changed, same day): judged again from the new notes.
    await doctor('s4', true)
    await writeFile(yml, SEED)
    await writeFile(
      path.join(dir, NOTES_FILE),
      seedNotesLine(SEED_NOTES.replace('showed its messages without styles (#9586)', 'failed on empty files (#42)'))
    )
    await run('s5', '2026-11-05T12:00:00.000Z', 's4')
    const record = await recordOf('s5')
    expect(record.rationale).not.toContain('Doctored words')
    expect(record.rationale).not.toContain('Curated override')
  })

  it("starts a new app's history with the earlier releases the refresh read, without letting them decide the record", async () => {
    await writeFile(path.join(dir, 'catalog/apps/demo.yml'), 'name: Demo\nrepo: demo-org/demo\n')
    const latest = release('v2.0.1', FIX, '2026-11-20')
    const refresh: BuildDeps['refresh'] = async (targets) => {
      expect(targets[0]!.previousVersion).toBeUndefined()
      const facts = {
        version: latest.version,
        url: latest.url!,
        date: latest.date!,
        notes: latest.notes,
        checked: '2026-11-21',
        archived: false,
        crossed: [latest],
        earlier: [release('v1.9.0', FIX, '2026-10-01'), release('v2.0.0', BREAKING, '2026-11-01')]
      }
      return {
        outcomes: new Map(targets.map((t) => [t.slug, { status: 'fresh', facts } as const])),
        stats: { requests: 1, graphqlPoints: 1, remaining: 4999, batches: 1 }
      }
    }
    await run('s1', '2026-11-21T12:00:00.000Z', undefined, refresh)
    const { doc } = await releasesOf('s1')
    expect(doc.releases.map((r) => [r.version, r.safeToUpdate])).toEqual([
      ['v2.0.1', expect.any(String)],
      ['v2.0.0', 'breaking'],
      ['v1.9.0', expect.any(String)]
    ])
    expect(doc.latest).toMatchObject({ version: 'v2.0.1', considered: ['v2.0.1'] })
    expect((await recordOf('s1')).safeToUpdate).not.toBe('breaking')
    expect(verdictFrom(doc.releases, 'v1.9.0').decidedBy?.version).toBe('v2.0.0')
  })

  it('leaves a release upstream made unpublishable out of the history as a gap, with a warning, and builds the rest', async () => {
    await run('s1', '2026-11-01T12:00:00.000Z')
    const odd = { ...release('v1.1.0', BREAKING, '2026-11-10'), date: '+010000-01-01' }
    const r = await run(
      's2',
      '2026-11-11T12:00:00.000Z',
      's1',
      upstream([odd, release('v1.2.0', FIX, '2026-11-11')], '2026-11-11')
    )
    expect(r.count).toBe(1)
    const { doc } = await releasesOf('s2')
    expect(doc.releases.map((e) => e.version)).toEqual(['v1.2.0', 'v1.0.0'])
    // Never a hole that reads as safe (issue 56): an update across it is unknown.
    expect(doc.gaps).toEqual([{ after: 'v1.0.0', before: 'v1.2.0', found: '2026-11-11' }])
    expect(warnings.some((w) => w.includes('release "v1.1.0" left out of its history, recorded as a gap (date:'))).toBe(
      true
    )
  })

  it('publishes every releases document valid against its schema; a broken previous one is read again after a refresh, and refuses an offline build', async () => {
    await run('s1', '2026-11-01T12:00:00.000Z')
    await writeFile(path.join(dir, 's1/api/v1/apps/demo/releases.json'), '{"schema": "updatesafe.releases.v1"')
    // Offline nothing can read the lost history again (history-loss.test.ts has every way to lose it).
    await expect(run('s2', '2026-11-02T12:00:00.000Z', 's1')).rejects.toThrow(/releases\.json: is not JSON/)
    await run('s2', '2026-11-02T12:00:00.000Z', 's1', upstream([release('v1.0.0', FIX, '2026-10-01')], '2026-11-02'))
    expect(warnings.some((w) => w.includes('releases.json is not JSON'))).toBe(true)
    expect((await releasesOf('s2')).doc.releases).toHaveLength(1)
  })
})

/** The files whose bytes differ between two snapshots (or that only one has). */
async function differing(a: string, b: string): Promise<string[]> {
  const list = async (root: string) =>
    (await readdir(path.join(dir, root), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(path.join(dir, root), path.join(e.parentPath, e.name)).split(path.sep).join('/'))
  const files = [...new Set([...(await list(a)), ...(await list(b))])].sort()
  const out: string[] = []
  for (const f of files) {
    const read = (root: string) => readFile(path.join(dir, root, f)).catch(() => null)
    const [x, y] = [await read(a), await read(b)]
    if (!x || !y || !x.equals(y)) out.push(f)
  }
  return out
}
