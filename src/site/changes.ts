// Atom feeds of version and class changes. Feeds need history that a single
// snapshot does not hold, so the entries are published as a public JSON
// document (api/v1/changes.json) and read back from the previous snapshot on
// the next run: the published tree is the only state there is.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { recordFeedEntry, renderAtomFeed, type FeedEntry } from './atom.js'
import { CLASS_INFO } from './html/classes.js'
import { cleanText } from './html/text.js'
import { toJson } from '../util/json.js'
import {
  CLASSES,
  compareSlugs,
  SERVICE,
  SLUG_PATTERN,
  TIMESTAMP_PATTERN,
  type AppRecord,
  type Classification
} from '../schema/index.js'
import type { Logger } from '../util/types.js'
import { appUrls, paths } from './paths.js'

export const CHANGES_SCHEMA_ID = `${SERVICE}.changes.v1` as const

export const feedPaths = {
  changes: 'api/v1/changes.json',
  all: 'feed.xml',
  byClass: (c: Classification) => `feeds/${c}.xml`,
  app: (slug: string) => `apps/${slug}/feed.xml`
}

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
    .describe('Atom id of the entry: the page URL plus version and class; never changes'),
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

export const changesDocSchema = z.strictObject({
  schema: z.literal(CHANGES_SCHEMA_ID),
  docs: z.string(),
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

export interface FeedFilesInput {
  /** The records of this snapshot. */
  records: readonly AppRecord[]
  /** What changed since the previous snapshot (the pipeline's diffRecords). */
  changes: readonly VersionClassChange[]
  /** Entries read from the previous snapshot (readPreviousChanges). */
  previous: readonly Change[]
  generatedAt: string
  baseUrl: string
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
  baseUrl: string
): Change {
  // The id and link come from the address derived from the slug, whatever the record says.
  const record = { ...given, url: appUrls(baseUrl, given.slug).url }
  const entry = recordFeedEntry(record, generatedAt)
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
export function mergeChanges(input: FeedFilesInput): Change[] {
  const bySlug = new Map(input.records.map((r) => [r.slug, r]))
  const fresh: Change[] = []
  for (const c of input.changes) {
    const record = c.after ? bySlug.get(c.slug) : undefined
    // A removed app gets no entry; a new app (before null) does.
    if (!c.after || !record) continue
    if (c.before && c.before.latestVersion === c.after.latestVersion && c.before.safeToUpdate === c.after.safeToUpdate)
      continue
    fresh.push(newChange(record, c.before, input.generatedAt, input.baseUrl))
  }
  // A state seen before (e.g. a class that flips back) replaces its older entry: ids stay unique in every feed.
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

function entryOf(c: Change): FeedEntry {
  return { id: c.id, title: c.title, link: c.url, updated: c.at, summary: c.summary }
}

function feed(
  selfPath: string,
  alternate: string,
  title: string,
  entries: Change[],
  generatedAt: string,
  baseUrl: string
): string {
  const shown = entries.slice(0, FEED_ENTRIES)
  return renderAtomFeed({
    id: `${baseUrl}/${selfPath}`,
    title,
    selfLink: `${baseUrl}/${selfPath}`,
    alternateLink: alternate,
    // The newest entry, not the build time: a feed whose entries did not change keeps its bytes.
    updated: shown[0]?.at ?? generatedAt,
    entries: shown.map(entryOf)
  })
}

/** Documentation inside the document, like the catalog's `docs`. */
function docsText(baseUrl: string): string {
  return (
    `updatesafe recent changes (schema ${CHANGES_SCHEMA_ID}). Each element records that an app reached a new latestVersion or safeToUpdate ` +
    `(or was first published) in the snapshot generated at "at"; newest first; the newest ${RECENT_CHANGES} changes plus the newest of every tracked app are kept. ` +
    `Atom feeds of the same entries (newest ${FEED_ENTRIES} each): ${baseUrl}/${feedPaths.all}, ${baseUrl}/feeds/{class}.xml, ${baseUrl}/apps/{slug}/feed.xml. ` +
    `Current state: ${baseUrl}/${paths.catalog}.`
  )
}

export function renderChangesDoc(changes: Change[], baseUrl: string): string {
  return toJson({ schema: CHANGES_SCHEMA_ID, docs: docsText(baseUrl), count: changes.length, changes })
}

/**
 * Every feed file and the changes document, as a map from site path to content:
 * feed.xml, feeds/<class>.xml for every class, apps/<slug>/feed.xml for every
 * record, api/v1/changes.json. Pure: the same input gives the same bytes.
 */
export function feedFiles(input: FeedFilesInput): Map<string, string> {
  return new Map(feedFileEntries(input))
}

/** feedFiles one file at a time, so a large site never holds every feed at once. */
export function* feedFileEntries(input: FeedFilesInput): Generator<[string, string]> {
  const { baseUrl, generatedAt } = input
  const changes = mergeChanges(input)
  yield [feedPaths.changes, renderChangesDoc(changes, baseUrl)]
  yield [
    feedPaths.all,
    feed(feedPaths.all, `${baseUrl}/`, 'updatesafe: every change of version or class', changes, generatedAt, baseUrl)
  ]
  for (const c of CLASSES) {
    const title = `updatesafe: apps that became ${CLASS_INFO[c].label.toLowerCase()}`
    yield [
      feedPaths.byClass(c),
      feed(
        feedPaths.byClass(c),
        `${baseUrl}/`,
        title,
        changes.filter((e) => e.safeToUpdate === c),
        generatedAt,
        baseUrl
      )
    ]
  }
  const bySlug = new Map<string, Change[]>()
  for (const e of changes) {
    const list = bySlug.get(e.slug)
    if (list) list.push(e)
    else bySlug.set(e.slug, [e])
  }
  for (const r of input.records) {
    const title = `updatesafe: changes to ${cleanText(r.name, 100) || r.slug}`
    yield [
      feedPaths.app(r.slug),
      feed(feedPaths.app(r.slug), appUrls(baseUrl, r.slug).url, title, bySlug.get(r.slug) ?? [], generatedAt, baseUrl)
    ]
  }
}

/**
 * The entries published by the previous snapshot, `<dir>/api/v1/changes.json`.
 * Missing or invalid is a warning and the history starts empty (no warning on a
 * first publication, where there is no previous catalog either).
 */
export async function readPreviousChanges(dir: string | undefined, log: Logger): Promise<Change[]> {
  if (!dir) return []
  const file = path.join(dir, ...feedPaths.changes.split('/'))
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    const firstPublication = await readFile(path.join(dir, ...paths.catalog.split('/'))).then(
      () => false,
      () => true
    )
    if (firstPublication) log.info(`no previous ${feedPaths.changes}; the feeds start empty`)
    else log.warning(`the previous snapshot has no ${feedPaths.changes}; the feeds start empty`)
    return []
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    log.warning(`previous ${file} is not JSON; the feeds start empty`)
    return []
  }
  const parsed = changesDocSchema.safeParse(raw)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    log.warning(
      `previous ${file} does not match ${CHANGES_SCHEMA_ID} (${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'}); the feeds start empty`
    )
    return []
  }
  return parsed.data.changes
}
