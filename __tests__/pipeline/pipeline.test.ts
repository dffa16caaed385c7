// The build flow with its upstream dependencies handed in as plain functions:
// last-known-good merging, no churn, pending assessments and overrides.
import { afterEach, beforeEach, expect, it } from '@jest/globals'
import { describe } from '../support/needs-shared-data.js'
import { cp, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { build, diffRecords, settle, type BuildDeps } from '../../src/pipeline/pipeline.js'
import type { AppRecord, CatalogDoc, StatusDoc } from '../../src/schema/index.js'
import type { Logger, ReleaseFacts } from '../../src/util/types.js'
import type { RefreshOutcome, RefreshTarget } from '../../src/upstream/github/refresh.js'
import { fetchProduct } from '../../src/upstream/endoflife.js'
import { RELEASE_NOTES } from '../support/shared-data.js'
import { tempDir } from '../support/tmp.js'
import { copyJudgedCatalog } from '../support/catalog.js'

let dir: string
let cleanup: () => Promise<void>
let warnings: string[]
const log: Logger = { info: () => {}, warning: (m) => warnings.push(m), error: (m) => warnings.push(m) }
const BASE = 'https://example.org/catalog'

beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir())
  warnings = []
  // The judged part of the bundled catalog and a sample of the rest: a size that does not grow with the catalog.
  await copyJudgedCatalog(path.join(dir, 'catalog'), RELEASE_NOTES, { also: ['grafana'] })
})
afterEach(() => cleanup())

async function catalogAt(out: string): Promise<CatalogDoc> {
  return JSON.parse(await readFile(path.join(dir, out, 'api/v1/apps.json'), 'utf8')) as CatalogDoc
}

async function snapshot(out: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const e of await readdir(path.join(dir, out), { recursive: true, withFileTypes: true })) {
    if (e.isFile())
      files.set(
        path.relative(path.join(dir, out), path.join(e.parentPath, e.name)),
        await readFile(path.join(e.parentPath, e.name), 'utf8')
      )
  }
  return files
}

function run(
  out: string,
  now: string,
  extra: { previous?: string; refresh?: boolean } = {},
  deps: Partial<BuildDeps> = {}
) {
  return build(
    {
      catalogDir: 'catalog',
      outDir: out,
      baseUrl: BASE,
      now: new Date(now),
      cwd: dir,
      ...(extra.previous ? { previousDir: extra.previous } : {}),
      // Offline, the notes of the shared data set: the verdicts a user sees from `npm start`.
      ...(extra.refresh ? { refresh: true } : { notesFrom: RELEASE_NOTES })
    },
    { log, ...deps }
  )
}

function fresh(version: string, notes: string, checked = '2026-12-01'): RefreshOutcome {
  const facts: ReleaseFacts = {
    version,
    url: `https://github.com/x/y/releases/tag/${version}`,
    date: '2026-11-30',
    notes,
    checked,
    archived: false,
    crossed: []
  }
  return { status: 'fresh', facts }
}

function refresher(byRepo: Record<string, RefreshOutcome>, seen: RefreshTarget[] = []): BuildDeps['refresh'] {
  return async (targets) => {
    seen.push(...targets)
    const outcomes = new Map<string, RefreshOutcome>()
    for (const t of targets)
      outcomes.set(t.slug, byRepo[t.repo] ?? { status: 'failed', reason: 'HTTP 502 after retries' })
    return { outcomes, stats: { requests: 1, graphqlPoints: 1, remaining: 4999, batches: 1 } }
  }
}

describe('build: no churn', () => {
  it('a run a month after the last change rewrites the run report and the index only; no page keeps a stale count', async () => {
    const first = await run('site', '2026-11-21T12:00:00.000Z')
    expect(first.changed.length).toBe(first.count)
    await cp(path.join(dir, 'site'), path.join(dir, 'pages'), { recursive: true })
    const later = await run('site', '2026-12-21T04:23:00.000Z', { previous: 'pages' })
    expect(later.changed).toEqual([])
    expect(later.generatedAt).toBe('2026-11-21T12:00:00.000Z')
    expect(later.runAt).toBe('2026-12-21T04:23:00.000Z')
    const [before, after] = [await snapshot('pages'), await snapshot('site')]
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort())
    const moved = [...after].filter(([f, c]) => before.get(f) !== c).map(([f]) => f)
    // The issue allows the status document and at most 4 other files; today it is the index alone.
    expect(moved.sort()).toEqual(['api/v1/status.json', 'index.html'])
    expect(JSON.parse(after.get('api/v1/status.json')!)).toEqual({
      schema: 'updatesafe.status.v1',
      runAt: '2026-12-21T04:23:00.000Z',
      lastChange: '2026-11-21T12:00:00.000Z',
      refresh: false,
      sourceCommit: null,
      counts: { apps: first.count, refreshed: 0, stale: 0, failed: 0 },
      stale: [],
      failed: [],
      judging: { judge: 'rules', calls: 0, verdicts: {} }
    })
    expect(after.get('index.html')).toContain('Last run <time datetime="2026-12-21T04:23:00.000Z">')
    // The documents the site publishes each have their JSON Schema beside apps.v1.json and app.v1.json.
    for (const id of ['changes', 'status']) {
      const schema = JSON.parse(after.get(`api/v1/schema/${id}.v1.json`)!) as { $id: string; title: string }
      expect(schema).toMatchObject({ $id: `${BASE}/api/v1/schema/${id}.v1.json`, title: `updatesafe.${id}.v1` })
    }

    // Every page of the quiet run says what a first build on that later day says, up to when the data changed:
    // nothing on it was computed from the day of the first build.
    await run('fresh', '2026-12-21T04:23:00.000Z')
    const fresh = await snapshot('fresh')
    const lastChange = (s: string) =>
      s.replaceAll('2026-11-21 12:00 UTC', 'LAST').replaceAll('2026-12-21 04:23 UTC', 'LAST')
    const pages = [...after.keys()].filter((f) => f.endsWith('.html') && f !== 'index.html')
    expect(pages.length).toBeGreaterThan(first.count)
    for (const f of pages) expect(`${f}\n${lastChange(after.get(f)!)}`).toBe(`${f}\n${lastChange(fresh.get(f)!)}`)
    for (const f of pages) expect(after.get(f)).not.toMatch(/\d+ days? (remaining|ago)/)
  })

  it('rebuilding on the same day with the previous snapshot gives a byte-identical tree', async () => {
    await run('pages', '2026-11-21T12:00:00.000Z')
    await run('site', '2026-11-21T12:00:00.000Z', { previous: 'pages' })
    expect(await snapshot('site')).toEqual(await snapshot('pages'))
  })

  it('a changed seed release changes that record only and moves generatedAt', async () => {
    await run('pages', '2026-11-21T12:00:00.000Z')
    const file = path.join(dir, 'catalog/apps/linkding.yml')
    const text = await readFile(file, 'utf8')
    await writeFile(
      file,
      text.replace('version: v1.46.2', 'version: v1.46.3').replace(/checked: .*/, 'checked: 2026-11-24')
    )
    const r = await run('site', '2026-11-24T12:00:00.000Z', { previous: 'pages' })
    expect(r.changes).toEqual([
      {
        slug: 'linkding',
        before: { latestVersion: 'v1.46.2', safeToUpdate: expect.any(String) },
        after: { latestVersion: 'v1.46.3', safeToUpdate: expect.any(String) }
      }
    ])
    expect(r.generatedAt).toBe('2026-11-24T12:00:00.000Z')
    // Files whose bytes did not change are linked from the previous snapshot; the changed app's are new.
    const ino = async (out: string, file: string) => (await stat(path.join(dir, out, file))).ino
    expect(await ino('site', 'badge/miniflux.svg')).toBe(await ino('pages', 'badge/miniflux.svg'))
    expect(await ino('site', 'api/v1/apps/miniflux/releases.json')).toBe(
      await ino('pages', 'api/v1/apps/miniflux/releases.json')
    )
    expect(await ino('site', 'badge/linkding.svg')).not.toBe(await ino('pages', 'badge/linkding.svg'))
    // generatedAt moved, so every per-app document was written again.
    expect(await ino('site', 'api/v1/apps/miniflux.json')).not.toBe(await ino('pages', 'api/v1/apps/miniflux.json'))
  })
})

describe('build: offline data', () => {
  it('says on every page that it was built without upstream, as of the newest day a record was checked', async () => {
    await run('site', '2026-12-24T12:00:00.000Z')
    const apps = (await catalogAt('site')).apps
    const newest = apps
      .map((a) => a.lastChecked)
      .sort()
      .at(-1)!
    const oldest = apps.find((a) => a.lastChecked < newest)
    const index = await readFile(path.join(dir, 'site/index.html'), 'utf8')
    expect(index).toContain(
      `<strong>Offline data, as of ${newest}.</strong> This snapshot was built from the release notes in notes.jsonl`
    )
    // Each app page is as old as its own facts (and stays as it was while they do).
    if (oldest) {
      const page = await readFile(path.join(dir, `site/apps/${oldest.slug}/index.html`), 'utf8')
      expect(page).toContain(`<strong>Offline data, as of ${oldest.lastChecked}.</strong> This page`)
    }
    // What the caller says the data is (a notes file, the day it was read) is what every page says.
    await build(
      {
        catalogDir: 'catalog',
        outDir: 'given',
        baseUrl: BASE,
        now: new Date('2026-12-24T12:00:00.000Z'),
        cwd: dir,
        offline: { source: 'the data set notes.jsonl', asOf: '2026-11-21' }
      },
      { log }
    )
    for (const f of ['index.html', 'apps/gitea/index.html'])
      expect(await readFile(path.join(dir, 'given', f), 'utf8')).toContain(
        '<strong>Offline data, as of 2026-11-21.</strong> This '
      )
    expect(await readFile(path.join(dir, 'given/index.html'), 'utf8')).toContain('built from the data set notes.jsonl')
  })
})

describe('build: refresh merged with last-known-good', () => {
  it('publishes fresh facts, keeps failed apps from the previous snapshot with their old lastChecked, and lists them stale', async () => {
    await run('pages', '2026-11-21T12:00:00.000Z')
    const before = new Map((await catalogAt('pages')).apps.map((a) => [a.slug, a]))
    const seen: RefreshTarget[] = []
    const r = await run(
      'site',
      '2026-12-01T06:00:00.000Z',
      { previous: 'pages', refresh: true },
      {
        refresh: refresher(
          { 'miniflux/v2': fresh('2.2.12', '## Bug fixes\n- Fix feed refresh on slow servers.') },
          seen
        )
      }
    )
    expect(seen.find((t) => t.slug === 'miniflux')).toMatchObject({ repo: 'miniflux/v2', previousVersion: '2.2.11' })
    const after = new Map((await catalogAt('site')).apps.map((a) => [a.slug, a]))
    expect(after.get('miniflux')).toMatchObject({
      latestVersion: '2.2.12',
      lastChecked: '2026-12-01',
      safeToUpdate: 'safe'
    })
    // stale follows the catalog's file order (nextcloud-calendar.yml before nextcloud.yml), apps.json the slug order.
    expect([...r.stale].sort()).toEqual([...after.keys()].filter((s) => s !== 'miniflux').sort())
    expect(after.get('gitea')).toEqual(before.get('gitea'))
    expect(after.size).toBe(before.size)
    expect(warnings.some((w) => w.startsWith('gitea: stale'))).toBe(true)
    const status = JSON.parse(await readFile(path.join(dir, 'site/api/v1/status.json'), 'utf8')) as StatusDoc
    expect(status).toMatchObject({
      refresh: true,
      counts: { apps: after.size, refreshed: 1, stale: after.size - 1, failed: 0 }
    })
    expect(status.stale.find((s) => s.slug === 'gitea')).toEqual({ slug: 'gitea', since: '2026-12-01T06:00:00.000Z' })
    // Read from upstream (some apps stale, each page saying so): no offline banner; the offline build had one.
    const page = (out: string, f: string) => readFile(path.join(dir, out, f), 'utf8')
    for (const f of ['index.html', 'apps/miniflux/index.html', 'apps/gitea/index.html']) {
      expect(await page('site', f)).not.toContain('id="offline"')
      expect(await page('pages', f)).toContain('id="offline"')
    }
  })

  it('a stale app says since when, and the date holds while upstream stays down', async () => {
    await run('pages', '2026-11-21T12:00:00.000Z')
    const down = { refresh: refresher({}) }
    await run('site', '2026-12-01T06:00:00.000Z', { previous: 'pages', refresh: true }, down)
    const first = await snapshot('site')
    expect(first.get('apps/gitea/index.html')).toContain('<strong>Stale data since 2026-12-01.</strong>')
    await cp(path.join(dir, 'site'), path.join(dir, 'pages2'), { recursive: true })
    await run('site', '2026-12-09T06:00:00.000Z', { previous: 'pages2', refresh: true }, down)
    const second = await snapshot('site')
    const status = JSON.parse(second.get('api/v1/status.json')!) as StatusDoc
    expect(status.runAt).toBe('2026-12-09T06:00:00.000Z')
    expect(status.stale.every((s) => s.since === '2026-12-01T06:00:00.000Z')).toBe(true)
    expect(second.get('apps/gitea/index.html')).toBe(first.get('apps/gitea/index.html'))
    // Upstream answers again: the app is no longer listed stale.
    await cp(path.join(dir, 'site'), path.join(dir, 'pages3'), { recursive: true })
    const facts = fresh('1.25.0', '## Bug fixes\n- Fix a crash.', '2026-12-10')
    await run(
      'site',
      '2026-12-10T06:00:00.000Z',
      { previous: 'pages3', refresh: true },
      { refresh: refresher({ 'go-gitea/gitea': facts }) }
    )
    const third = JSON.parse(await readFile(path.join(dir, 'site/api/v1/status.json'), 'utf8')) as StatusDoc
    expect(third.stale.some((s) => s.slug === 'gitea')).toBe(false)
    expect(await readFile(path.join(dir, 'site/apps/gitea/index.html'), 'utf8')).not.toContain('Stale data')
  })

  it('marks a moved repository unknown with a pending rationale and warns to update the catalog', async () => {
    const facts = (fresh('2.2.12', '## Fixes\n- x') as { facts: ReleaseFacts }).facts
    await run(
      'site',
      '2026-12-01T06:00:00.000Z',
      { refresh: true },
      { refresh: refresher({ 'miniflux/v2': { status: 'moved', movedTo: 'miniflux/miniflux', facts } }) }
    )
    const miniflux = (await catalogAt('site')).apps.find((a) => a.slug === 'miniflux')!
    expect(miniflux).toMatchObject({ safeToUpdate: 'unknown', changelogSummary: null, latestVersion: '2.2.12' })
    expect(miniflux.rationale).toContain('moved to miniflux/miniflux')
    expect(warnings.some((w) => w.includes('update "repo"'))).toBe(true)
  })

  it('without a previous snapshot, a failed app falls back to its catalog seed', async () => {
    const r = await run('site', '2026-12-01T06:00:00.000Z', { refresh: true }, { refresh: refresher({}) })
    expect(r.stale.length).toBe(r.count)
    const gitea = (await catalogAt('site')).apps.find((a) => a.slug === 'gitea')!
    expect(gitea).toMatchObject({ latestVersion: '1.23.5', lastChecked: '2026-11-21' })
  })

  it('a refresh that throws leaves the output untouched and fails the build', async () => {
    await run('site', '2026-11-21T12:00:00.000Z')
    const before = await snapshot('site')
    await expect(
      run(
        'site',
        '2026-12-01T06:00:00.000Z',
        { refresh: true },
        {
          refresh: async () => {
            throw new Error('--refresh needs a GitHub token')
          }
        }
      )
    ).rejects.toThrow('token')
    expect(await snapshot('site')).toEqual(before)
  })
})

describe('build: overrides and pending assessments', () => {
  it('applies an override for its version and lets it expire with a warning', async () => {
    const file = path.join(dir, 'catalog/apps/linkding.yml')
    const text = await readFile(file, 'utf8')
    const withOverride = text.replace(
      'release:',
      'override:\n  class: breaking\n  reason: The upgrade guide requires a manual database step.\n  version: v1.46.2\nrelease:'
    )
    await writeFile(file, withOverride)
    await run('a', '2026-11-21T12:00:00.000Z')
    const a = (await catalogAt('a')).apps.find((x) => x.slug === 'linkding')!
    expect(a.safeToUpdate).toBe('breaking')
    expect(a.rationale).toContain('manual database step')
    await writeFile(file, withOverride.replace('version: v1.46.2\n  url', 'version: v1.46.3\n  url'))
    await run('b', '2026-11-22T12:00:00.000Z')
    const b = (await catalogAt('b')).apps.find((x) => x.slug === 'linkding')!
    expect(b.safeToUpdate).not.toBe('breaking')
    expect(warnings.some((w) => w.includes('override ignored'))).toBe(true)
  })

  it('a seed without notes is unknown, pending the refresh, with a null summary', async () => {
    await run('site', '2026-11-21T12:00:00.000Z')
    const grafana = (await catalogAt('site')).apps.find((a) => a.slug === 'grafana')!
    expect(grafana).toMatchObject({ safeToUpdate: 'unknown', changelogSummary: null })
    expect(grafana.rationale).toMatch(/^Assessment pending/)
    expect(grafana.lifecycle).toMatchObject({ product: 'grafana', cycle: '13.2' })
  })
})

describe('settle and diffRecords', () => {
  const rec = { slug: 'a', latestVersion: '1', safeToUpdate: 'safe', lastChecked: '2026-11-21' } as AppRecord
  it('keeps the published record when only lastChecked moved', () => {
    expect(settle({ ...rec, lastChecked: '2026-11-22' }, rec)).toBe(rec)
    expect(settle({ ...rec, latestVersion: '2', lastChecked: '2026-11-22' }, rec).lastChecked).toBe('2026-11-22')
  })
  it('lists added, changed and removed slugs', () => {
    const before = new Map([
      ['a', rec],
      ['gone', { ...rec, slug: 'gone' }]
    ])
    expect(
      diffRecords(before, [
        { ...rec, safeToUpdate: 'caution' },
        { ...rec, slug: 'new' }
      ]).map((c) => [c.slug, c.before?.safeToUpdate ?? null, c.after?.safeToUpdate ?? null])
    ).toEqual([
      ['a', 'safe', 'caution'],
      ['gone', 'safe', null],
      ['new', null, 'safe']
    ])
  })
})

describe('build: lifecycle refresh from an endoflife.date stand-in', () => {
  it('renews the stored product data, updates the lifecycle, and keeps the stored copy for products that fail', async () => {
    const grafana = JSON.parse(await readFile(path.join(dir, 'catalog/endoflife/grafana.json'), 'utf8'))
    const cycle = grafana.result.releases.find((r: { name: string }) => r.name === '13.2')
    cycle.eolFrom = '2026-11-30'
    const served: string[] = []
    const server = http.createServer((req, res) => {
      served.push(req.url ?? '')
      if (req.url === '/api/v1/products/grafana') {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(JSON.stringify(grafana))
      }
      res.writeHead(503).end()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      await run(
        'site',
        '2026-11-21T12:00:00.000Z',
        { refresh: true },
        {
          refresh: refresher({}),
          fetchProduct: (product) => fetchProduct(product, { baseUrl, log, retries: 0, retryDelayMs: 1 })
        }
      )
    } finally {
      await new Promise((r) => server.close(r))
    }
    const apps = new Map((await catalogAt('site')).apps.map((a) => [a.slug, a]))
    expect(apps.get('grafana')!.lifecycle).toMatchObject({
      cycle: '13.2',
      eol: '2026-11-30',
      status: 'eol-scheduled',
      eolDate: '2026-11-30'
    })
    const stored = JSON.parse(await readFile(path.join(dir, 'catalog/endoflife/grafana.json'), 'utf8'))
    expect(stored.result.releases.find((r: { name: string }) => r.name === '13.2').eolFrom).toBe('2026-11-30')
    // One request per product per run; failed products keep their stored data.
    expect(served.filter((u) => u.endsWith('/grafana'))).toHaveLength(1)
    expect(apps.get('nextcloud')!.lifecycle).toMatchObject({ product: 'nextcloud', cycle: '34' })
    expect(warnings.some((w) => w.includes('endoflife.date product "nextcloud"'))).toBe(true)
  })
})
