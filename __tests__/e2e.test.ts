// End to end: build the bundled catalog, serve it like GitHub Pages on a free
// port, and check every endpoint of every app against the spec over HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { build } from '../src/pipeline/pipeline.js'
import { appDocSchema, catalogDocSchema, CLASSES, RECORD_FIELDS, type CatalogDoc } from '../src/schema/index.js'
import { createSiteHandler } from '../src/output/serve.js'
import type { Logger } from '../src/util/types.js'
import { tempDir } from './support/tmp.js'

const NOW = '2026-11-21T12:00:00.000Z'
let server: http.Server
let base: string
let cleanup: () => Promise<void>
let catalog: CatalogDoc
const warnings: string[] = []

const log: Logger = { info: () => {}, warning: (m) => warnings.push(m), error: (m) => warnings.push(m) }

beforeAll(async () => {
  const t = await tempDir()
  cleanup = t.cleanup
  const out = path.join(t.dir, 'site')
  // Listen first so the site can be built for the address it is served at.
  server = http.createServer(createSiteHandler(out))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await build({ catalogDir: 'catalog', outDir: out, baseUrl: base, now: new Date(NOW) }, { log })
  catalog = (await (await fetch(`${base}/api/v1/apps.json`)).json()) as CatalogDoc
})
afterAll(async () => {
  await new Promise((r) => server.close(r))
  await cleanup()
})

describe('the bundled catalog, served', () => {
  it('publishes a valid catalog document with every bundled app, ordered by slug', async () => {
    const res = await fetch(`${base}/api/v1/apps.json`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(catalogDocSchema.safeParse(catalog).success).toBe(true)
    expect(catalog.schema).toBe('updatesafe.apps.v1')
    expect(catalog.generatedAt).toBe(NOW)
    expect(catalog.count).toBe(catalog.apps.length)
    expect(catalog.count).toBeGreaterThanOrEqual(20)
    const slugs = catalog.apps.map((a) => a.slug)
    expect(slugs).toEqual([...slugs].sort())
    for (const needle of [
      '/api/v1/apps.json',
      '/api/v1/apps/{slug}.json',
      '/badge/{slug}.svg',
      'build-time snapshot',
      'ordered by slug'
    ]) {
      expect(catalog.docs).toContain(needle)
    }
  })

  it('gives every record all 13 fields, in spec order, with nulls only where allowed', () => {
    for (const app of catalog.apps) {
      expect(Object.keys(app)).toEqual(RECORD_FIELDS)
      expect(CLASSES).toContain(app.safeToUpdate)
      for (const f of [
        'slug',
        'name',
        'repo',
        'latestVersion',
        'safeToUpdate',
        'rationale',
        'sourceUrl',
        'lastChecked',
        'url',
        'badge'
      ] as const) {
        expect(app[f]).not.toBeNull()
      }
      if (app.changelogSummary === null) expect(['unknown', 'unmaintained']).toContain(app.safeToUpdate)
      expect(app.url).toBe(`${base}/apps/${app.slug}/`)
      expect(app.badge).toBe(`${base}/badge/${app.slug}.svg`)
    }
  })

  it('classifies the archived repositories as unmaintained with their successors', () => {
    const bySlug = new Map(catalog.apps.map((a) => [a.slug, a]))
    expect(bySlug.get('matrix-org-synapse')).toMatchObject({
      safeToUpdate: 'unmaintained',
      successor: 'element-hq/synapse'
    })
    expect(bySlug.get('watchtower')).toMatchObject({
      safeToUpdate: 'unmaintained',
      successor: 'nicholas-fedor/watchtower'
    })
  })

  it('answers every per-app document with exactly its catalog element, not wrapped', async () => {
    for (const app of catalog.apps) {
      const res = await fetch(`${base}/api/v1/apps/${app.slug}.json`)
      expect(res.status).toBe(200)
      const doc = (await res.json()) as Record<string, unknown>
      expect(appDocSchema.safeParse(doc).success).toBe(true)
      const { schema, generatedAt, ...record } = doc
      expect(schema).toBe('updatesafe.app.v1')
      expect(generatedAt).toBe(catalog.generatedAt)
      expect(record).toEqual(app)
    }
  })

  it('serves every badge and page at the addresses the record gives', async () => {
    for (const app of catalog.apps) {
      const badge = await fetch(app.badge)
      expect(badge.status).toBe(200)
      expect(badge.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
      const svg = await badge.text()
      expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
      expect(svg).toContain(app.safeToUpdate)
      const page = await fetch(app.url)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toMatch(/^text\/html/)
      const html = await page.text()
      expect(html).toContain(`../../api/v1/apps/${app.slug}.json`)
      const bare = await fetch(app.url.replace(/\/$/, ''), { redirect: 'manual' })
      expect(bare.status).toBe(301)
    }
  })

  it('serves the index, the JSON Schemas, and a 404 page for unknown slugs', async () => {
    const index = await (await fetch(`${base}/`)).text()
    for (const app of catalog.apps) expect(index).toContain(`apps/${app.slug}/`)
    for (const s of ['apps.v1', 'app.v1']) {
      const schema = (await (await fetch(`${base}/api/v1/schema/${s}.json`)).json()) as {
        $id: string
        properties: object
      }
      expect(schema.$id).toBe(`${base}/api/v1/schema/${s}.json`)
      expect(Object.keys(schema.properties)).toContain('schema')
    }
    for (const p of ['/api/v1/apps/no-such-app.json', '/apps/no-such-app/', '/badge/no-such-app.svg']) {
      expect((await fetch(`${base}${p}`)).status).toBe(404)
    }
  })
})
