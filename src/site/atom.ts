// Atom 1.0 (RFC 4287) feeds of the change history (./changes.ts): which feeds
// exist and what each shows, rendered well-formed and inert.
import { CLASSES, type AppRecord } from '../schema/index.js'
import { FEED_ENTRIES, type Change, type ChangeEntry } from './changes.js'
import { appUrls, paths, siteUrl } from './paths.js'
import { CLASS_INFO } from './html/classes.js'
import { safeHttpUrl } from '../util/http-url.js'
import { cleanText, escapeMarkup } from './html/text.js'

/** One entry: the change history's own shape (see ./changes.ts). */
export type FeedEntry = ChangeEntry

export interface Feed {
  id: string
  title: string
  selfLink: string
  alternateLink: string
  updated: string
  entries: FeedEntry[]
}

export const FEED_TITLE_MAX = 200
export const FEED_SUMMARY_MAX = 1000

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/

function timestamp(s: string, where: string): string {
  if (!RFC3339.test(s) || Number.isNaN(Date.parse(s)))
    throw new Error(`${where}: updated must be an RFC 3339 timestamp, got ${JSON.stringify(cleanText(s, 40))}`)
  return s
}

function httpLink(s: string, where: string): string {
  const u = safeHttpUrl(s)
  if (u === null) throw new Error(`${where}: link must be an absolute http(s) URL`)
  return escapeMarkup(u)
}

/** An id is an IRI: no whitespace or markup characters; anything else is a caller bug. */
function iri(s: string, where: string): string {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/.test(s) || s.length > 2048)
    throw new Error(`${where}: id must be an IRI`)
  return escapeMarkup(s)
}

export function renderAtomFeed(feed: Feed): string {
  const entries = feed.entries
    .map((e, i) => {
      const where = `feed entry ${i}`
      return `<entry>
<id>${iri(e.id, where)}</id>
<title type="text">${escapeMarkup(cleanText(e.title, FEED_TITLE_MAX)) || 'Untitled'}</title>
<link rel="alternate" type="text/html" href="${httpLink(e.link, where)}"/>
<updated>${timestamp(e.updated, where)}</updated>
<summary type="text">${escapeMarkup(cleanText(e.summary, FEED_SUMMARY_MAX, { multiline: true }))}</summary>
</entry>
`
    })
    .join('')
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${iri(feed.id, 'feed')}</id>
<title type="text">${escapeMarkup(cleanText(feed.title, FEED_TITLE_MAX)) || 'updatesafe'}</title>
<link rel="self" type="application/atom+xml" href="${httpLink(feed.selfLink, 'feed self')}"/>
<link rel="alternate" type="text/html" href="${httpLink(feed.alternateLink, 'feed alternate')}"/>
<updated>${timestamp(feed.updated, 'feed')}</updated>
<author><name>updatesafe</name></author>
<generator>updatesafe</generator>
${entries}</feed>
`
}

function entryOf(c: Change): FeedEntry {
  return { id: c.id, title: c.title, link: c.url, updated: c.at, summary: c.summary }
}

function feedDoc(
  selfPath: string,
  alternate: string,
  title: string,
  entries: readonly Change[],
  generatedAt: string,
  baseUrl: string,
  idPrefix: string
): string {
  const shown = entries.slice(0, FEED_ENTRIES)
  return renderAtomFeed({
    // Not the address: the id outlives a move of the site (see mintIdPrefix).
    id: `${idPrefix}${selfPath}`,
    title,
    selfLink: siteUrl(baseUrl, selfPath),
    alternateLink: alternate,
    // The newest entry, not the build time: a feed whose entries did not change keeps its bytes.
    updated: shown[0]?.at ?? generatedAt,
    entries: shown.map(entryOf)
  })
}

/**
 * Every Atom feed of the change history `changes` (newest first, see ./changes.ts):
 * feed.xml, feeds/<class>.xml for every class and apps/<slug>/feed.xml for every
 * record, one file at a time. Pure: the same input gives the same bytes.
 */
export function* atomFiles(
  changes: readonly Change[],
  records: readonly AppRecord[],
  generatedAt: string,
  baseUrl: string,
  idPrefix: string,
  /** Apps whose feed the caller carries over from the previous snapshot: not rendered. */
  carried: ReadonlySet<string> = new Set()
): Generator<[string, string]> {
  const all = 'updatesafe: every change of version or class'
  yield [paths.feed, feedDoc(paths.feed, `${baseUrl}/`, all, changes, generatedAt, baseUrl, idPrefix)]
  for (const c of CLASSES) {
    const title = `updatesafe: apps that became ${CLASS_INFO[c].label.toLowerCase()}`
    const file = paths.classFeed(c)
    const entries = changes.filter((e) => e.safeToUpdate === c)
    yield [file, feedDoc(file, `${baseUrl}/`, title, entries, generatedAt, baseUrl, idPrefix)]
  }
  const bySlug = new Map<string, Change[]>()
  for (const e of changes) {
    const list = bySlug.get(e.slug)
    if (list) list.push(e)
    else bySlug.set(e.slug, [e])
  }
  for (const r of records) {
    if (carried.has(r.slug)) continue
    const title = `updatesafe: changes to ${cleanText(r.name, 100) || r.slug}`
    const file = paths.appFeed(r.slug)
    const entries = bySlug.get(r.slug) ?? []
    yield [file, feedDoc(file, appUrls(baseUrl, r.slug).url, title, entries, generatedAt, baseUrl, idPrefix)]
  }
}
