// Every published address is derived from the base URL and the slug in one place,
// so records, pages and checks can never disagree about them.
import path from 'node:path'
import type { Classification } from '../schema/index.js'

/** Normalise a base URL: absolute http(s), no query or fragment, no trailing slash. */
export function normaliseBaseUrl(raw: string): string {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new Error(`base URL "${raw}" is not an absolute URL`)
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`base URL "${raw}" must use http or https`)
  if (u.search || u.hash) throw new Error(`base URL "${raw}" must not carry a query or fragment`)
  return u.href.replace(/\/+$/, '')
}

/** Every file the site publishes, as a POSIX path under the site root. Nothing else writes one by hand. */
export const paths = {
  catalog: 'api/v1/apps.json',
  app: (slug: string) => `api/v1/apps/${slug}.json`,
  /** The releases judged for one app (beside the spec's per-app document, never in it). */
  releases: (slug: string) => `api/v1/apps/${slug}/releases.json`,
  shields: (slug: string) => `api/v1/badge/${slug}.json`,
  changes: 'api/v1/changes.json',
  status: 'api/v1/status.json',
  /** Container image names → app slugs, for `updatesafe check --compose`. */
  images: 'api/v1/images.json',
  /** Categories → app slugs (beside the spec's documents, never in its records). */
  categories: 'api/v1/categories.json',
  appsSchema: 'api/v1/schema/apps.v1.json',
  appSchema: 'api/v1/schema/app.v1.json',
  changesSchema: 'api/v1/schema/changes.v1.json',
  statusSchema: 'api/v1/schema/status.v1.json',
  releasesSchema: 'api/v1/schema/releases.v1.json',
  imagesSchema: 'api/v1/schema/images.v1.json',
  categoriesSchema: 'api/v1/schema/categories.v1.json',
  badge: (slug: string) => `badge/${slug}.svg`,
  /** The directory of an app's page: its address ends here. */
  pageDir: (slug: string) => `apps/${slug}/`,
  page: (slug: string) => `apps/${slug}/index.html`,
  index: 'index.html',
  notFound: '404.html',
  feed: 'feed.xml',
  classFeed: (c: Classification) => `feeds/${c}.xml`,
  appFeed: (slug: string) => `apps/${slug}/feed.xml`,
  asset: (name: 'site.css' | 'site.js' | 'icon.svg') => `assets/${name}`,
  /** What each app was built from, for the next build (pipeline/reuse.ts); not part of the API. */
  reuse: '.updatesafe/reuse.json'
}

/** A path with `{slug}` (or `{class}`) in place of the value, for documentation. */
export const SLUG_PLACEHOLDER = '{slug}'

/** Reads the slug back out of paths `pathOf` makes: (file) => the slug, or null when `file` is not such a path. */
function slugReader(pathOf: (slug: string) => string): (file: string) => string | null {
  // Split once: the checker asks this of every file it is given.
  const [head, tail] = pathOf(SLUG_PLACEHOLDER).split(SLUG_PLACEHOLDER) as [string, string]
  return (file) => {
    if (!file.startsWith(head) || !file.endsWith(tail)) return null
    const slug = file.slice(head.length, file.length - tail.length)
    return slug !== '' && !slug.includes('/') ? slug : null
  }
}

/** The slug of a per-app JSON document's path, or null when `file` is not one. */
export const appDocSlug = slugReader(paths.app)

/** The slug of a releases document's path, or null when `file` is not one. */
export const releasesDocSlug = slugReader(paths.releases)

/** The absolute address of a site path (a directory path keeps its trailing slash). */
export function siteUrl(baseUrl: string, sitePath: string): string {
  return `${baseUrl}/${sitePath}`
}

/** The relative link from the page at site path `from` to the site root ('' at the root, '../../' two levels down). */
export function rootLink(from: string): string {
  const up = path.posix.dirname(from).split('/').filter((s) => s !== '.').length
  return '../'.repeat(up)
}

/** A relative link from the page at site path `from` to site path `to`. */
export function relativeLink(from: string, to: string): string {
  const rel = path.posix.relative(path.posix.dirname(from), to)
  const link = to.endsWith('/') && rel !== '' ? `${rel}/` : rel
  return link === '' ? './' : link
}

export function appUrls(baseUrl: string, slug: string): { url: string; badge: string } {
  return { url: siteUrl(baseUrl, paths.pageDir(slug)), badge: siteUrl(baseUrl, paths.badge(slug)) }
}

/** The addresses of the Atom feeds, for documentation. */
export function feedUrls(baseUrl: string): string {
  return [paths.feed, paths.classFeed('{class}' as Classification), paths.appFeed(SLUG_PLACEHOLDER)]
    .map((p) => siteUrl(baseUrl, p))
    .join(', ')
}
