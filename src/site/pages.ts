// Every human-facing file of the site, as a map from POSIX path to content.
// Pure: the same pages and context give byte-identical output.
import { toJson } from '../util/json.js'
import { CLASSES, compareSlugs, SLUG_PATTERN, type ReleasesDoc } from '../schema/index.js'
import { ASSETS } from './assets.js'
import { renderBadge } from './badge.js'
import { renderAppPage, type PageInput } from './html/app-page.js'
import { renderIndex } from './html/index-page.js'
import { basePathOf, renderNotFound } from './html/not-found.js'
import { paths } from './paths.js'
import { shieldsEndpoint } from './shields.js'

export type { PageInput }

export interface SiteContext {
  /** ISO 8601 with milliseconds and Z. */
  generatedAt: string
  /** The site's base URL; 404.html links through its path. Default: derived from the records' `url`, else "/". */
  baseUrl?: string
  /** Link the Atom feeds (feed.xml, apps/<slug>/feed.xml) that the caller writes. Default false. */
  feeds?: boolean
  /** When this run happened, shown on the index only (default: generatedAt), so a quiet run rewrites one page. */
  runAt?: string
  /** Slug → since when its facts have been stale (ISO timestamp). */
  staleSince?: ReadonlyMap<string, string>
  /** Each app's releases document, when the caller publishes one: the page's upgrade table is rendered from it. */
  releases?: (slug: string) => ReleasesDoc | null
  /** Apps whose page, badge and shields endpoint the caller carries over from the previous snapshot: not rendered. */
  carried?: ReadonlySet<string>
}

function assertRenderable(p: PageInput, seen: Set<string>): void {
  const slug = p.record.slug
  // Paths are built only from the slug, so it must be exactly a slug.
  if (typeof slug !== 'string' || !SLUG_PATTERN.test(slug))
    throw new Error(`render: invalid slug ${JSON.stringify(String(slug).slice(0, 80))}`)
  if (seen.has(slug)) throw new Error(`render: duplicate slug "${slug}"`)
  if (!(CLASSES as readonly string[]).includes(p.record.safeToUpdate)) throw new Error(`render: ${slug}: unknown class`)
  seen.add(slug)
}

/**
 * Every human-facing file, produced one at a time so a large site never has to
 * sit in memory whole: shared files first, then each app's page, badge and
 * shields endpoint.
 */
export function* pageFiles(pages: PageInput[], ctx: SiteContext): Generator<[string, string]> {
  const seen = new Set<string>()
  for (const p of pages) assertRenderable(p, seen)
  const sorted = [...pages].sort((a, b) => compareSlugs(a.record.slug, b.record.slug))
  const first = sorted[0]?.record
  const basePath = ctx.baseUrl !== undefined ? basePathOf(ctx.baseUrl) : basePathOf(first?.url, first?.slug)

  for (const [path, body] of ASSETS) yield [path, body]
  const stale = new Set(sorted.filter((p) => p.stale).map((p) => p.record.slug))
  yield [
    paths.index,
    renderIndex({
      records: sorted.map((p) => p.record),
      generatedAt: ctx.generatedAt,
      runAt: ctx.runAt ?? ctx.generatedAt,
      feeds: ctx.feeds,
      stale
    })
  ]
  yield [paths.notFound, renderNotFound({ basePath, generatedAt: ctx.generatedAt })]
  for (const p of sorted) {
    const slug = p.record.slug
    if (ctx.carried?.has(slug)) continue
    const history = ctx.releases?.(slug) ?? null
    yield [
      paths.page(slug),
      renderAppPage({
        ...p,
        feeds: ctx.feeds,
        staleSince: ctx.staleSince?.get(slug) ?? null,
        history
      })
    ]
    yield [paths.badge(slug), renderBadge(p.record)]
    yield [paths.shields(slug), toJson(shieldsEndpoint(p.record))]
  }
}

/** All of pageFiles at once, keyed by path. */
export function renderPages(pages: PageInput[], ctx: SiteContext): Map<string, string> {
  return new Map(pageFiles(pages, ctx))
}
