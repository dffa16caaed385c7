// Text that reaches a reader comes from strangers (release notes, names, tags).
// Everything shown goes through cleanText (bounded, no control or bidi-override
// characters) and then through escapeMarkup for the context it lands in.
import { NOT_READ_VERSION } from '../../schema/index.js'

/**
 * C0/C1 controls (except tab and newline, handled below), the bidi embedding,
 * override and isolate controls, the directional marks, and the two XML
 * non-characters. Removing them keeps HTML readable and keeps XML well-formed.
 */
const UNSAFE_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/g
/** A surrogate half without its partner is not a character: XML rejects it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
/** Every character UNSAFE_CHARS or LONE_SURROGATE can match (any surrogate, paired or not). */
const MAYBE_UNSAFE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF\uD800-\uDFFF]/

/** Whitespace that folding to single spaces would change. */
const FOLDABLE = /[^\S ]| {2}/

/**
 * A record's latestVersion as a reader sees it: the catalog's word for a release no build has read yet
 * (NOT_READ_VERSION) is no version, so it is shown as words, never as one.
 */
export function shownVersion(latestVersion: string, max: number): string {
  return latestVersion === NOT_READ_VERSION ? 'not read yet' : cleanText(latestVersion, max)
}

export interface CleanOptions {
  /** Keep line breaks (collapsed to at most one blank line); otherwise fold all whitespace to single spaces. */
  multiline?: boolean
}

/**
 * Neutralise and bound text for display. `max` counts code points; longer text
 * ends with an ellipsis. Only a bounded prefix of the input is ever read, so a
 * 10 MB string costs no more than a short one.
 */
export function cleanText(input: unknown, max: number, opts: CleanOptions = {}): string {
  if (typeof input !== 'string' || max <= 0) return ''
  // Read a little more than we can show: cleaning may remove characters.
  const head = input.length > max * 4 + 16 ? input.slice(0, max * 4 + 16) : input
  const overLong = head.length < input.length
  let s = head.includes('\r') ? head.replace(/\r\n?/g, '\n') : head
  // Most text has no character either pattern could match; testing first skips two copies.
  if (MAYBE_UNSAFE.test(s)) s = s.replace(UNSAFE_CHARS, '').replace(LONE_SURROGATE, '\uFFFD')
  if (opts.multiline) {
    s = s
      .replace(/[ \t\u00A0]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/[ \t]+/g, ' ')
      .trim()
  } else {
    // Only a double space or other whitespace can change; most text has neither.
    s = (FOLDABLE.test(s) ? s.replace(/\s+/g, ' ') : s).trim()
  }
  // Code points never outnumber UTF-16 units: only a longer string needs counting.
  const points = s.length > max ? Array.from(s) : []
  if (points.length > max)
    return (
      points
        .slice(0, max - 1)
        .join('')
        .trimEnd() + '…'
    )
  return overLong ? s + '…' : s
}

const MARKUP_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;'
}

/** Escape for HTML text and quoted attribute values, and equally for XML (SVG, Atom). */
export function escapeMarkup(s: string): string {
  return s.replace(/[&<>"']/g, (c) => MARKUP_ESCAPES[c] ?? c)
}

/** cleanText then escapeMarkup: the usual path for a record field into a page. */
export function text(input: unknown, max: number, opts?: CleanOptions): string {
  return escapeMarkup(cleanText(input, max, opts))
}

/** "2026-11-21T03:00:00.000Z" → "2026-11-21 03:00 UTC"; anything else is shown cleaned. */
export function formatTimestamp(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso)
  return m ? `${m[1]} ${m[2]} UTC` : cleanText(iso, 40)
}

/** What an offline build's data is (no upstream read): said on every page, with the day it is as of. */
export interface OfflineData {
  /** Where the facts came from, in words for a reader ("the catalog's last known facts"). */
  source: string
  /**
   * What each app page says instead, where it differs: a page names no file, so a daily build from a file of another
   * name (one per day, say) leaves unchanged pages unchanged. The index names the file.
   */
  pageSource?: string
  /** The day (YYYY-MM-DD) the facts are as of; null: each app page says its own last check. */
  asOf: string | null
  /** The apps and their notes are made up (the demo `npm start` builds): every page says so first. */
  demo?: boolean
}

/** The banner of a demo build: made-up apps, and where the real ones come from. */
export function demoNotice(): string {
  return `<p class="notice" role="note" id="demo"><strong>Demo: these apps are made up.</strong> No such projects exist, and their release notes were written to show each class, a history and an upgrade path; their links lead nowhere. To see real apps, build a catalog with release notes from GitHub (<code>GITHUB_TOKEN=… npm start</code>) or from the data set (<code>--notes-from</code>).</p>\n`
}

/** The banner of a page built from offline data. */
export function offlineNotice(o: OfflineData, asOf: string | null, what: string): string {
  if (o.demo) return demoNotice()
  const day = isDate(asOf) ? `, as of ${asOf}` : ''
  return `<p class="notice" role="note" id="offline"><strong>Offline data${day}.</strong> ${what} was built from ${text(o.source, 200)} without reading upstream: newer releases may exist.</p>\n`
}

/** A date string is shown only when it is really YYYY-MM-DD. */
export function isDate(s: unknown): s is string {
  return typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`))
}

