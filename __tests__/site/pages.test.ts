import { describe, expect, test } from '@jest/globals'
import { posix } from 'node:path'
import { renderPages, type PageInput } from '../../src/site/pages.js'
import { lifecycleText, renderAppPage } from '../../src/site/html/app-page.js'
import { CSP } from '../../src/site/html/layout.js'
import { CLASSES, type AppRecord } from '../../src/schema/index.js'
import { BASE, CTX, HOSTILE, REALISTIC, record } from './fixtures.js'
import { whyOf, WHY_MAX } from '../../src/site/html/why.js'
import { htmlTags, type Tag } from './markup.js'

const site = renderPages([...REALISTIC, ...HOSTILE], CTX)
const htmlFiles = [...site.keys()].filter((k) => k.endsWith('.html'))
const attr = (t: Tag, name: string) => t.attrs.find(([n]) => n === name)?.[1]

describe('renderPages: files', () => {
  test('writes the index, 404, assets, and per app a page, a badge and a shields document', () => {
    for (const k of ['index.html', '404.html', 'assets/site.css', 'assets/site.js', 'assets/icon.svg'])
      expect(site.has(k)).toBe(true)
    for (const p of [...REALISTIC, ...HOSTILE]) {
      const s = p.record.slug
      expect(site.has(`apps/${s}/index.html`)).toBe(true)
      expect(site.get(`badge/${s}.svg`)).toMatch(/^<svg /)
      expect(JSON.parse(site.get(`api/v1/badge/${s}.json`)!)).toMatchObject({ schemaVersion: 1 })
    }
  })
  test('refuses a slug that is not a slug, and duplicates', () => {
    const bad = { ...REALISTIC[0]!, record: { ...REALISTIC[0]!.record, slug: '../x' } }
    expect(() => renderPages([bad], CTX)).toThrow(/invalid slug/)
    expect(() => renderPages([REALISTIC[0]!, REALISTIC[0]!], CTX)).toThrow(/duplicate slug/)
  })
  test('is deterministic: same input, any order, same bytes', () => {
    const again = renderPages([...HOSTILE, ...REALISTIC].reverse(), CTX)
    expect([...again.keys()].sort()).toEqual([...site.keys()].sort())
    for (const [k, v] of site) expect(again.get(k)).toBe(v)
  })
})

describe('every HTML page', () => {
  test.each(htmlFiles)('%s: lang, viewport, strict CSP, no inline script or style, no handlers', (file) => {
    const html = site.get(file)!
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true)
    const tags = htmlTags(html)
    const start = tags.filter((t) => !t.end)
    const csp = start.find((t) => t.name === 'meta' && attr(t, 'http-equiv') === 'Content-Security-Policy')
    expect(attr(csp!, 'content')).toBe(CSP)
    expect(CSP).toMatch(/default-src 'none'/)
    expect(start.some((t) => t.name === 'meta' && attr(t, 'name') === 'viewport')).toBe(true)
    const scripts = start.filter((t) => t.name === 'script')
    expect(scripts).toHaveLength(1)
    expect(attr(scripts[0]!, 'src')).toMatch(/(^|\/)assets\/site\.js$/)
    expect(start.filter((t) => t.name === 'style')).toHaveLength(0)
    for (const t of start) {
      for (const [n, v] of t.attrs) {
        expect(n.startsWith('on')).toBe(false)
        expect(n).not.toBe('style')
        expect(v.trim().toLowerCase()).not.toMatch(/^(javascript|data|vbscript):/)
      }
      // No request may leave the site: only links may point elsewhere.
      for (const a of ['src', 'srcset', 'poster', 'data']) expect(attr(t, a) ?? '').not.toMatch(/^(https?:)?\/\//)
      if (t.name === 'link') expect(attr(t, 'href')).not.toMatch(/^(https?:)?\/\//)
      if (t.name === 'a' && attr(t, 'href')?.startsWith('http')) expect(attr(t, 'rel')).toBe('noopener noreferrer')
    }
    // Only known elements: an injected tag would show up here.
    const allowed = new Set(
      'html head meta title link script body a header div span main h1 h2 p small nav section strong code dl dt dd ol ul li pre img footer table caption thead tbody tr th td fieldset legend input label b time select option'.split(
        ' '
      )
    )
    for (const t of tags) expect(allowed.has(t.name) ? t.name : `unexpected <${t.name}>`).toBe(t.name)
  })

  test('relative links from pages resolve to files of the site (served under a path prefix)', () => {
    const prefix = '/updatesafe/'
    for (const file of htmlFiles.filter((f) => f !== '404.html')) {
      const dir = posix.dirname(prefix + file) + '/'
      for (const t of htmlTags(site.get(file)!).filter((x) => !x.end)) {
        for (const a of ['href', 'src']) {
          const v = attr(t, a)
          if (v === undefined || /^https?:/.test(v) || v.startsWith('#')) continue
          expect(v.startsWith('/')).toBe(false)
          const resolved = new URL(v, `http://h${dir}`).pathname
          expect(resolved.startsWith(prefix)).toBe(true)
          let key = resolved.slice(prefix.length)
          if (key === '' || key.endsWith('/')) key += 'index.html'
          if (key === 'api/v1/apps.json' || key === 'api/v1/status.json' || /^api\/v1\/apps\/[a-z0-9-]+\.json$/.test(key)) continue // written by the JSON renderer and the pipeline
          expect(site.has(key) ? key : `${file} links to missing ${key}`).toBe(key)
        }
      }
    }
  })
})

describe('index page', () => {
  const html = site.get('index.html')!
  const rows = htmlTags(html).filter((t) => t.name === 'tr' && !t.end && attr(t, 'data-c'))
  test('lists every app once with its class, and counts per class', () => {
    expect(rows).toHaveLength(REALISTIC.length + HOSTILE.length)
    for (const c of CLASSES) {
      const n = [...REALISTIC, ...HOSTILE].filter((p) => p.record.safeToUpdate === c).length
      expect(rows.filter((r) => attr(r, 'data-c') === c)).toHaveLength(n)
      expect(html).toContain(`<label for="f-${c}"><span class="k k-${c}">`)
      expect(html).toMatch(new RegExp(`for="f-${c}">.*?<b>${n}</b>`))
    }
  })
  test('links each app page and the JSON API, relatively', () => {
    for (const p of REALISTIC) expect(html).toContain(`<a href="apps/${p.record.slug}/">${p.record.name}</a>`)
    expect(html).toContain('href="api/v1/apps.json"')
  })
  test('the search box is hidden until the script reveals it; the class filter needs no script', () => {
    expect(html).toMatch(/<div class="search" id="search" hidden>/)
    expect(site.get('assets/site.css')).toContain(
      '.filters:has(>#f-breaking:checked)~#apps tbody tr:not([data-c=breaking]),.filters:has(>#f-breaking:checked)~#shown .n-all{display:none}'
    )
  })
  test('says when the last run was and when an app last changed; only the index moves with the run', () => {
    expect(html).toContain(
      'Last run <time datetime="2026-11-21T03:00:00.000Z">2026-11-21 03:00 UTC</time>; last change to any app <time datetime="2026-11-21T03:00:00.000Z">'
    )
    const later = renderPages([...REALISTIC, ...HOSTILE], { ...CTX, runAt: '2026-12-21T04:23:00.000Z' })
    expect(later.get('index.html')).toContain(
      'Last run <time datetime="2026-12-21T04:23:00.000Z">2026-12-21 04:23 UTC</time>; last change to any app <time datetime="2026-11-21T03:00:00.000Z">2026-11-21 03:00 UTC</time>'
    )
    const moved = [...later].filter(([k, v]) => site.get(k) !== v).map(([k]) => k)
    expect(moved).toEqual(['index.html'])
  })
  test("an app page does not name the snapshot's time, so a change to another app leaves it as it was", () => {
    const changed = renderPages([...REALISTIC, ...HOSTILE], { ...CTX, generatedAt: '2026-12-21T04:23:00.000Z' })
    const moved = [...changed].filter(([k, v]) => site.get(k) !== v).map(([k]) => k)
    expect(moved).toEqual(['index.html', '404.html'])
    expect(changed.get('index.html')).toContain('Data last changed 2026-12-21 04:23 UTC, from upstream release notes.')
    expect(site.get('apps/gitea/index.html')).toContain('<p>Data from upstream release notes. Classes are advice')
  })
  test('orders apps with a judged class first, then the unknown ones, each by name, case-insensitively', () => {
    const names = REALISTIC.map((p) => p.record.name)
    const positions = names.map((n) => html.indexOf(`>${n}</a>`))
    const unknown = new Set(REALISTIC.filter((p) => p.record.safeToUpdate === 'unknown').map((p) => p.record.name))
    expect(unknown.size).toBeGreaterThan(0)
    const sorted = [...names].sort((a, b) =>
      unknown.has(a) !== unknown.has(b) ? (unknown.has(a) ? 1 : -1) : a.toLowerCase() < b.toLowerCase() ? -1 : 1
    )
    expect([...names].sort((a, b) => positions[names.indexOf(a)]! - positions[names.indexOf(b)]!)).toEqual(sorted)
  })
})

describe('app page', () => {
  const page = (slug: string) => site.get(`apps/${slug}/index.html`)!
  test('shows class, rationale with its quote, summary, notes link, version, date, releases considered', () => {
    const html = page('gitea')
    expect(html).toContain('<span class="k k-caution">Caution</span>')
    expect(html).toContain('&quot;Bump x/oauth2 &amp; x/crypto (#33704)&quot;')
    expect(html).toContain('PERFORMANCE: Optimize user dashboard loading.')
    expect(html).toContain(
      '<a href="https://github.com/go-gitea/gitea/releases/tag/v1.23.5" rel="noopener noreferrer">'
    )
    expect(html).toContain('<dt>Released</dt><dd>2025-03-03</dd>')
    expect(html).toMatch(
      /<li><code>1\.23\.4<\/code><\/li>\s*<li><code>1\.23\.5<\/code> <strong>decided the class<\/strong><\/li>/
    )
    expect(html).toContain('<p class="muted">Decided by release <code>1.23.5</code>.</p>')
  })
  test('names no internal rule id: the rule that decided is for logs, not readers', () => {
    for (const p of REALISTIC.filter((p) => p.rule !== null)) {
      const html = page(p.record.slug)
      expect([p.rule, html.includes(p.rule!)]).toEqual([p.rule, false])
      expect(html).not.toMatch(/\(rule /)
    }
  })
  test('an unmaintained app without a summary says nothing of one, rather than "no summary"', () => {
    expect(page('synapse-legacy')).not.toContain('<h2>Changelog summary</h2>')
    expect(page('kimai')).toContain('<p class="muted">No summary is available.</p>')
  })
  test('lifecycle: the date, never a count of days that the next quiet day would make wrong', () => {
    expect(page('gitea')).toContain(
      'Release cycle 1.23 reaches end of life on 2027-01-10. <span data-until="2027-01-10"></span>'
    )
    expect(page('prometheus')).toContain(
      '<p class="eol">Release cycle 3.14 reached end of life on 2026-09-30. <span data-until="2026-09-30"></span></p>'
    )
    expect(page('traefik')).toContain('Release cycle 3.7: no end of life set.</p>')
    expect(page('linkding')).not.toContain('<h2>Lifecycle</h2>')
    for (const html of site.values()) expect(html).not.toMatch(/\d+ days? (remaining|ago)/)
    expect(
      lifecycleText({
        product: 'p',
        link: 'https://e/',
        cycle: '1',
        eol: '2026-11-21',
        status: 'eol-scheduled',
        eolDate: '2026-11-21'
      })
    ).toBe('Release cycle 1 reaches end of life on 2026-11-21.')
  })
  test('stale notice only when stale, with since when', () => {
    expect(page('traefik')).toContain('<strong>Stale data.</strong>')
    expect(page('gitea')).not.toContain('Stale data')
    const since = renderPages(REALISTIC, { ...CTX, staleSince: new Map([['traefik', '2026-10-02T04:23:00.000Z']]) })
    expect(since.get('apps/traefik/index.html')).toContain(
      '<strong>Stale data since 2026-10-02.</strong> The upstream project could not be reached by any build since 2026-10-02;'
    )
  })
  test('successor of an unmaintained app links a repository reference to GitHub', () => {
    expect(page('synapse-legacy')).toContain(
      'Maintained successor: <a href="https://github.com/element-hq/synapse" rel="noopener noreferrer">element-hq/synapse</a>'
    )
    expect(page('gitea')).not.toContain('<h2>Successor</h2>')
  })
  test('badge image is relative; the Markdown snippet uses the absolute addresses', () => {
    const html = page('gitea')
    expect(html).toContain('<img src="../../badge/gitea.svg" alt="update safety: caution, 1.23.5">')
    expect(html).toContain(`<code>[![update safety](${BASE}/badge/gitea.svg)](${BASE}/apps/gitea/)</code>`)
    expect(html).toContain('<a href="../../api/v1/apps/gitea.json">')
    expect(html).toContain('<a href="../../">All apps</a>')
  })
})

describe('hostile records', () => {
  test('render inert: every piece of their text is escaped and bounded', () => {
    const xss = site.get('apps/xss-name/index.html')!
    expect(xss).toContain(
      '&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;'
    )
    expect(xss).not.toContain('<script>window')
    expect(xss).not.toContain('<img src=x')
    expect(xss).not.toContain('<svg')
    expect(xss).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/)
    // The javascript: release-notes link and lifecycle link are shown as text, never as hrefs.
    expect(xss).toContain('no link available')
    expect(xss).not.toMatch(/href="[^"]*javascript/i)
    const huge = site.get('apps/huge-text/index.html')!
    expect(huge.length).toBeLessThan(60_000)
    expect(huge).toContain('and 450 more.')
    // A javascript: page or badge URL yields no snippet at all.
    expect(huge).not.toContain('data-copy')
  })
  test('a base path cannot be smuggled into the 404 page', () => {
    const render = (base: string) =>
      renderPages([{ ...REALISTIC[0]!, record: record({ ...REALISTIC[0]!.record }, base) }], CTX).get('404.html')!
    // The URL parser percent-encodes markup characters; what is left is a plain path.
    const encoded = render('https://x.example/"><script>')
    expect(encoded).toContain('<a href="/%22%3E%3Cscript%3E/">See every app</a>')
    expect(htmlTags(encoded).filter((t) => t.name === 'script' && !t.end)).toHaveLength(1)
    // Characters the parser leaves alone but that do not belong in a base path fall back to "/".
    expect(render("https://x.example/it's")).toContain('<a href="/">See every app</a>')
  })
})

describe('404 page', () => {
  test('links root-relative through the base path, so it works at any depth', () => {
    const html = site.get('404.html')!
    expect(html).toContain('<link rel="stylesheet" href="/updatesafe/assets/site.css">')
    expect(html).toContain('<a href="/updatesafe/">See every app</a>')
    const local: PageInput = { ...REALISTIC[0]!, record: record({ ...REALISTIC[0]!.record }, 'http://localhost:8080') }
    expect(renderPages([local], CTX).get('404.html')).toContain('<a href="/">See every app</a>')
    expect(renderPages([], { ...CTX, baseUrl: 'https://o.github.io/repo' }).get('404.html')).toContain(
      'href="/repo/assets/site.css"'
    )
  })
})

describe('feeds option', () => {
  test('off by default; when on, pages link the Atom feeds relatively', () => {
    expect(site.get('index.html')).not.toContain('feed.xml')
    const withFeeds = renderPages(REALISTIC, { ...CTX, feeds: true })
    expect(withFeeds.get('index.html')).toContain(
      '<link rel="alternate" type="application/atom+xml" title="All changes" href="feed.xml">'
    )
    const app = withFeeds.get('apps/gitea/index.html')!
    expect(app).toContain('<link rel="alternate" type="application/atom+xml" title="Changes to Gitea" href="feed.xml">')
    expect(app).toContain('<a href="../../feed.xml">Atom feed</a>')
  })
})

describe('the index’s why column', () => {
  // Rationales as the classifier and a curated override write them (classify/classifier.ts, override.ts).
  const judged = (slug: string, safeToUpdate: AppRecord['safeToUpdate'], rationale: string): PageInput => ({
    ...REALISTIC[0]!,
    record: record({ ...REALISTIC[0]!.record, slug, name: slug, safeToUpdate, rationale })
  })
  const pages = [
    judged('a-breaking', 'breaking', 'Breaking (a required step) in 2.0, under "Upgrading": "Run <migrate> & restart": the line asks the admin to take a step.'),
    judged('b-diffuse', 'caution', 'Caution in 1.4: no line names a change to read first, but the notes as a whole weigh toward caution; the strongest, "Bump the runtime", bumps a dependency.'),
    judged('c-override', 'breaking', 'Curated override for 3.1: Upstream asks to reindex after this update. The rules alone say: safe.'),
    judged('d-safe', 'safe', 'Safe in 1.0: no line weighs toward caution; the closest, "Fix a typo", fixes a bug.'),
    judged('e-long', 'caution', `Caution in 5: "${'word '.repeat(60)}": the line changes existing behaviour.`)
  ]
  const html = renderPages(pages, CTX).get('index.html')!
  const cells = [...html.matchAll(/<td class="w">(.*?)<\/td>/g)].map((m) => m[1])

  test('quotes the words that decided, escaped and short; an override gives its reason; a safe app nothing', () => {
    expect(html).toContain('<th scope="col">Why</th>')
    expect(cells.slice(0, 4)).toEqual([
      '“Run &lt;migrate&gt; &amp; restart”',
      '“Bump the runtime”',
      'Upstream asks to reindex after this update.',
      ''
    ])
    expect(whyOf(pages[4]!.record)!.length).toBeLessThanOrEqual(WHY_MAX + 2)
    expect(cells[4]).toMatch(/…”$/)
  })
  test('a rationale in another shape gives nothing rather than a wrong quote', () => {
    expect(whyOf({ safeToUpdate: 'caution', rationale: 'Release 1.23.5 has a "SECURITY" section: "Bump x".' })).toBeNull()
  })
})

describe('offline data', () => {
  const offline = { source: 'the notes file <data.jsonl>', asOf: null }
  const built = renderPages(REALISTIC, { ...CTX, offline })
  test('every page says the data is offline and as of which day: the index the newest check, a page its own', () => {
    expect(built.get('index.html')).toContain(
      '<p class="notice" role="note" id="offline"><strong>Offline data, as of 2026-11-21.</strong> This snapshot was built from the notes file &lt;data.jsonl&gt; without reading upstream'
    )
    expect(built.get('apps/traefik/index.html')).toContain('<strong>Offline data, as of 2026-11-20.</strong> This page')
    const given = renderPages(REALISTIC, { ...CTX, offline: { ...offline, asOf: '2026-11-19' } })
    for (const f of ['index.html', 'apps/traefik/index.html', 'apps/gitea/index.html'])
      expect(given.get(f)).toContain('<strong>Offline data, as of 2026-11-19.</strong>')
  })
  test('a build from upstream shows no banner', () => {
    for (const [f, html] of site) if (f.endsWith('.html')) expect([f, html.includes('id="offline"')]).toEqual([f, false])
  })
})

describe('app page: categories and the releases considered', () => {
  const base = REALISTIC[0]!
  const entry = (version: string) => ({
    version,
    tag: version,
    date: '2026-11-01',
    url: `https://github.com/made-up/app/releases/tag/${version}`,
    safeToUpdate: 'safe' as const,
    rationale: 'Safe: no line weighs toward caution.',
    evidence: 'fixes a bug',
    quote: null,
    security: false,
    breakingKind: null,
    basis: '0123abcd.0123abcd.0123456789ab',
    judge: 'rules',
    rules: 'safe' as const,
    model: null
  })
  const history = (n: number) => ({
    schema: 'updatesafe.releases.v1' as const,
    generatedAt: CTX.generatedAt,
    slug: base.record.slug,
    latest: null,
    releases: [base.record.latestVersion, 'v0.9.0', 'v0.8.0'].slice(0, n).map(entry)
  })
  const render = (extra: Partial<Parameters<typeof renderAppPage>[0]>) =>
    renderAppPage({ ...base, releasesConsidered: [base.record.latestVersion], ...extra })

  test('one release considered above a table of several: the line says what each shows (issue 60)', () => {
    const many = render({ history: history(3) })
    expect(many).not.toContain('Only this release was read.')
    expect(many).toContain('The verdict reads this release alone')
    expect(many).toContain('crosses more of the 3 releases judged so far: see the table below.')
    expect(render({ history: history(1) })).toContain('Only this release was read.')
    expect(render({ history: null })).toContain('Only this release was read.')
  })

  test('each category links to the index filtered to it, escaped, with the credit; none: no line', () => {
    const html = render({ categories: ['Media Streaming - Video Streaming', 'A & <B>'] })
    expect(html).toContain(
      '<dt>Categories</dt><dd><span class="cats"><a href="../../?category=Media%20Streaming%20-%20Video%20Streaming">Media Streaming - Video Streaming</a>, <a href="../../?category=A%20%26%20%3CB%3E">A &amp; &lt;B&gt;</a></span>'
    )
    expect(html).toContain(
      'Categories: <a href="https://github.com/awesome-selfhosted/awesome-selfhosted-data" rel="noopener noreferrer">awesome-selfhosted</a> (CC-BY-SA 3.0).'
    )
    expect(render({})).not.toContain('<dt>Categories</dt>')
    expect(render({})).not.toContain('awesome-selfhosted')
  })
})
