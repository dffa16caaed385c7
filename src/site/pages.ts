// Every human-facing file of the site, as a map from POSIX path to content.
// Pure: the same pages and context give byte-identical output.
import { toJson } from '../util/json.js'
import { CLASSES, compareSlugs, SLUG_PATTERN, type ReleasesDoc } from '../schema/index.js'
import { ASSETS } from './assets.js'
import { renderBadge } from './badge.js'
import { renderAppPage, type PageInput } from './html/app-page.js'
import { renderIndex } from './html/index-page.js'
import { basePathOf, renderNotFound } from './html/not-found.js'
import type { OfflineData } from './html/text.js'
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
  /** The site was built from offline data: every page says so. */
  offline?: OfflineData | null
}

/** What one app's files show beyond its page input. */
export interface AppContext {
  /** Link the app's Atom feed. */
  feeds?: boolean
  /** Since when its facts have been stale (ISO timestamp), null when they are not. */
  staleSince: string | null
  /** The app's releases document, when the caller publishes one: the page's upgrade table is rendered from it. */
  history: ReleasesDoc | null
  /** Built from offline data: the page says so. */
  offline?: OfflineData | null
}

/** Paths are built only from the slug, so it must be exactly a slug; the class picks the page's words. */
function assertRenderable(p: PageInput): void {
  const slug = p.record.slug
  if (typeof slug !== 'string' || !SLUG_PATTERN.test(slug))
    throw new Error(`render: invalid slug ${JSON.stringify(String(slug).slice(0, 80))}`)
  if (!(CLASSES as readonly string[]).includes(p.record.safeToUpdate)) throw new Error(`render: ${slug}: unknown class`)
}

/** The files every site has once: assets, the index of all apps and the 404 page. */
export function* sharedPageFiles(pages: readonly PageInput[], ctx: SiteContext): Generator<[string, string]> {
  const seen = new Set<string>()
  for (const p of pages) {
    assertRenderable(p)
    if (seen.has(p.record.slug)) throw new Error(`render: duplicate slug "${p.record.slug}"`)
    seen.add(p.record.slug)
  }
  const sorted = [...pages].sort((a, b) => compareSlugs(a.record.slug, b.record.slug))
  const first = sorted[0]?.record
  const basePath = ctx.baseUrl !== undefined ? basePathOf(ctx.baseUrl) : basePathOf(first?.url, first?.slug)

  for (const [path, body] of ASSETS) yield [path, body]
  const stale = new Set(sorted.filter((p) => p.stale).map((p) => p.record.slug))
  yield [
    paths.index,
    renderIndex({
      records: sorted.map((p) => ({ record: p.record, releaseDate: p.releaseDate, categories: p.categories })),
      generatedAt: ctx.generatedAt,
      runAt: ctx.runAt ?? ctx.generatedAt,
      feeds: ctx.feeds,
      stale,
      offline: ctx.offline ?? null
    })
  ]
  yield [paths.notFound, renderNotFound({ basePath, generatedAt: ctx.generatedAt })]
}

/**
 * One app's page, badge and shields endpoint. They depend on nothing but the app, so a build renders them as
 * soon as the app's record and releases document are made, and never reads the document back.
 */
export function* appPageFiles(p: PageInput, ctx: AppContext): Generator<[string, string]> {
  assertRenderable(p)
  const slug = p.record.slug
  const page = { ...p, feeds: ctx.feeds, staleSince: ctx.staleSince, history: ctx.history, offline: ctx.offline ?? null }
  yield [paths.page(slug), renderAppPage(page)]
  yield [paths.badge(slug), renderBadge(p.record)]
  yield [paths.shields(slug), toJson(shieldsEndpoint(p.record))]
}

/** Every human-facing file of these pages (no releases documents), keyed by path. */
export function renderPages(pages: PageInput[], ctx: SiteContext): Map<string, string> {
  const files = new Map(sharedPageFiles(pages, ctx))
  for (const p of pages) {
    const app = {
      feeds: ctx.feeds,
      staleSince: ctx.staleSince?.get(p.record.slug) ?? null,
      history: null,
      offline: ctx.offline ?? null
    }
    for (const [path, body] of appPageFiles(p, app)) files.set(path, body)
  }
  return files
}
