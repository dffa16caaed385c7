// A catalog record with no release facts (issue 57): name, repo and images alone, as the generated records of
// apps never read are. Offline it is published `unknown`, its releases not read yet, never an error or left out;
// the refresh that reads it later starts from nothing, not from the placeholder.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { build, type BuildDeps } from '../../src/pipeline/pipeline.js'
import { NOT_READ_VERSION } from '../../src/schema/index.js'
import type { CatalogDoc, StatusDoc } from '../../src/schema/index.js'
import type { RefreshOutcome, RefreshTarget } from '../../src/upstream/github/refresh.js'
import type { Logger } from '../../src/util/types.js'
import { tempDir } from '../support/tmp.js'

let dir: string
let cleanup: () => Promise<void>
let warnings: string[]
const log: Logger = { info: () => {}, warning: (m) => warnings.push(m), error: (m) => warnings.push(m) }

const BARE = `name: Quiet Tool
repo: example/quiet-tool
images:
  - example/quiet-tool
community:
  - image: lscr.io/linuxserver/quiet-tool
    tags: linuxserver
categories:
  - Utilities
`
const SEEDED = `name: Seeded Tool
repo: example/seeded-tool
images:
  - example/seeded-tool
categories:
  - Utilities
release:
  version: v2.0.1
  url: https://github.com/example/seeded-tool/releases/tag/v2.0.1
  date: 2026-10-02
  checked: 2026-11-20
`
// Made-up notes, in the data set's shape, for another app only.
const NOTES = `${JSON.stringify({
  app: 'other',
  repo: 'example/other',
  version: 'v1.0.0',
  date: '2026-11-01',
  source: 'github-release',
  url: 'https://github.com/example/other/releases/tag/v1.0.0',
  notes: 'Small fixes to the settings screen.'
})}\n`

beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir())
  warnings = []
  await mkdir(path.join(dir, 'catalog/apps'), { recursive: true })
  await writeFile(path.join(dir, 'catalog/apps/quiet-tool.yml'), BARE)
  await writeFile(path.join(dir, 'catalog/apps/seeded-tool.yml'), SEEDED)
  await writeFile(path.join(dir, 'notes.jsonl'), NOTES)
})
afterEach(() => cleanup())

const read = async <T>(out: string, file: string) => JSON.parse(await readFile(path.join(dir, out, file), 'utf8')) as T

function run(
  out: string,
  extra: { notesFrom?: string; previous?: string; refresh?: boolean },
  deps: Partial<BuildDeps> = {}
) {
  return build(
    {
      catalogDir: 'catalog',
      outDir: out,
      baseUrl: 'https://example.org/c',
      now: new Date('2026-12-02T06:00:00.000Z'),
      cwd: dir,
      ...(extra.notesFrom ? { notesFrom: path.join(dir, extra.notesFrom) } : {}),
      ...(extra.previous ? { previousDir: extra.previous } : {}),
      ...(extra.refresh ? { refresh: true } : {})
    },
    { log, ...deps }
  )
}

describe('a record with no release facts', () => {
  it.each([
    ['offline, nothing read', {}],
    ['from a notes file that lacks it', { notesFrom: 'notes.jsonl' }]
  ])('%s: builds, published unknown as not read yet', async (_label, extra) => {
    const r = await run('site', extra)
    expect(r.leftOut).toEqual([])
    const apps = (await read<CatalogDoc>('site', 'api/v1/apps.json')).apps
    expect(apps.map((a) => a.slug)).toEqual(['quiet-tool', 'seeded-tool'])
    const [quiet, seeded] = apps
    expect(quiet).toMatchObject({
      latestVersion: NOT_READ_VERSION,
      safeToUpdate: 'unknown',
      changelogSummary: null,
      sourceUrl: 'https://github.com/example/quiet-tool/releases',
      // As of the other facts' day, so the index's "as of" does not move to the build's.
      lastChecked: '2026-11-20'
    })
    expect(quiet!.rationale).toMatch(/^Assessment pending: the releases of example\/quiet-tool are not read yet/)
    // A seed without notes is pending too: its notes are not read yet.
    expect(seeded).toMatchObject({ latestVersion: 'v2.0.1', safeToUpdate: 'unknown' })
    expect(seeded!.rationale).toMatch(/release notes of v2\.0\.1 have not been read yet/)
    const status = await read<StatusDoc>('site', 'api/v1/status.json')
    expect(status.counts).toMatchObject({ apps: 2, failed: 0 })
    const page = await readFile(path.join(dir, 'site/apps/quiet-tool/index.html'), 'utf8')
    expect(page).toContain('the releases of example/quiet-tool are not read yet')
    // The placeholder is no version: the pages, the badge and the feed say so in words and never show it.
    expect(page).toContain('<dt>Latest version</dt><dd>not read yet</dd>')
    expect(page).toMatch(/<h1>[^<]*<\/h1>/)
    const badge = await readFile(path.join(dir, 'site/badge/quiet-tool.svg'), 'utf8')
    expect(badge).toContain('<title>update safety: unknown · not read yet</title>')
    const shown = [page, badge, await readFile(path.join(dir, 'site/index.html'), 'utf8')]
    // The feed's entry ids keep the record's value: an id is never shown, and a changed one would announce again.
    const feed = await readFile(path.join(dir, 'site/apps/quiet-tool/feed.xml'), 'utf8')
    expect(feed).toContain('<title type="text">Quiet Tool: unknown, no release read yet</title>')
    shown.push(feed.replace(/<id>[^<]*<\/id>/g, ''))
    for (const text of shown) expect(text).not.toContain(NOT_READ_VERSION)
    // The index counts both kinds as not read yet, from the rationales this build wrote.
    expect(await readFile(path.join(dir, 'site/index.html'), 'utf8')).toMatch(
      /<p [^>]*id="unread">2 apps are not read yet/
    )
  })

  it('the next refresh reads it from nothing (not since the placeholder), and publishes the release', async () => {
    await run('day1', {})
    const seen: RefreshTarget[] = []
    const outcome: RefreshOutcome = {
      status: 'fresh',
      facts: {
        version: 'v0.9.0',
        url: 'https://github.com/example/quiet-tool/releases/tag/v0.9.0',
        date: '2026-11-30',
        notes: 'Adds a dark theme and fixes the export button.',
        checked: '2026-12-02',
        archived: false,
        crossed: []
      }
    }
    await run(
      'day2',
      { previous: path.join(dir, 'day1'), refresh: true },
      {
        refresh: async (targets) => {
          seen.push(...targets)
          const outcomes = new Map<string, RefreshOutcome>()
          for (const t of targets)
            outcomes.set(t.slug, t.repo === 'example/quiet-tool' ? outcome : { status: 'failed', reason: 'HTTP 502' })
          return { outcomes, stats: { requests: 1, graphqlPoints: 1, remaining: 4999, batches: 1 } }
        }
      }
    )
    expect(seen.find((t) => t.slug === 'quiet-tool')?.previousVersion).toBeUndefined()
    const quiet = (await read<CatalogDoc>('day2', 'api/v1/apps.json')).apps.find((a) => a.slug === 'quiet-tool')
    expect(quiet).toMatchObject({ latestVersion: 'v0.9.0' })
    expect(quiet!.safeToUpdate).not.toBe('unknown')
  })

  it('a seed added later wins over the record published unread', async () => {
    await run('day1', {})
    await writeFile(
      path.join(dir, 'catalog/apps/quiet-tool.yml'),
      `${BARE}release:\n  version: v0.8.0\n  url: https://github.com/example/quiet-tool/releases/tag/v0.8.0\n  checked: 2026-11-10\n`
    )
    await run('day2', { previous: path.join(dir, 'day1') })
    const quiet = (await read<CatalogDoc>('day2', 'api/v1/apps.json')).apps.find((a) => a.slug === 'quiet-tool')
    expect(quiet).toMatchObject({ latestVersion: 'v0.8.0', safeToUpdate: 'unknown' })
    expect(quiet!.rationale).toMatch(/release notes of v0\.8\.0 have not been read yet/)
  })

  it('an archived record with no release is unmaintained, names its successor, and a refresh still reads it from nothing', async () => {
    await writeFile(
      path.join(dir, 'catalog/apps/quiet-tool.yml'),
      `${BARE}archived: true\nsuccessor: example/loud-tool\n`
    )
    await run('day1', {})
    const first = (await read<CatalogDoc>('day1', 'api/v1/apps.json')).apps.find((a) => a.slug === 'quiet-tool')
    expect(first).toMatchObject({
      latestVersion: NOT_READ_VERSION,
      safeToUpdate: 'unmaintained',
      successor: 'example/loud-tool'
    })
    expect(first!.rationale).toMatch(/^Unmaintained \(archived\): the catalog records example\/quiet-tool as archived/)
    const badge = await readFile(path.join(dir, 'day1/badge/quiet-tool.svg'), 'utf8')
    expect(badge).toContain('<title>update safety: unmaintained · not read yet</title>')
    // Offline again from it: still unmaintained; a refresh then asks for its releases from nothing.
    await run('day2', { previous: path.join(dir, 'day1') })
    const kept = (await read<CatalogDoc>('day2', 'api/v1/apps.json')).apps.find((a) => a.slug === 'quiet-tool')
    expect(kept).toMatchObject({ latestVersion: NOT_READ_VERSION, safeToUpdate: 'unmaintained' })
    const seen: RefreshTarget[] = []
    await run(
      'day3',
      { previous: path.join(dir, 'day2'), refresh: true },
      {
        refresh: async (targets) => {
          seen.push(...targets)
          return {
            outcomes: new Map(targets.map((t) => [t.slug, { status: 'failed', reason: 'HTTP 502' } as RefreshOutcome])),
            stats: { requests: 1, graphqlPoints: 1, remaining: 4999, batches: 1 }
          }
        }
      }
    )
    expect(seen.find((t) => t.slug === 'quiet-tool')?.previousVersion).toBeUndefined()
  })

  it('a seed checked years ahead (a typo) is warned about by file and field, and moves no other app’s day', async () => {
    await writeFile(
      path.join(dir, 'catalog/apps/seeded-tool.yml'),
      SEEDED.replace('checked: 2026-11-20', 'checked: 2099-01-01')
    )
    await writeFile(
      path.join(dir, 'catalog/apps/dated-tool.yml'),
      SEEDED.replaceAll('seeded-tool', 'dated-tool').replace('Seeded Tool', 'Dated Tool')
    )
    await run('site', {})
    const apps = (await read<CatalogDoc>('site', 'api/v1/apps.json')).apps
    expect(apps.find((a) => a.slug === 'quiet-tool')!.lastChecked).toBe('2026-11-20')
    expect(warnings).toContainEqual(
      expect.stringMatching(/^release\.checked: 2099-01-01 is more than a year after today \(2026-12-02\)/)
    )
    const index = await readFile(path.join(dir, 'site/index.html'), 'utf8')
    expect(index).toContain('<strong>Offline data, as of 2026-11-20.</strong>')
  })
})
