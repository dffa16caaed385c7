// Real-browser check of the rendered site: Debian's chromium driven by
// playwright-core, the site served by sirv under a path prefix like GitHub Pages
// project sites. Skips without chromium, except in CI where that is a failure.
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import sirv from 'sirv'
import type { Browser, Page } from 'playwright-core'
import { renderPages } from '../../src/site/pages.js'
import { PALETTE } from '../../src/site/assets.js'
import { browserDescribe, inPage, launchChromium, visitor, type VisitFn } from '../support/browser.js'
import type { Classification } from '../../src/schema/index.js'
import type { PageInput } from '../../src/site/pages.js'
import { CTX, HOSTILE, REALISTIC, record } from './fixtures.js'

const PREFIX = '/updatesafe/'
const SHOTS = resolve('screenshots')
const suite = browserDescribe('browser tests of the rendered pages')

const CHAT = 'Communication - Chat'
/** Made-up apps for the index's order and counts: names a code-unit sort misplaces, and one category. */
function madeUp(slug: string, name: string, c: Classification, categories: string[]): PageInput {
  return {
    record: record({
      slug,
      name,
      repo: `made-up/${slug}`,
      latestVersion: '1.0.0',
      safeToUpdate: c,
      rationale: 'Made up for the index tests.',
      sourceUrl: `https://github.com/made-up/${slug}/releases/tag/1.0.0`,
      lastChecked: '2026-11-20'
    }),
    releaseDate: null,
    releasesConsidered: ['1.0.0'],
    rule: null,
    decidedBy: null,
    stale: false,
    categories
  }
}
const NAMED = [
  madeUp('utask', 'µTask', 'breaking', [CHAT]),
  madeUp('umami', 'Umami', 'safe', [CHAT]),
  madeUp('uptime-kuma', 'Uptime Kuma', 'safe', [CHAT]),
  madeUp('zulip', 'Zulip', 'caution', []),
  madeUp('ponskelisten', 'Pønskelisten', 'safe', [])
]
const ALL = [...REALISTIC, ...HOSTILE, ...NAMED]
/** A name that resolves to the test server but is not loopback: a plain-http LAN host, not a secure context. */
const LAN = 'lan.test'

suite('rendered site in chromium', () => {
  let dir = ''
  let server: Server
  let origin = ''
  let browser: Browser
  let visit: VisitFn

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'updatesafe-render-'))
    for (const [path, body] of renderPages(ALL, CTX)) {
      await mkdir(dirname(join(dir, path)), { recursive: true })
      await writeFile(join(dir, path), body)
    }
    const files = sirv(dir, { dev: true, etag: false })
    const page404 = await readFile(join(dir, '404.html'))
    // GitHub Pages semantics: unknown paths get 404.html with status 404.
    const notFound = (res: ServerResponse) =>
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(page404)
    server = createServer((req, res) => {
      const url = req.url ?? '/'
      if (!url.startsWith(PREFIX)) return notFound(res)
      req.url = url.slice(PREFIX.length - 1)
      files(req, res, () => void notFound(res))
    })
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    await mkdir(SHOTS, { recursive: true })
    browser = await launchChromium([`--host-resolver-rules=MAP ${LAN} 127.0.0.1`])
    visit = visitor(browser, origin)
  })

  afterAll(async () => {
    await browser?.close()
    await new Promise((ok) => server?.close(ok))
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  const visibleRows = (page: Page) => page.locator('#apps tbody tr:visible')

  test('index: loads cleanly, search and class filter work, keyboard reaches the filter', async () => {
    const v = await visit(PREFIX)
    const { page } = v
    await page.screenshot({ path: join(SHOTS, 'index-desktop.png'), fullPage: true })
    await expect(page.locator('#search').isVisible()).resolves.toBe(true)
    expect(await visibleRows(page).count()).toBe(ALL.length)

    await page.fill('#q', 'traefik')
    expect(await visibleRows(page).count()).toBe(1)
    await expect(page.locator('#shown').textContent()).resolves.toBe(`Showing 1 of ${ALL.length} apps`)
    await page.fill('#q', 'no app is called this')
    expect(await visibleRows(page).count()).toBe(0)
    await expect(page.locator('#none').isVisible()).resolves.toBe(true)
    await page.fill('#q', '')

    await page.click('label[for="f-unmaintained"]')
    const unmaintained = ALL.filter((p) => p.record.safeToUpdate === 'unmaintained').length
    expect(await visibleRows(page).count()).toBe(unmaintained)
    expect(await page.locator('#apps tbody tr:visible[data-c="unmaintained"]').count()).toBe(unmaintained)
    await page.fill('#q', 'watchtower')
    expect(await visibleRows(page).count()).toBe(1)
    await page.fill('#q', '')

    // Keyboard: arrow keys move the class filter; focus is visible on the label.
    await page.focus('#f-all')
    await page.keyboard.press('ArrowRight')
    await expect(page.locator('#f-safe').isChecked()).resolves.toBe(true)
    const outline = await inPage<string>(
      page,
      `getComputedStyle(document.querySelector('label[for="f-safe"]')).outlineStyle`
    )
    expect(outline).toBe('solid')
    expect(await visibleRows(page).count()).toBe(ALL.filter((p) => p.record.safeToUpdate === 'safe').length)

    // Hostile names on the index run nothing.
    expect(await inPage(page, 'typeof window.__pwned')).toBe('undefined')
    expect(v.problems).toEqual([])
    await v.close()
  })

  test('index without JavaScript: full list, and the class filter and its count still work', async () => {
    const v = await visit(PREFIX, { javaScriptEnabled: false })
    const { page } = v
    await expect(page.locator('#search').isVisible()).resolves.toBe(false)
    expect(await visibleRows(page).count()).toBe(ALL.length)
    await expect(page.locator('#shown').innerText()).resolves.toBe(`${ALL.length} apps`)
    await page.click('label[for="f-breaking"]')
    const breaking = ALL.filter((p) => p.record.safeToUpdate === 'breaking').length
    expect(await visibleRows(page).count()).toBe(breaking)
    // The status line says what is shown, not the whole list's count.
    await expect(page.locator('#shown').innerText()).resolves.toBe(`Showing ${breaking} of ${ALL.length} apps`)
    await page.click('label[for="f-all"]')
    await expect(page.locator('#shown').innerText()).resolves.toBe(`${ALL.length} apps`)
    expect(v.problems).toEqual([])
    await v.close()
  })

  const tally = (page: Page, c: string) => page.locator(`label[for="f-${c}"] b`).textContent()
  const shownNames = (page: Page) =>
    inPage<string[]>(
      page,
      `Array.from(document.querySelectorAll('#apps tbody tr')).filter((r) => r.offsetParent !== null).map((r) => r.querySelector('th a').textContent)`
    )

  test('index: the class buttons count what the category and the search leave; ?class= filters', async () => {
    const v = await visit(PREFIX)
    const { page } = v
    const count = (c: string, pages: PageInput[]) => pages.filter((p) => p.record.safeToUpdate === c).length
    await expect(tally(page, 'breaking')).resolves.toBe(String(count('breaking', ALL)))
    await page.selectOption('#g', CHAT)
    const chat = ALL.filter((p) => p.categories?.includes(CHAT))
    await expect(tally(page, 'all')).resolves.toBe(String(chat.length))
    await expect(tally(page, 'breaking')).resolves.toBe('1')
    await expect(tally(page, 'safe')).resolves.toBe('2')
    await expect(tally(page, 'caution')).resolves.toBe('0')
    await page.fill('#q', 'kuma')
    await expect(tally(page, 'all')).resolves.toBe('1')
    await expect(tally(page, 'safe')).resolves.toBe('1')
    await expect(tally(page, 'breaking')).resolves.toBe('0')
    await page.fill('#q', '')
    await page.selectOption('#g', '')
    await expect(tally(page, 'breaking')).resolves.toBe(String(count('breaking', ALL)))

    // A link to a class and a category: filtered, counted and said so at once.
    await page.goto(`${origin}${PREFIX}?class=breaking&category=${encodeURIComponent(CHAT)}`)
    expect(await page.isChecked('#f-breaking')).toBe(true)
    expect(await shownNames(page)).toEqual(['µTask'])
    await expect(page.locator('#shown').innerText()).resolves.toBe(`Showing 1 of ${ALL.length} apps`)
    await expect(tally(page, 'breaking')).resolves.toBe('1')
    await expect(tally(page, 'all')).resolves.toBe(String(chat.length))
    expect(v.problems.filter((p) => !/\/assets\/icon\.svg net::ERR_ABORTED$/.test(p))).toEqual([])
    await v.close()
  })

  test('index: every row is in the accessibility tree, not only those near the screen', async () => {
    // A short window: most rows are far below it. Skipping their layout (content-visibility) left them out of
    // Chromium's accessibility tree, so a screen reader reached the first few apps only.
    const v = await visit(PREFIX, { viewport: { width: 1280, height: 300 } })
    const cdp = await v.page.context().newCDPSession(v.page)
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[]
    }
    const named = (role: string) => nodes.filter((n) => !n.ignored && n.role?.value === role)
    expect(named('rowheader')).toHaveLength(ALL.length)
    expect(named('cell').length).toBeGreaterThanOrEqual(ALL.length * 4)
    const links = new Set(named('link').map((n) => n.name?.value))
    for (const name of ['µTask', 'Uptime Kuma', 'Zulip']) expect(links.has(name)).toBe(true)
    await v.close()
  })

  test('index: names sort as a reader expects, µTask among the U names, on the page and in the name sort', async () => {
    const v = await visit(PREFIX)
    const { page } = v
    const expectHumanOrder = (names: string[]) => {
      const at = (n: string) => names.indexOf(n)
      expect(at('µTask')).toBe(at('Uptime Kuma') + 1)
      expect(at('Umami')).toBeLessThan(at('Uptime Kuma'))
      expect(at('Pønskelisten')).toBeGreaterThan(at('Firefly III'))
      expect(at('Pønskelisten')).toBeLessThan(at('Umami'))
    }
    // The page's own order, judged first, then by name: every judged name here.
    const judged = (await shownNames(page)).filter((n) =>
      ['Firefly III', 'Pønskelisten', 'Umami', 'Uptime Kuma', 'µTask', 'Zulip'].includes(n)
    )
    expectHumanOrder(judged)
    expect(judged.at(-1)).toBe('Zulip')
    await page.selectOption('#sort', 'name')
    const byName = await shownNames(page)
    expectHumanOrder(byName)
    expect(byName.indexOf('µTask')).toBeLessThan(byName.indexOf('Zulip'))
    expect(v.problems).toEqual([])
    await v.close()
  })

  test('app page on a plain-http LAN host: the copy button still copies the snippet', async () => {
    const lan = `http://${LAN}:${new URL(origin).port}`
    const v = await visitor(browser, lan)(`${PREFIX}apps/gitea/`)
    const { page } = v
    // The premise: no clipboard API outside a secure context.
    expect(await inPage(page, 'window.isSecureContext || typeof navigator.clipboard')).toBe('undefined')
    await inPage(page, `document.addEventListener('copy', () => { window.__copied = String(getSelection()) })`)
    const button = page.locator('pre[data-copy] + button')
    await expect(button.textContent()).resolves.toBe('Copy snippet')
    await button.click()
    const snippet = await page.locator('pre[data-copy]').textContent()
    expect(await inPage(page, 'window.__copied')).toBe(snippet)
    await expect(button.textContent()).resolves.toBe('Copied')
    expect(v.problems).toEqual([])
    await v.close()
  })

  test.each(ALL.map((p) => p.record.slug))(
    'app page %s: clean load, badge shown, nothing injected runs',
    async (slug) => {
      const v = await visit(`${PREFIX}apps/${slug}/`)
      const { page } = v
      const badge = page.locator('.badge img')
      expect(await badge.count()).toBe(1)
      expect(
        await inPage(
          page,
          `(() => { const i = document.querySelector('.badge img'); return i.complete && i.naturalWidth > 0 })()`
        )
      ).toBe(true)
      const dom = await inPage<{ pwned: string; scripts: string[]; handlers: string[]; hrefs: string[] }>(
        page,
        `({
        pwned: typeof window.__pwned,
        scripts: Array.from(document.scripts).map((s) => s.getAttribute('src')),
        handlers: Array.from(document.querySelectorAll('*')).flatMap((el) => el.getAttributeNames().filter((n) => n.startsWith('on'))),
        hrefs: Array.from(document.querySelectorAll('[href]')).map((el) => el.href)
      })`
      )
      expect(dom.pwned).toBe('undefined')
      expect(dom.scripts).toEqual(['../../assets/site.js'])
      expect(dom.handlers).toEqual([])
      for (const h of dom.hrefs) expect(h).toMatch(/^https?:\/\//)
      if (slug === 'gitea') await page.screenshot({ path: join(SHOTS, 'app-desktop.png'), fullPage: true })
      if (slug === 'traefik') await page.screenshot({ path: join(SHOTS, 'app-stale.png'), fullPage: true })
      if (slug === 'xss-name') await page.screenshot({ path: join(SHOTS, 'app-hostile.png'), fullPage: true })
      expect(v.problems).toEqual([])
      await v.close()
    }
  )

  test.each([
    ['index', PREFIX],
    ['app', `${PREFIX}apps/gitea/`],
    ['app-unmaintained', `${PREFIX}apps/synapse-legacy/`],
    ['app-huge', `${PREFIX}apps/huge-text/`]
  ])('%s at 320 px: no horizontal scrolling', async (name, path) => {
    const v = await visit(path, { viewport: { width: 320, height: 640 } })
    const width = await inPage<number>(v.page, 'document.documentElement.scrollWidth')
    expect(width).toBeLessThanOrEqual(320)
    await v.page.screenshot({ path: join(SHOTS, `${name}-320.png`), fullPage: name !== 'app-huge' })
    expect(v.problems).toEqual([])
    await v.close()
  })

  test('dark scheme follows prefers-color-scheme', async () => {
    const v = await visit(`${PREFIX}apps/firefly-iii/`, { colorScheme: 'dark' })
    const bg = await inPage<string>(v.page, 'getComputedStyle(document.body).backgroundColor')
    const hex = PALETTE.dark.bg
    const rgb = `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`
    expect(bg).toBe(rgb)
    await v.page.screenshot({ path: join(SHOTS, 'app-dark.png'), fullPage: true })
    await v.close()
    const idx = await visit(PREFIX, { colorScheme: 'dark', viewport: { width: 320, height: 640 } })
    await idx.page.screenshot({ path: join(SHOTS, 'index-dark-320.png') })
    await idx.close()
  })

  test('404 at any depth is styled and links back to the site root under the prefix', async () => {
    const v = await visit(`${PREFIX}no/such/deep/path/`, {}, 404)
    const { page } = v
    const styled = await inPage<string>(page, `getComputedStyle(document.querySelector('.top')).borderBottomStyle`)
    expect(styled).toBe('solid')
    const home = await inPage<string>(
      page,
      `Array.from(document.links).find((a) => a.textContent === 'See every app').href`
    )
    expect(home).toBe(`${origin}${PREFIX}`)
    await page.screenshot({ path: join(SHOTS, '404.png') })
    // Chromium logs the document's own 404 status; nothing else may go wrong.
    expect(v.problems.filter((p) => !/status of 404/.test(p))).toEqual([])
    await page.click('text=See every app')
    await expect(page.locator('h1').textContent()).resolves.toMatch(/^Update safety of/)
    await v.close()
  })
})
