// A refresh of the bundled catalog against the local GitHub stand-in, through the
// real Octokit client: the snapshot meets the spec, prereleases and drafts never
// become latest, every crossed release is judged, and no app is ever lost.
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { describe } from '../support/needs-shared-data.js'
import { cp, readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import { parse } from 'yaml'
import { buildDeps } from '../../src/pipeline/deps.js'
import { NOT_READ_VERSION } from '../../src/schema/index.js'
import { build, type BuildResult } from '../../src/pipeline/pipeline.js'
import { catalogDocSchema, type AppRecord, type CatalogDoc } from '../../src/schema/index.js'
import type { Logger } from '../../src/util/types.js'
import {
  realReleaseSeries,
  repoFromSeries,
  startFakeGitHub,
  type FakeGitHub,
  type FakeRepo
} from '../support/fake-github.js'
import { tempDir } from '../support/tmp.js'

const TOKEN = 'ghs_refreshtesttoken0123456789'
const SEEDED = '2026-11-21T12:00:00.000Z'
const NOW = '2026-12-02T06:00:00.000Z'
let dir: string
let cleanup: () => Promise<void>
let fake: FakeGitHub
let result: BuildResult
let before: Map<string, AppRecord>
let after: Map<string, AppRecord>
let doc: CatalogDoc
const lines: string[] = []
const log: Logger = {
  info: (m) => lines.push(m),
  warning: (m) => lines.push(`warning: ${m}`),
  error: (m) => lines.push(`error: ${m}`)
}

function seedRepo(nwo: string, version: string, extra: Partial<FakeRepo> = {}): FakeRepo {
  const [owner = '', name = ''] = nwo.split('/')
  return { owner, name, releases: [{ tagName: version, createdAt: '2026-10-01T12:00:00Z', body: '' }], ...extra }
}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir())
  await cp('catalog', path.join(dir, 'catalog'), { recursive: true })
  const cwd = dir
  // First publication: offline, from the catalog seeds.
  await build(
    { catalogDir: 'catalog', outDir: 'pages', baseUrl: 'https://example.org/c', now: new Date(SEEDED), cwd },
    { log }
  )
  const published = JSON.parse(await readFile(path.join(dir, 'pages/api/v1/apps.json'), 'utf8')) as CatalogDoc
  before = new Map(published.apps.map((a) => [a.slug, a]))

  const series = realReleaseSeries()
  const tagPrefixes = new Map<string, string>()
  for (const file of await readdir(path.join(dir, 'catalog/apps'))) {
    const entry = parse(await readFile(path.join(dir, 'catalog/apps', file), 'utf8')) as { tagPrefix?: string }
    if (entry.tagPrefix) tagPrefixes.set(file.slice(0, -'.yml'.length), entry.tagPrefix)
  }
  const repos: FakeRepo[] = []
  for (const app of published.apps) {
    if (app.repo === 'miniflux/v2') {
      // Real history, then two newer releases (one breaking), a newer prerelease and a draft.
      const real = repoFromSeries(app.repo, series.get(app.repo)!)
      real.releases!.unshift(
        { tagName: '2.3.0', createdAt: '2026-11-30T12:00:00Z', body: 'Draft notes', draft: true },
        {
          tagName: '2.3.0-rc1',
          createdAt: '2026-11-29T12:00:00Z',
          body: '## Breaking\n- Everything',
          prerelease: true
        },
        {
          tagName: '2.2.13',
          createdAt: '2026-11-28T12:00:00Z',
          body: '## Bug Fixes\n- Fix a crash when a feed has no title.'
        },
        {
          tagName: '2.2.12',
          createdAt: '2026-11-20T12:00:00Z',
          body: '## ⚠️ Breaking Changes\n- The `LISTEN_ADDR` setting was removed; use `PORT` instead.'
        }
      )
      repos.push(real)
    } else if (series.has(app.repo)) {
      repos.push(repoFromSeries(app.repo, series.get(app.repo)!))
    } else if (app.repo === 'containrrr/watchtower' || app.repo === 'matrix-org/synapse') {
      repos.push(seedRepo(app.repo, app.latestVersion, { archived: true }))
    } else if (app.repo === 'go-gitea/gitea') {
      repos.push(seedRepo(app.repo, app.latestVersion, { hidden: true }))
    } else if (app.repo === 'caddyserver/caddy') {
      // Tags only: no releases published.
      repos.push({
        owner: 'caddyserver',
        name: 'caddy',
        releases: [],
        tags: [
          { name: 'v2.11.4', date: '2026-10-02T00:00:00Z' },
          { name: 'v2.11.3', date: '2026-09-01T00:00:00Z' },
          { name: 'v2.12.0-beta.1', date: '2026-11-01T00:00:00Z' }
        ]
      })
    } else if (app.latestVersion === NOT_READ_VERSION) {
      // A record no build has read a release of yet: GitHub has one, which the refresh reads from nothing.
      repos.push(seedRepo(app.repo, 'v1.0.0'))
    } else if (app.repo !== 'pixelfed/pixelfed') {
      // Tagged as the repository tags it: nginx's 1.31.4 is release-1.31.4 (the record's tagPrefix).
      const prefix = tagPrefixes.get(app.slug)
      repos.push(seedRepo(app.repo, prefix ? prefix + app.latestVersion.replace(/^v/, '') : app.latestVersion))
    }
  }
  // pixelfed/pixelfed now lives elsewhere; GitHub resolves the old name.
  repos.push(seedRepo('pixelfed-org/pixelfed', 'v0.12.0'))
  fake = await startFakeGitHub({ token: TOKEN, repos, renames: { 'pixelfed/pixelfed': 'pixelfed-org/pixelfed' } })

  const now = new Date(NOW)
  const deps = buildDeps(
    { token: TOKEN, apiUrl: fake.apiUrl, graphqlUrl: fake.graphqlUrl, endoflifeUrl: 'http://127.0.0.1:9' },
    log,
    now
  )
  const quiet = { ...deps, fetchProduct: async () => Promise.reject(new Error('offline in this test')) }
  result = await build(
    {
      catalogDir: 'catalog',
      outDir: 'site',
      baseUrl: 'https://example.org/c',
      now,
      refresh: true,
      previousDir: 'pages',
      cwd
    },
    quiet
  )
  doc = JSON.parse(await readFile(path.join(dir, 'site/api/v1/apps.json'), 'utf8')) as CatalogDoc
  after = new Map(doc.apps.map((a) => [a.slug, a]))
})
afterAll(async () => {
  await fake.close()
  await cleanup()
})

describe('refresh of the bundled catalog against the GitHub stand-in', () => {
  it('produces a snapshot that meets the spec, with every app kept, in one batched request per 50 apps', () => {
    expect(catalogDocSchema.safeParse(doc).success).toBe(true)
    expect([...after.keys()]).toEqual([...before.keys()])
    expect(fake.invalid).toEqual([])
    expect(fake.counts.rest).toBe(0)
    expect(fake.counts.graphql).toBe(Math.ceil(before.size / 50))
    expect(result.stats).toMatchObject({ requests: fake.counts.total })
    expect(lines.join('\n')).not.toContain(TOKEN)
  })

  it('takes the newest stable release, judges every release crossed, and dates the check', () => {
    const m = after.get('miniflux')!
    expect(m.latestVersion).toBe('2.2.13')
    expect(m.sourceUrl).toBe('https://github.com/miniflux/v2/releases/tag/2.2.13')
    expect(m.lastChecked).toBe('2026-12-02')
    expect(m.safeToUpdate).toMatch(/^(?:caution|breaking)$/) // the learned model may call one removed setting in short notes caution
    expect(m.rationale).toContain('2.2.12')
    expect(m.rationale).toContain('LISTEN_ADDR')
    expect(result.changed).toContain('miniflux')
  })

  it('reads the notes the catalog seed lacked and keeps archived repositories unmaintained', () => {
    // Records with no release read yet get one from the refresh.
    const unread = [...before.values()].filter((a) => a.latestVersion === NOT_READ_VERSION)
    expect(unread.length).toBeGreaterThan(100)
    expect(unread.filter((a) => after.get(a.slug)!.latestVersion !== 'v1.0.0')).toEqual([])
    expect(before.get('grafana')!.rationale).toMatch(/^Assessment pending/)
    expect(after.get('grafana')).toMatchObject({ safeToUpdate: 'unknown', changelogSummary: '...' })
    expect(after.get('watchtower')).toMatchObject({
      safeToUpdate: 'unmaintained',
      successor: 'nicholas-fedor/watchtower'
    })
  })

  it('falls back to tags, never to a prerelease tag, and says so', () => {
    const caddy = after.get('caddy')!
    expect(caddy.latestVersion).toBe('v2.11.4')
    expect(caddy.rationale).toContain('No release notes were published')
  })

  it('marks a renamed repository pending and warns that the catalog should be updated', () => {
    const p = after.get('pixelfed')!
    expect(p.safeToUpdate).toBe('unknown')
    expect(p.rationale).toContain('moved to pixelfed-org/pixelfed')
    expect(lines.some((l) => l.startsWith('warning:') && l.includes('pixelfed-org/pixelfed'))).toBe(true)
  })

  it('keeps last-known-good for a repository it cannot see, with its old lastChecked, and lists it stale', () => {
    expect(after.get('gitea')).toEqual(before.get('gitea'))
    expect(result.stale).toEqual(['gitea'])
    expect(lines.some((l) => l.startsWith('warning: gitea: stale'))).toBe(true)
  })
})
