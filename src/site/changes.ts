// The change history: every time an app reached a new version or class. A single
// snapshot does not hold history, so the entries are published as a public JSON
// document (api/v1/changes.json) and read back from the previous snapshot on the
// next run: the published tree is the only state there is. ./atom.ts renders feeds of it.
import { z } from 'zod'
import { CLASS_INFO } from './html/classes.js'
import { cleanText } from './html/text.js'
import { splitJson, type SplitJson } from '../util/json.js'
import {
  CLASSES,
  compareSlugs,
  LIMITS,
  NOT_READ_VERSION,
  SERVICE,
  SLUG_PATTERN,
  TIMESTAMP_PATTERN,
  type AppRecord
} from '../schema/index.js'
import { appUrls, feedUrls, paths, siteUrl } from './paths.js'

export const CHANGES_SCHEMA_ID = `${SERVICE}.changes.v1` as const

/**
 * Bounds. changes.json keeps the newest RECENT_CHANGES entries, plus the newest
 * entry of every app still in the catalog (so a quiet app's own feed never
 * empties): at most RECENT_CHANGES + number of apps. Each feed shows its newest
 * FEED_ENTRIES.
 */
export const RECENT_CHANGES = 500
export const FEED_ENTRIES = 50

const versionSchema = z.string().min(1).max(128)
const classSchema = z.enum(CLASSES)

export const changeSchema = z.strictObject({
  // The same rules renderAtomFeed enforces, so whatever is read back renders.
  id: z
    .string()
    .max(2048)
    .regex(/^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/, 'must be an IRI')
    .describe(
      'Atom id of the entry: a tag URI naming app, version and class (and the run\'s time, for a state seen again; older entries: the page URL); never changes'
    ),
  at: z
    .string()
    .regex(TIMESTAMP_PATTERN)
    .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a real time')
    .describe('generatedAt of the snapshot that first published this state'),
  slug: z.string().regex(SLUG_PATTERN),
  name: z.string().min(1).max(200),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe('{base_url}/apps/<slug>/'),
  version: versionSchema.describe('latestVersion after the change'),
  safeToUpdate: classSchema.describe('safeToUpdate after the change'),
  previousVersion: versionSchema
    .nullable()
    .describe('latestVersion before, or null for an app published for the first time'),
  previousSafeToUpdate: classSchema.nullable(),
  title: z.string().min(1).max(400).describe('Plain-text entry title'),
  summary: z.string().max(2000).describe('Plain text: the class and the rationale at the time of the change')
})

/** `tag:<host>,<YYYY-MM-DD>:<path>/`: the start of every Atom id of a site (RFC 4151 tag URIs). */
export const ID_PREFIX_PATTERN = /^tag:[a-z0-9.-]+,\d{4}-\d{2}-\d{2}:\/(?:[^\s<>"{}|\\^`]*\/)?$/

export const changesDocSchema = z.strictObject({
  schema: z.literal(CHANGES_SCHEMA_ID),
  docs: z.string(),
  idPrefix: z
    .string()
    .max(512)
    .regex(ID_PREFIX_PATTERN)
    .optional()
    .describe(
      'Start of every Atom id of this site, minted on its first publication from its address then, and kept: ids stay the same when the site moves to another domain'
    ),
  count: z.number().int().min(0),
  changes: z.array(changeSchema)
})

export type Change = z.infer<typeof changeSchema>

/** Structurally the pipeline's RecordChange (kept local so this module does not import the pipeline). */
export interface VersionClassChange {
  slug: string
  before: Pick<AppRecord, 'latestVersion' | 'safeToUpdate'> | null
  after: Pick<AppRecord, 'latestVersion' | 'safeToUpdate'> | null
}

export interface ChangesInput {
  /** The records of this snapshot. */
  records: readonly AppRecord[]
  /** What changed since the previous snapshot (the pipeline's diffRecords). */
  changes: readonly VersionClassChange[]
  /** Entries read from the previous snapshot (readPreviousChanges). */
  previous: readonly Change[]
  generatedAt: string
  baseUrl: string
  /** Start of the Atom ids (see mintIdPrefix): the previous snapshot's, else a new one. */
  idPrefix: string
}

/**
 * A site's Atom ids are tag URIs minted once from where the site was first published and the day it was:
 * `tag:owner.github.io,2026-11-21:/repo/`. The prefix is then read back from changes.json, so a move to a
 * custom domain (or any other address) changes every link but no id, and feed readers see no duplicates.
 */
export function mintIdPrefix(baseUrl: string, at: string): string {
  const u = new URL(`${baseUrl}/`)
  return `tag:${u.hostname.toLowerCase()},${at.slice(0, 10)}:${u.pathname}`
}

/** Newest first; entries of one run in slug order, so the order never depends on input order. */
function newestFirst(a: Change, b: Change): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1
  return compareSlugs(a.slug, b.slug)
}

function newChange(
  given: AppRecord,
  before: VersionClassChange['before'],
  generatedAt: string,
  baseUrl: string,
  idPrefix: string
): Change {
  // The link comes from the address derived from the slug, whatever the record says.
  const record = { ...given, url: appUrls(baseUrl, given.slug).url }
  const entry = recordFeedEntry(record, generatedAt, idPrefix)
  const was = before
    ? ` Before: ${cleanText(before.latestVersion, 128)}, ${CLASS_INFO[before.safeToUpdate].label.toLowerCase()}.`
    : ' First published.'
  return {
    id: entry.id,
    at: generatedAt,
    slug: record.slug,
    name: cleanText(record.name, 200) || record.slug,
    url: record.url,
    version: record.latestVersion,
    safeToUpdate: record.safeToUpdate,
    previousVersion: before?.latestVersion ?? null,
    previousSafeToUpdate: before?.safeToUpdate ?? null,
    title: entry.title,
    // Bounded by the schema; the feed renderer bounds it again for display.
    summary: (entry.summary + was).slice(0, 2000)
  }
}

/** Fixed key order, so an unchanged list serialises to the same bytes it was read from. */
function canonical(c: Change, baseUrl: string): Change {
  return {
    id: c.id,
    at: c.at,
    slug: c.slug,
    name: c.name,
    // Links follow the site if it moves; ids stay as first published (Atom ids are permanent).
    url: appUrls(baseUrl, c.slug).url,
    version: c.version,
    safeToUpdate: c.safeToUpdate,
    previousVersion: c.previousVersion,
    previousSafeToUpdate: c.previousSafeToUpdate,
    title: c.title,
    summary: c.summary
  }
}

/** This run's entries merged into the previous ones, newest first, bounded (see RECENT_CHANGES). */
export function mergeChanges(input: ChangesInput): Change[] {
  const bySlug = new Map(input.records.map((r) => [r.slug, r]))
  const fresh: Change[] = []
  for (const c of input.changes) {
    const record = c.after ? bySlug.get(c.slug) : undefined
    // A removed app gets no entry; a new app (before null) does.
    if (!c.after || !record) continue
    if (c.before && c.before.latestVersion === c.after.latestVersion && c.before.safeToUpdate === c.after.safeToUpdate)
      continue
    fresh.push(newChange(record, c.before, input.generatedAt, input.baseUrl, input.idPrefix))
  }
  // A state seen before (a class that flips back) is news again: a feed reader that knows an id shows nothing new,
  // so its entry gets an id of its own, made unique by this run's time, and the older entry stays in the history.
  const previousIds = new Set(input.previous.map((c) => c.id))
  const stamp = input.generatedAt.slice(0, 19).replace(/[-:]/g, '')
  for (const c of fresh) if (previousIds.has(c.id)) c.id = `${c.id}/${stamp}`
  const freshIds = new Set(fresh.map((c) => c.id))
  const all = [...fresh, ...input.previous.filter((c) => !freshIds.has(c.id))].sort(newestFirst)
  const seen = new Set<string>()
  const slugsKept = new Set<string>()
  const keep: Change[] = []
  for (const c of all) {
    if (seen.has(c.id)) continue
    seen.add(c.id)
    const newestOfCurrentApp = bySlug.has(c.slug) && !slugsKept.has(c.slug)
    if (keep.length < RECENT_CHANGES || newestOfCurrentApp) {
      keep.push(c)
      slugsKept.add(c.slug)
    }
  }
  return keep.map((c) => canonical(c, input.baseUrl))
}

/** Documentation inside the document, like the catalog's `docs`. */
function docsText(baseUrl: string): string {
  return (
    `updatesafe recent changes (schema ${CHANGES_SCHEMA_ID}). Each element records that an app reached a new latestVersion or safeToUpdate ` +
    `(or was first published) in the snapshot generated at "at"; newest first; the newest ${RECENT_CHANGES} changes plus the newest of every tracked app are kept. ` +
    `Atom feeds of the same entries (newest ${FEED_ENTRIES} each): ${feedUrls(baseUrl)}. ` +
    `Current state: ${siteUrl(baseUrl, paths.catalog)}.`
  )
}

/** changes.json, split by entry (a 10,000-app site's first history is 6.7 MB: see util/json.ts). */
export function renderChangesDoc(changes: Change[], baseUrl: string, idPrefix: string): SplitJson {
  const doc = { schema: CHANGES_SCHEMA_ID, docs: docsText(baseUrl), idPrefix, count: changes.length, changes }
  return splitJson(doc, 'changes')
}


/** What a change entry says: its permanent id, title, link, time and summary (rendered into Atom by ./atom.ts). */
export interface ChangeEntry {
  id: string
  title: string
  link: string
  updated: string
  summary: string
}

function rationaleWithClass(label: string, rationale: string): string {
  return rationale.toLowerCase().startsWith(label.toLowerCase()) ? rationale : `${label}. ${rationale}`
}

/**
 * The entry for "this app now has this version and this class", built from the
 * published record. The id names the app, version and class under the site's
 * id prefix, so the same state always yields the same id and a change a new one.
 */
export function recordFeedEntry(record: AppRecord, updated: string, idPrefix: string): ChangeEntry {
  const info = CLASS_INFO[record.safeToUpdate]
  const name = cleanText(record.name, LIMITS.name)
  const version = cleanText(record.latestVersion, LIMITS.version)
  return {
    id: `${idPrefix}apps/${record.slug}/${encodeURIComponent(version)}/${record.safeToUpdate}`,
    title:
      record.latestVersion === NOT_READ_VERSION
        ? `${name}: ${info.label.toLowerCase()}, no release read yet`
        : `${name} ${version}: ${info.label.toLowerCase()}`,
    link: record.url,
    updated,
    // The rationale usually opens with the class already ("Breaking (rule …)"); say it once.
    summary: rationaleWithClass(info.label, cleanText(record.rationale, LIMITS.rationale, { multiline: true }))
  }
}
