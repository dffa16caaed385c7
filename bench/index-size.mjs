// Prints the size of index.html for N apps (default 1,000), raw and gzipped, and of categories.json.
// Budget: ≤ 100 KB gzipped at 1,000 apps. Run: node --import tsx bench/index-size.mjs [N] [--entropy]
// The apps look like issue 57's catalog: 84 categories of about 26 characters (awesome-selfhosted's tags count 84,
// averaging 26 characters), one to three per app, and a share of records not read yet (--unread=0.85 by default):
// unknown, with no release day.
import { gzipSync } from 'node:zlib'
import { renderPages } from '../src/site/pages.ts'
import { CLASSES } from '../src/schema/index.ts'
import { categoriesDoc } from '../src/site/api.ts'
import { toJson } from '../src/util/json.ts'

const N = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1000)
// "--entropy": random letters in names and repos, a pessimistic case for gzip.
const ENTROPY = process.argv.includes('--entropy')
const UNREAD = Number(process.argv.find((a) => a.startsWith('--unread='))?.slice(9) ?? 0.85)
const BUDGET = 100 * 1024
const base = 'https://example-owner.github.io/updatesafe'
const words = [
  'cloud',
  'photo',
  'mail',
  'git',
  'home',
  'media',
  'vault',
  'feed',
  'note',
  'board',
  'link',
  'track',
  'chat',
  'wiki',
  'dash',
  'proxy',
  'backup',
  'budget',
  'recipe',
  'book'
]
const owners = ['acme-labs', 'selfhosted', 'opensource-collective', 'homelab-tools', 'linuxserver', 'the-foundation']

// A deterministic pseudo-random stream, so every run measures the same page.
let seed = 42
const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)

// 84 made-up category names of 26 characters on average, in awesome-selfhosted's "Topic - Subtopic" shape.
const categories = Array.from({ length: 84 }, (_, i) => {
  const w = (k) => `${words[(i * 7 + k) % words.length][0].toUpperCase()}${words[(i * 7 + k) % words.length].slice(1)}`
  return i % 3 === 0 ? `${w(0)} ${w(1)} - ${w(2)} ${w(3)}` : `${w(0)} and ${w(1)} ${w(2)}`
})

const pages = []
for (let i = 0; i < N; i++) {
  const a = words[rnd(words.length)]
  const b = words[rnd(words.length)]
  const token = ENTROPY
    ? // The stream repeats: the index in base 36 keeps slugs unique.
      Array.from({ length: 8 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[rnd(36)]).join('') + i.toString(36)
    : String(i)
  const slug = `${a}-${b}-${token}`
  const name = `${a[0].toUpperCase()}${a.slice(1)}${b} ${token}`
  const major = rnd(30)
  const version =
    rnd(4) === 0 ? `${2020 + rnd(6)}.${1 + rnd(12)}.${rnd(30)}` : `${rnd(2) ? 'v' : ''}${major}.${rnd(40)}.${rnd(20)}`
  const unread = rnd(1000) < UNREAD * 1000
  const c = unread ? 'unknown' : CLASSES[rnd(CLASSES.length)]
  const cats = Array.from({ length: 1 + rnd(3) }, () => categories[rnd(categories.length)])
  pages.push({
    record: {
      slug,
      name,
      repo: `${owners[rnd(owners.length)]}/${slug}`,
      latestVersion: version,
      safeToUpdate: c,
      rationale: unread
        ? `Release ${version}: its release notes are not read yet.`
        : `Release ${version} has an "Upgrade notes" section: "Run the database migration before starting the new version."`,
      changelogSummary: 'Features: new dashboard; Bug fixes: several crashes fixed.',
      sourceUrl: `https://github.com/${owners[0]}/${slug}/releases/tag/${version}`,
      lastChecked: `2026-11-${String(1 + rnd(21)).padStart(2, '0')}`,
      successor: c === 'unmaintained' ? `${owners[1]}/${slug}-ng` : null,
      url: `${base}/apps/${slug}/`,
      badge: `${base}/badge/${slug}.svg`,
      lifecycle: null
    },
    releaseDate: unread ? null : `2026-${String(1 + rnd(11)).padStart(2, '0')}-${String(1 + rnd(28)).padStart(2, '0')}`,
    categories: cats,
    releasesConsidered: [version],
    rule: null,
    decidedBy: null,
    stale: false
  })
}

const site = renderPages(pages, { generatedAt: '2026-11-21T03:00:00.000Z', now: new Date('2026-11-21T03:00:00.000Z') })
const html = site.get('index.html')
const raw = Buffer.byteLength(html)
const gz = gzipSync(html, { level: 9 }).length
const gz6 = gzipSync(html).length
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(
  `apps: ${N}${ENTROPY ? ' (high-entropy names)' : ''}, ${Math.round(UNREAD * 100)}% not read yet, ${categories.length} categories`
)
console.log(`index.html raw: ${raw} bytes = ${kb(raw)} (${(raw / N).toFixed(0)} bytes per app)`)
console.log(`index.html gzip (default level 6): ${gz6} bytes = ${kb(gz6)}`)
console.log(
  `index.html gzip -9: ${kb(gz)}  budget ${kb(BUDGET)} at 1,000 apps: ${N === 1000 ? (gz6 <= BUDGET ? 'OK' : 'OVER') : 'n/a'}`
)
const css = site.get('assets/site.css')
const js = site.get('assets/site.js')
console.log(
  `site.css: ${kb(Buffer.byteLength(css))} raw, ${kb(gzipSync(css, { level: 9 }).length)} gzip; site.js: ${kb(Buffer.byteLength(js))} raw, ${kb(gzipSync(js, { level: 9 }).length)} gzip`
)
const cats = toJson(
  categoriesDoc(
    pages.map((p) => ({ slug: p.record.slug, categories: p.categories })),
    '2026-11-21T03:00:00.000Z'
  )
)
console.log(`categories.json: ${Buffer.byteLength(cats)} bytes raw, ${gzipSync(cats).length} bytes gzip (level 6)`)
if (N === 1000 && gz6 > BUDGET) process.exitCode = 1
