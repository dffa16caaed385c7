// The index's category filter, search, sort and address state in a real browser: first a small made-up catalog with
// categories, built by build() and served by the preview server; then 1,000 rendered apps, most of them not read yet.
// One page load serves many assertions: each step changes a control and reads the rows back.
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { build } from '../../src/pipeline/pipeline.js'
import { createSiteHandler } from '../../src/output/serve.js'
import { catalogDocSchema, categoriesDocSchema, CLASSES, type CatalogDoc } from '../../src/schema/index.js'
import { sharedPageFiles, type PageInput } from '../../src/site/pages.js'
import type { Logger } from '../../src/util/types.js'
import { browserDescribe, inPage, launchChromium, visitor, type VisitFn } from '../support/browser.js'
import { tempDir } from '../support/tmp.js'

const NOW = '2026-11-21T12:00:00.000Z'
const VIDEO = 'Media Streaming - Video Streaming'

/** Made-up apps: name, categories, notes (null: none in the notes file), release day. */
const APPS: Array<{ slug: string; name: string; categories: string[]; notes: string | null; date: string }> = [
  {
    slug: 'alpha-notes',
    name: 'Alpha Notes',
    categories: ['Note-taking & Editors'],
    notes: '## Breaking changes\n- The OLD_PORT setting was removed; set PORT instead.',
    date: '2026-10-01'
  },
  {
    slug: 'beta-media',
    name: 'beta media',
    categories: [VIDEO],
    notes: '## Bug fixes\n- The player keeps its volume after a reload.',
    date: '2026-11-10'
  },
  {
    slug: 'gamma-photos',
    name: 'Gamma Photos',
    categories: ['Photo Galleries', VIDEO],
    notes: '## Bug fixes\n- Thumbnails load in order again.',
    date: '2026-09-15'
  },
  { slug: 'delta-wiki', name: 'Delta Wiki', categories: ['Wikis'], notes: null, date: '2026-11-20' },
  {
    slug: 'echo-dns',
    name: 'Echo DNS',
    categories: [],
    notes: '## Breaking changes\n- The config file moved; move it before you start the new version.',
    date: '2026-08-01'
  },
  {
    slug: 'zeta-mail',
    name: 'Zeta <Mail>',
    categories: ['Communication - Email', VIDEO],
    notes: '## Bug fixes\n- Attachments keep their names.',
    date: '2026-11-01'
  }
]

async function writeCatalog(dir: string): Promise<{ catalog: string; notesFrom: string }> {
  const catalog = path.join(dir, 'catalog')
  await mkdir(path.join(catalog, 'apps'), { recursive: true })
  const lines: string[] = []
  for (const a of APPS) {
    const repo = `made-up/${a.slug}`
    const categories = a.categories.length
      ? `categories:\n${a.categories.map((c) => `  - ${JSON.stringify(c)}\n`).join('')}`
      : ''
    await writeFile(
      path.join(catalog, 'apps', `${a.slug}.yml`),
      `name: ${JSON.stringify(a.name)}\nrepo: ${repo}\n${categories}release:\n  version: v1.0.0\n` +
        `  url: https://github.com/${repo}/releases/tag/v1.0.0\n  date: ${a.date}\n  checked: 2026-11-20\n`
    )
    if (a.notes !== null)
      lines.push(JSON.stringify({ repo, version: 'v1.0.0', tag: 'v1.0.0', date: a.date, notes: a.notes }))
  }
  const notesFrom = path.join(dir, 'notes.jsonl')
  await writeFile(notesFrom, `${lines.join('\n')}\n`)
  return { catalog, notesFrom }
}

/** Serve `dir` on 127.0.0.1 with the project's preview server; `fill(origin)` writes the tree first. */
async function serve(dir: string, fill: (origin: string) => Promise<void>) {
  const server = http.createServer(createSiteHandler(dir))
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await fill(origin)
  return { origin, close: () => new Promise((ok) => server.close(ok)) }
}

const visible = (page: Page) =>
  inPage<string[]>(
    page,
    `Array.from(document.querySelectorAll('#apps tbody tr')).filter((r) => r.offsetParent !== null).map((r) => r.querySelector('th a').getAttribute('href').split('/')[1])`
  )
const query = (page: Page) => new URL(page.url()).searchParams

/** 1,000 apps as page inputs: a tenth judged, the rest not read yet; twelve categories. */
function thousand(origin: string): PageInput[] {
  const categories = Array.from({ length: 12 }, (_, i) => `Category ${String.fromCharCode(65 + i)}`)
  return Array.from({ length: 1000 }, (_, i) => {
    const slug = `app-${String(i).padStart(4, '0')}`
    const judged = i % 10 === 0
    const c = judged ? CLASSES.filter((k) => k !== 'unknown')[(i / 10) % 4]! : 'unknown'
    return {
      record: {
        slug,
        name: `App ${1000 - i}`,
        repo: `made-up/${slug}`,
        latestVersion: `1.${i}.0`,
        safeToUpdate: c,
        rationale: judged ? 'Safe in 1.0: no line weighs toward caution.' : 'Release notes not read yet.',
        changelogSummary: null,
        sourceUrl: `https://github.com/made-up/${slug}/releases/tag/1.${i}.0`,
        lastChecked: '2026-11-20',
        successor: null,
        url: `${origin}/apps/${slug}/`,
        badge: `${origin}/badge/${slug}.svg`,
        lifecycle: null
      },
      releaseDate: judged ? `2026-${String(1 + ((i / 10) % 12)).padStart(2, '0')}-01` : null,
      releasesConsidered: [],
      rule: null,
      decidedBy: null,
      stale: false,
      categories: [categories[i % 12]!, ...(i % 7 === 0 ? [categories[(i + 5) % 12]!] : [])]
    }
  })
}

const suite = browserDescribe('browser tests of the index filters')

suite('the index: category filter, search, sort and the address', () => {
  let browser: Browser
  let small: { origin: string; close: () => Promise<unknown>; catalog: CatalogDoc; out: string; warnings: string[] }
  let large: { origin: string; close: () => Promise<unknown> }
  let cleanup: () => Promise<void>
  let visitSmall: VisitFn
  let visitLarge: VisitFn

  beforeAll(async () => {
    const t = await tempDir('updatesafe-index-')
    cleanup = t.cleanup
    const out = path.join(t.dir, 'site')
    const warnings: string[] = []
    const log: Logger = { info: () => {}, warning: (m) => warnings.push(m), error: (m) => warnings.push(m) }
    const source = await writeCatalog(t.dir)
    const s = await serve(out, (origin) =>
      build(
        { catalogDir: source.catalog, notesFrom: source.notesFrom, outDir: out, baseUrl: origin, now: new Date(NOW) },
        { log }
      ).then(() => undefined)
    )
    const catalog = catalogDocSchema.parse(JSON.parse(await readFile(path.join(out, 'api/v1/apps.json'), 'utf8')))
    small = { ...s, catalog, out, warnings }
    const bigDir = path.join(t.dir, 'big')
    large = await serve(bigDir, async (origin) => {
      // The index and its assets alone: the test never opens an app page of this site.
      for (const [file, body] of sharedPageFiles(thousand(origin), { generatedAt: NOW })) {
        await mkdir(path.dirname(path.join(bigDir, file)), { recursive: true })
        await writeFile(path.join(bigDir, file), body)
      }
    })
    browser = await launchChromium()
    visitSmall = visitor(browser, small.origin)
    visitLarge = visitor(browser, large.origin)
  })
  afterAll(async () => {
    await browser?.close()
    await small?.close()
    await large?.close()
    await cleanup?.()
  })

  test('categories.json lists each category with its apps, and the records carry no category', async () => {
    const doc = categoriesDocSchema.parse(
      JSON.parse(await readFile(path.join(small.out, 'api/v1/categories.json'), 'utf8'))
    )
    expect(doc.categories).toEqual([
      { name: 'Communication - Email', slugs: ['zeta-mail'] },
      { name: VIDEO, slugs: ['beta-media', 'gamma-photos', 'zeta-mail'] },
      { name: 'Note-taking & Editors', slugs: ['alpha-notes'] },
      { name: 'Photo Galleries', slugs: ['gamma-photos'] },
      { name: 'Wikis', slugs: ['delta-wiki'] }
    ])
    expect(doc.source.license).toBe('CC-BY-SA-3.0')
    for (const app of small.catalog.apps) expect(Object.keys(app)).not.toContain('categories')
    expect(small.catalog.apps.map((a) => a.slug).sort()).toEqual(APPS.map((a) => a.slug).sort())
  })

  test('an app page links each category to the index filtered to it, which a reader can bookmark', async () => {
    const v = await visitSmall('/apps/gamma-photos/')
    const { page } = v
    const links = await inPage<Array<[string, string]>>(
      page,
      `Array.from(document.querySelectorAll('.cats a')).map((a) => [a.textContent, a.getAttribute('href')])`
    )
    expect(links).toEqual([
      ['Photo Galleries', '../../?category=Photo%20Galleries'],
      [VIDEO, `../../?category=${encodeURIComponent(VIDEO)}`]
    ])
    await expect(page.locator('#credit a').getAttribute('href')).resolves.toBe(
      'https://github.com/awesome-selfhosted/awesome-selfhosted-data'
    )
    await page.click(`.cats a:has-text("${VIDEO}")`)
    await page.waitForURL(/category=/)
    expect(await page.inputValue('#g')).toBe(VIDEO)
    expect((await visible(page)).sort()).toEqual(['beta-media', 'gamma-photos', 'zeta-mail'])
    await expect(page.locator('#shown').textContent()).resolves.toBe('Showing 3 of 6 apps')
    expect(v.problems).toEqual([])
    await v.close()
  })

  test('filter by category and class, search and sort together, each kept in the address', async () => {
    const v = await visitSmall('/')
    const { page } = v
    const all = await visible(page)
    const cls = new Map(small.catalog.apps.map((a) => [a.slug, a.safeToUpdate]))
    // Judged apps first, then the unknown ones, each by name.
    const unknownAt = all.findIndex((s) => cls.get(s) === 'unknown')
    expect(unknownAt).toBeGreaterThan(0)
    expect(all.slice(unknownAt).every((s) => cls.get(s) === 'unknown')).toBe(true)
    expect(all).toHaveLength(APPS.length)
    await expect(page.locator('#credit').textContent()).resolves.toContain('awesome-selfhosted (CC-BY-SA 3.0)')
    await expect(page.locator('label[for="q"]').isVisible()).resolves.toBe(true)
    await expect(page.locator('label[for="q"]').textContent()).resolves.toBe('Search by name, slug or repository')

    await page.selectOption('#g', VIDEO)
    expect(query(page).get('category')).toBe(VIDEO)
    expect((await visible(page)).sort()).toEqual(['beta-media', 'gamma-photos', 'zeta-mail'])
    // Search by slug, within the category; the words are kept in the address.
    await page.fill('#q', 'zeta-m')
    expect(await visible(page)).toEqual(['zeta-mail'])
    expect(query(page).get('q')).toBe('zeta-m')
    await page.fill('#q', '')
    expect(query(page).has('q')).toBe(false)
    // Class and category together.
    const safe = APPS.filter((a) => a.categories.includes(VIDEO) && cls.get(a.slug) === 'safe').map((a) => a.slug)
    await page.click('label[for="f-safe"]')
    expect((await visible(page)).sort()).toEqual(safe.sort())
    expect(query(page).get('class')).toBe('safe')
    await page.click('label[for="f-all"]')
    await page.selectOption('#g', '')
    expect(query(page).has('category')).toBe(false)

    // Sorts: name (case-insensitive), release date (newest first), class; back to the default order.
    await page.selectOption('#sort', 'name')
    expect(await visible(page)).toEqual(
      [...APPS].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1)).map((a) => a.slug)
    )
    await page.selectOption('#sort', 'date')
    expect(query(page).get('sort')).toBe('date')
    expect(await visible(page)).toEqual([...APPS].sort((a, b) => (a.date < b.date ? 1 : -1)).map((a) => a.slug))
    await page.selectOption('#sort', 'class')
    const rank = (s: string) => ['safe', 'caution', 'breaking', 'unmaintained', 'unknown'].indexOf(cls.get(s)!)
    const byClass = await visible(page)
    expect(byClass.map(rank)).toEqual([...byClass.map(rank)].sort((a, b) => a - b))
    await page.selectOption('#sort', '')
    expect(await visible(page)).toEqual(all)

    // A search that finds nothing says how to have an app added.
    await page.fill('#q', 'no-such-app')
    expect(await visible(page)).toEqual([])
    await expect(page.locator('#add-hint').isVisible()).resolves.toBe(true)
    await expect(page.locator('#add-hint').textContent()).resolves.toContain('updatesafe add OWNER/REPO')

    // The whole state comes back from the address, as a bookmark would bring it.
    await page.goto(`${small.origin}/?class=safe&category=${encodeURIComponent(VIDEO)}&q=media&sort=name`)
    expect(await page.isChecked('#f-safe')).toBe(true)
    expect(await page.inputValue('#g')).toBe(VIDEO)
    expect(await page.inputValue('#q')).toBe('media')
    expect(await page.inputValue('#sort')).toBe('name')
    expect(await visible(page)).toEqual(['beta-media'])
    // Values the page does not offer change nothing.
    await page.goto(`${small.origin}/?category=%3Cscript%3E&sort=evil`)
    expect(await page.inputValue('#g')).toBe('')
    expect(await visible(page)).toEqual(all)
    // Leaving a page cancels its icon's request when it is still loading (the navigations above do): not a fault.
    expect(v.problems.filter((p) => !/\/assets\/icon\.svg net::ERR_ABORTED$/.test(p))).toEqual([])
    await v.close()
  })

  test('without JavaScript the index lists every app, and the controls that need it stay hidden', async () => {
    const v = await visitSmall(`/?category=${encodeURIComponent(VIDEO)}&q=zeta`, { javaScriptEnabled: false })
    expect(await v.page.locator('#apps tbody tr:visible').count()).toBe(APPS.length)
    await expect(v.page.locator('#search').isVisible()).resolves.toBe(false)
    await v.close()
  })

  test('1,000 apps: says how many are not read yet, lists the judged first, and filters, searches and sorts', async () => {
    const v = await visitLarge('/')
    const { page } = v
    const rows = await visible(page)
    expect(rows).toHaveLength(1000)
    await expect(page.locator('#unread').textContent()).resolves.toMatch(/^900 apps are not read yet/)
    // The 100 judged apps come first.
    expect(rows.slice(0, 100).every((s) => Number(s.slice(4)) % 10 === 0)).toBe(true)
    await page.selectOption('#g', 'Category C')
    const inC = Array.from({ length: 1000 }, (_, i) => i).filter(
      (i) => i % 12 === 2 || (i % 7 === 0 && (i + 5) % 12 === 2)
    )
    expect(await visible(page)).toHaveLength(inC.length)
    await page.click('label[for="f-breaking"]')
    const judgedInC = inC.filter((i) => i % 10 === 0 && (i / 10) % 4 === 2)
    expect((await visible(page)).sort()).toEqual(judgedInC.map((i) => `app-${String(i).padStart(4, '0')}`))
    await page.click('label[for="f-all"]')
    await page.selectOption('#g', '')
    await page.fill('#q', 'App 1000')
    expect(await visible(page)).toEqual(['app-0000'])
    await page.fill('#q', '')
    await page.selectOption('#sort', 'date')
    // Released in December: the judged apps whose tenth is 11 in twelve.
    const december = Array.from({ length: 100 }, (_, k) => k).filter((k) => k % 12 === 11)
    const dated = await visible(page)
    expect(dated.slice(0, december.length).sort()).toEqual(
      december.map((k) => `app-${String(k * 10).padStart(4, '0')}`)
    )
    expect(query(page).get('sort')).toBe('date')
    expect(v.problems).toEqual([])
    await v.close()
  })
})
