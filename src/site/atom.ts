// Atom 1.0 (RFC 4287) rendering. The caller decides which entries exist, their
// order and how many; this module only makes them well-formed and inert.
import { LIMITS, type AppRecord } from '../schema/index.js'
import { CLASS_INFO } from './html/classes.js'
import { cleanText, escapeMarkup, safeHttpUrl } from './html/text.js'

export interface FeedEntry {
  /** A stable IRI, unique per entry (e.g. the page URL plus version and class). */
  id: string
  title: string
  /** Absolute http(s) URL of the page the entry is about. */
  link: string
  /** RFC 3339 timestamp. */
  updated: string
  summary: string
}

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

/**
 * The entry for "this app now has this version and this class", built from the
 * published record. The id is the page URL plus version and class, so the same
 * state always yields the same id and a change yields a new one.
 */
function rationaleWithClass(label: string, rationale: string): string {
  return rationale.toLowerCase().startsWith(label.toLowerCase()) ? rationale : `${label}. ${rationale}`
}

export function recordFeedEntry(record: AppRecord, updated: string): FeedEntry {
  const info = CLASS_INFO[record.safeToUpdate]
  const name = cleanText(record.name, LIMITS.name)
  const version = cleanText(record.latestVersion, LIMITS.version)
  return {
    id: `${record.url}#${encodeURIComponent(version)}/${record.safeToUpdate}`,
    title: `${name} ${version}: ${info.label.toLowerCase()}`,
    link: record.url,
    updated,
    // The rationale usually opens with the class already ("Breaking (rule …)"); say it once.
    summary: rationaleWithClass(info.label, cleanText(record.rationale, LIMITS.rationale, { multiline: true }))
  }
}
