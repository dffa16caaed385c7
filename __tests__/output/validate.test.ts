import { describe, expect, it } from '@jest/globals'
import { splitJson, toJson, type SplitJson } from '../../src/util/json.js'
import { snapshotChecker } from '../../src/output/validate.js'
import { formatProblem, ProblemsError } from '../../src/util/problems.js'
import { buildDocuments, categoriesDoc, imagesDoc } from '../../src/site/api.js'
import type { AppRecord } from '../../src/schema/index.js'
import { paths } from '../../src/site/paths.js'
import { renderStatusDoc, type RunReport } from '../../src/site/status.js'
import { BASE, REALISTIC } from '../site/fixtures.js'

const AT = '2026-11-21T03:00:00.000Z'
const records = REALISTIC.map((p) => p.record)

/** Every file the checker expects of a snapshot, with the documents as given. */
const REPORT: RunReport = {
  runAt: '2026-12-21T04:23:00.000Z',
  lastChange: AT,
  refresh: false,
  sourceCommit: null,
  apps: records.length,
  refreshed: 0,
  stale: [],
  failed: [],
  staleBefore: new Map()
}

function snapshot(
  catalogText: string | SplitJson,
  appDocs: Map<string, string>,
  slugs: string[],
  status = renderStatusDoc(REPORT)
): Array<[string, string | SplitJson]> {
  const files: Array<[string, string | SplitJson]> = [
    [paths.catalog, catalogText],
    ...appDocs,
    [paths.status, status],
    [paths.images, toJson(imagesDoc([], AT))],
    [paths.categories, toJson(categoriesDoc([], AT))]
  ]
  for (const f of [
    'index.html',
    '404.html',
    paths.appsSchema,
    paths.appSchema,
    paths.changesSchema,
    paths.statusSchema,
    paths.releasesSchema,
    paths.imagesSchema,
    paths.categoriesSchema
  ])
    files.push([f, ''])
  for (const slug of slugs) files.push([paths.badge(slug), '<svg/>'], [paths.page(slug), '<html></html>'])
  for (const slug of slugs)
    if (!appDocs.has(paths.releases(slug)))
      files.push([
        paths.releases(slug),
        toJson({ schema: 'updatesafe.releases.v1', generatedAt: AT, slug, latest: null, releases: [] })
      ])
  return files
}

function check(files: Array<[string, string | SplitJson]>): string[] {
  const checker = snapshotChecker(BASE)
  for (const [f, c] of files) checker.add(f, c)
  try {
    checker.finish()
    return []
  } catch (e) {
    expect(e).toBeInstanceOf(ProblemsError)
    expect((e as ProblemsError).kind).toBe('snapshot')
    return (e as ProblemsError).problems.map(formatProblem)
  }
}

function built(rs: AppRecord[] = records) {
  const { catalog, apps } = buildDocuments(rs, AT, BASE)
  return { catalog, docs: new Map(apps.map((d) => [paths.app(d.slug), toJson(d)])), slugs: apps.map((d) => d.slug) }
}

// The build hands the catalog over split by element (util/json.ts); the same checks hold for a whole document.
const FORMS = [
  ['whole', (doc: object) => toJson(doc)],
  ['split by element', (doc: object) => splitJson({ ...doc }, 'apps')]
] as const

describe.each(FORMS)('snapshotChecker, the catalog %s', (_form, catalogDoc) => {
  it('checks the releases documents and the images index against their schemas and the catalog', () => {
    const { catalog, docs, slugs } = built()
    const slug = slugs[0]!
    const ours = new Set([paths.images, ...slugs.slice(0, 3).map((s) => paths.releases(s))])
    const files = snapshot(catalogDoc(catalog), docs, slugs).filter(([f]) => !ours.has(f))
    const releases = { schema: 'updatesafe.releases.v1', generatedAt: AT, slug, latest: null, releases: [] }
    files.push([paths.releases(slug), toJson(releases)])
    files.push([paths.releases('not-in-catalog'), toJson({ ...releases, slug: 'not-in-catalog' })])
    files.push([paths.releases(slugs[1]!), toJson({ ...releases, releases: [{ version: '1.0' }] })])
    files.push([paths.releases(slugs[2]!), toJson(releases)])
    files.push([paths.images, toJson(imagesDoc([{ slug: 'ghost', images: ['ghost/ghost'] }], AT))])
    const problems = check(files)
    expect(problems).toContain(`${paths.releases('not-in-catalog')}: has no element in the catalog`)
    expect(problems).toContain(`${paths.releases(slugs[2]!)}: slug: is not ${slugs[2]}`)
    expect(problems.some((p) => p.startsWith(`${paths.releases(slugs[1]!)}: releases.0.tag:`))).toBe(true)
    expect(problems).toContain(`${paths.images}: images.0.slug: ghost is not in the catalog`)
    expect(problems.filter((p) => p.startsWith(paths.releases(slug)))).toEqual([])
  })

  it('checks the categories index: its schema, its order, and only apps of the catalog, each once', () => {
    const { catalog, docs, slugs } = built()
    const [a, b] = [slugs[0]!, slugs[1]!]
    const withCategories = (doc: unknown) =>
      snapshot(catalogDoc(catalog), docs, slugs).map(([f, c]): [string, string | SplitJson] =>
        f === paths.categories ? [f, toJson(doc)] : [f, c]
      )
    const good = categoriesDoc(
      [
        { slug: b, categories: ['Wikis', 'Media Streaming - Video Streaming'] },
        { slug: a, categories: ['Wikis'] }
      ],
      AT
    )
    expect(good.categories).toEqual([
      { name: 'Media Streaming - Video Streaming', slugs: [b] },
      { name: 'Wikis', slugs: [a, b].sort() }
    ])
    expect(check(withCategories(good))).toEqual([])
    const ghost = categoriesDoc([{ slug: 'ghost', categories: ['Wikis'] }], AT)
    expect(check(withCategories(ghost))).toEqual([
      `${paths.categories}: categories.0.slugs.0: ghost is not in the catalog`
    ])
    const unordered = { ...good, categories: [...good.categories].reverse() }
    expect(check(withCategories(unordered))).toEqual([
      `${paths.categories}: categories.1.name: categories are not ordered by unique name at "Media Streaming - Video Streaming"`
    ])
    const twice = { ...good, categories: [{ name: 'Wikis', slugs: [a, a] }] }
    expect(check(withCategories(twice))).toEqual([
      `${paths.categories}: categories.0.slugs.1: slugs are not ordered and unique at "${a}"`
    ])
    // A document off its schema: each problem names its field.
    const odd = { ...good, categories: [{ name: '', slugs: [] }], extra: 1 }
    const problems = check(withCategories(odd))
    expect(problems).toContainEqual(expect.stringMatching(/^api\/v1\/categories\.json: categories\.0\.name: /))
    expect(problems).toContainEqual(expect.stringMatching(/^api\/v1\/categories\.json: categories\.0\.slugs: /))
    expect(problems).toContainEqual(expect.stringMatching(/^api\/v1\/categories\.json: .*extra/))
    const missing = snapshot(catalogDoc(catalog), docs, slugs).filter(([f]) => f !== paths.categories)
    expect(check(missing)).toEqual([`${paths.categories}: is missing`])
  })

  it('accepts the documents the build makes', () => {
    const { catalog, docs, slugs } = built()
    expect(check(snapshot(catalogDoc(catalog), docs, slugs))).toEqual([])
  })

  it('checks the run report against its schema and the catalog', () => {
    const { catalog, docs, slugs } = built()
    const wrong = renderStatusDoc({ ...REPORT, lastChange: '2026-01-01T00:00:00.000Z', apps: 1, stale: ['gitea'] })
    expect(check(snapshot(catalogDoc(catalog), docs, slugs, wrong))).toEqual([
      `${paths.status}: lastChange: differs from the catalog's generatedAt`,
      `${paths.status}: counts.apps: differs from the number of apps`
    ])
    const bad = JSON.stringify({
      ...JSON.parse(renderStatusDoc(REPORT)),
      counts: { apps: 1, refreshed: 0, stale: 2, failed: 0 }
    })
    expect(check(snapshot(catalogDoc(catalog), docs, slugs, bad))).toEqual([
      `${paths.status}: counts: counts.stale and counts.failed must equal the lengths of stale and failed`
    ])
    expect(check(snapshot(catalogDoc(catalog), docs, slugs).filter(([f]) => f !== paths.status))).toEqual([
      `${paths.status}: is missing`
    ])
  })

  it('compares records by content, not by the order of their keys', () => {
    const { catalog, docs, slugs } = built()
    const slug = slugs[0]!
    const doc = JSON.parse(docs.get(paths.app(slug))!) as Record<string, unknown>
    const reversed = Object.fromEntries(Object.entries(doc).reverse())
    docs.set(paths.app(slug), JSON.stringify(reversed))
    expect(check(snapshot(catalogDoc(catalog), docs, slugs))).toEqual([])
  })

  it('finds a per-app document that differs from its catalog element, down to a nested field', () => {
    const { catalog, docs, slugs } = built()
    const withLifecycle = records.find((r) => r.lifecycle !== null)!
    const doc = JSON.parse(docs.get(paths.app(withLifecycle.slug))!) as AppRecord
    docs.set(paths.app(withLifecycle.slug), toJson({ ...doc, lifecycle: { ...doc.lifecycle!, cycle: 'other' } }))
    expect(check(snapshot(catalogDoc(catalog), docs, slugs))).toEqual([
      `${paths.app(withLifecycle.slug)}: record differs from its catalog element`
    ])
  })

  it('names the element and field of an invalid catalog element, and keeps checking the others', () => {
    const { catalog, docs, slugs } = built()
    const bad = { ...catalog, apps: catalog.apps.map((r, i) => (i === 1 ? { ...r, safeToUpdate: 'maybe' } : r)) }
    const problems = check(snapshot(catalogDoc(bad), docs, slugs))
    expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^${paths.catalog}: apps\\.1\\.safeToUpdate: `)))
    // The invalid element has no digest, so its document has no element; every other one still matches.
    expect(problems).toContain(`${paths.app(slugs[1]!)}: has no element in the catalog`)
    expect(problems.filter((p) => p.includes('differs'))).toEqual([])
  })

  it('checks the envelope: count, order, addresses and generatedAt', () => {
    const { catalog, docs, slugs } = built()
    expect(check(snapshot(catalogDoc({ ...catalog, count: catalog.count + 1 }), docs, slugs))).toContain(
      `${paths.catalog}: count: count must equal the number of apps`
    )
    const swapped = [catalog.apps[1]!, catalog.apps[0]!, ...catalog.apps.slice(2)]
    expect(check(snapshot(catalogDoc({ ...catalog, apps: swapped }), docs, slugs))).toContain(
      `${paths.catalog}: apps are not ordered by unique slug at "${catalog.apps[0]!.slug}"`
    )
    const moved = catalog.apps.map((r, i) => (i === 0 ? { ...r, url: `${BASE}/elsewhere/` } : r))
    expect(check(snapshot(catalogDoc({ ...catalog, apps: moved }), docs, slugs))).toContainEqual(
      expect.stringContaining(`${paths.catalog}: apps.0.url: is ${BASE}/elsewhere/`)
    )
    const later = catalogDoc({ ...catalog, generatedAt: '2026-11-22T03:00:00.000Z' })
    // Every app document, the run report's lastChange and the categories' generatedAt.
    expect(check(snapshot(later, docs, slugs))).toHaveLength(slugs.length + 2)
  })

  it('reports missing files and documents that are not JSON', () => {
    const { catalog, docs, slugs } = built()
    docs.set(paths.app(slugs[0]!), '{not json')
    const files = snapshot(catalogDoc(catalog), docs, slugs).filter(([f]) => f !== paths.badge(slugs[1]!))
    const problems = check(files)
    expect(problems).toContainEqual(
      expect.stringMatching(new RegExp(`^${paths.app(slugs[0]!).replace(/\./g, '\\.')}: is not JSON`))
    )
    expect(problems).toContain(`${paths.badge(slugs[1]!)}: is missing`)
  })
})

describe('snapshotChecker, a split catalog', () => {
  it('names an element that is not JSON, and keeps checking the others', () => {
    const { catalog, docs, slugs } = built()
    const split = splitJson({ ...catalog }, 'apps')
    const broken = { ...split, elements: split.elements.map((e, i) => (i === 1 ? e.slice(0, -3) : e)) }
    const problems = check(snapshot(broken, docs, slugs))
    expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^${paths.catalog}: apps\\.1: is not JSON`)))
    // Its documents have no element to match; every other element was read and matched.
    expect(problems.slice(1)).toEqual([
      `${paths.app(slugs[1]!)}: has no element in the catalog`,
      `${paths.releases(slugs[1]!)}: has no element in the catalog`
    ])
  })

  it('checks the envelope around the elements', () => {
    const { catalog, docs, slugs } = built()
    const split = splitJson({ ...catalog, schema: 'updatesafe.apps.v2' }, 'apps')
    expect(check(snapshot(split, docs, slugs))).toContainEqual(expect.stringMatching(/^api\/v1\/apps\.json: schema: /))
    const cut = splitJson({ ...catalog }, 'apps')
    expect(check(snapshot({ ...cut, head: `${cut.head}${cut.elements[0]}` }, docs, slugs))).toContain(
      `${paths.catalog}: is not JSON: elements outside the apps array`
    )
    expect(check(snapshot({ ...cut, tail: '' }, docs, slugs))).toContainEqual(
      expect.stringMatching(new RegExp(`^${paths.catalog}: is not JSON`))
    )
  })
})
