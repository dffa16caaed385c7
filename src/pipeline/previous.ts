// The previously published snapshot (the Pages branch, checked out) is our
// last-known-good source: when upstream fails, its facts are republished as they
// were, and its change history goes on in the new snapshot.
import { lstatSync } from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import {
  APPS_SCHEMA_ID,
  catalogDocSchema,
  releasesDocSchema,
  RELEASES_SCHEMA_ID,
  STATUS_SCHEMA_ID,
  statusDocSchema,
  type AppRecord
} from '../schema/index.js'
import type { PreviousHistory } from './history.js'
import { REUSE_SCHEMA_ID, reuseDocSchema, type ReuseDoc } from './reuse.js'
import { CHANGES_SCHEMA_ID, changesDocSchema, type Change } from '../site/changes.js'
import type { Logger } from '../util/types.js'
import { paths } from '../site/paths.js'
import { isMissing, readRegularFile, refusalWords } from '../util/regular-file.js'

export interface PreviousSnapshot {
  generatedAt: string
  records: Map<string, AppRecord>
}

/** A document of the previous snapshot, or why there is none: missing, not JSON, or the schema's first complaint. */
type Read<T> = { data: T } | { missing: true } | { problem: string }

/** Largest site-wide document read back (the catalog of 10,000 apps is about 11 MB). */
const MAX_DOC_BYTES = 256 << 20

function readDoc<T>(dir: string, sitePath: string, schema: z.ZodType<T>, id: string): Read<T> {
  // Never blocks on a FIFO or reads a device: a regular file of bounded size, or a damaged document.
  const read = readRegularFile(path.join(dir, ...sitePath.split('/')), MAX_DOC_BYTES)
  if ('refused' in read) {
    // Missing is missing; a folder in its place, or a file that cannot be read, is a damaged document.
    if (isMissing(read)) return { missing: true }
    return { problem: refusalWords(read, MAX_DOC_BYTES) }
  }
  let raw: unknown
  try {
    raw = JSON.parse(read.bytes.toString('utf8'))
  } catch {
    return { problem: 'is not JSON' }
  }
  const parsed = schema.safeParse(raw)
  if (parsed.success) return { data: parsed.data }
  const first = parsed.error.issues[0]
  return { problem: `does not match ${id} (${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'})` }
}

/**
 * The previous snapshot's reuse record (pipeline/reuse.ts), when it was made by `program`; null otherwise (a first
 * build, another program, or a record that is not valid, which is said: then every app is built again).
 */
export async function readPreviousReuse(
  dir: string | undefined,
  program: string,
  log: Logger
): Promise<ReuseDoc | null> {
  if (!dir) return null
  const read = readDoc(dir, paths.reuse, reuseDocSchema, REUSE_SCHEMA_ID)
  if ('problem' in read)
    log.warning(
      `previous ${path.join(dir, ...paths.reuse.split('/'))} ${read.problem}, so it is not a valid reuse record; every app is built again`
    )
  return 'data' in read && read.data.program === program ? read.data : null
}

/** Read `<dir>/api/v1/apps.json`; a missing or invalid snapshot is a warning, not an error. */
export async function readPrevious(dir: string | undefined, log: Logger): Promise<PreviousSnapshot | null> {
  if (!dir) return null
  const file = path.join(dir, ...paths.catalog.split('/'))
  const read = readDoc(dir, paths.catalog, catalogDocSchema, APPS_SCHEMA_ID)
  if ('missing' in read) log.info(`no previous snapshot at ${file}; this is a first publication`)
  if ('problem' in read) log.warning(`previous snapshot ${file} ${read.problem}; ignoring it`)
  if (!('data' in read)) return null
  return { generatedAt: read.data.generatedAt, records: new Map(read.data.apps.map((a) => [a.slug, a])) }
}

export interface PreviousChanges {
  changes: Change[]
  /** The site's Atom id prefix, kept from its first publication; null before there was one. */
  idPrefix: string | null
  /**
   * Why the change history of a snapshot that published one could not be read (missing, unreadable, not the
   * schema): the feeds would start empty. Null when it was read, or when the snapshot never had one.
   */
  problem?: string | null
}

/**
 * Did the previous snapshot publish this document for every app (or at all)? Its JSON Schema beside it says so: a
 * snapshot made before the per-release history (or the change history) has no schema for it, and starting those
 * afresh loses nothing; one made after must hand them on.
 */
export function previousPublishes(dir: string | undefined, schemaPath: string): boolean {
  if (!dir) return false
  try {
    return lstatSync(path.join(dir, ...schemaPath.split('/'))).isFile()
  } catch {
    return false
  }
}

/**
 * The entries published by the previous snapshot, `<dir>/api/v1/changes.json`.
 * Missing or invalid is a warning and the history starts empty (no warning on a
 * first publication, where there is no previous catalog either).
 */
export async function readPreviousChanges(dir: string | undefined, log: Logger): Promise<PreviousChanges> {
  const none: PreviousChanges = { changes: [], idPrefix: null, problem: null }
  if (!dir) return none
  const read = readDoc(dir, paths.changes, changesDocSchema, CHANGES_SCHEMA_ID)
  if ('data' in read) return { changes: read.data.changes, idPrefix: read.data.idPrefix ?? null, problem: null }
  const file = path.join(dir, ...paths.changes.split('/'))
  const problem = 'problem' in read ? read.problem : 'is missing'
  // The caller refuses an offline build over it, or says it after a refresh (see pipeline/pipeline.ts).
  if ('problem' in read || previousPublishes(dir, paths.changesSchema)) {
    log.warning(`previous ${file} ${problem}; the feeds start empty`)
    return { ...none, problem }
  }
  if (previousPublishes(dir, paths.catalog))
    log.warning(`the previous snapshot has no ${paths.changes}; the feeds start empty`)
  else log.info(`no previous ${paths.changes}; the feeds start empty`)
  return none
}

/**
 * What the previous run's status.json says of it, read once: since when each stale app has been stale, and the apps
 * it left out (`failed`: never published, upstream gave no release). Empty when there is none; a damaged one is said.
 */
export async function readPreviousRun(
  dir: string | undefined,
  log: Logger
): Promise<{ staleSince: Map<string, string>; leftOut: Set<string> }> {
  if (!dir) return { staleSince: new Map(), leftOut: new Set() }
  const read = readDoc(dir, paths.status, statusDocSchema, STATUS_SCHEMA_ID)
  if ('problem' in read)
    log.warning(
      `previous ${path.join(dir, ...paths.status.split('/'))} ${read.problem}; stale dates start from this run`
    )
  if (!('data' in read)) return { staleSince: new Map(), leftOut: new Set() }
  return {
    staleSince: new Map(read.data.stale.map((s) => [s.slug, s.since])),
    leftOut: new Set(read.data.failed)
  }
}

/** Largest releases document read back: 50 entries of bounded fields are far below it. */
const MAX_HISTORY_BYTES = 8 << 20

/** One app's releases document in the previous snapshot: read, missing, or why it cannot be used. */
export type HistoryRead = { history: PreviousHistory } | { missing: true } | { problem: string }

/**
 * A history written before verdicts named their judge: every entry was the rules' (judge "rules", no model
 * answer), so it is read as such rather than started again.
 */
function withJudges(raw: unknown): unknown {
  const releases = (raw as { releases?: unknown } | null)?.releases
  if (!Array.isArray(releases)) return raw
  return {
    ...(raw as object),
    releases: releases.map((e: unknown) =>
      e && typeof e === 'object' && !('judge' in e)
        ? { ...e, judge: 'rules', rules: (e as { safeToUpdate?: unknown }).safeToUpdate, model: null }
        : e
    )
  }
}

/**
 * One app's judged releases in the previous snapshot, `<dir>/api/v1/apps/<slug>/releases.json`: one read,
 * synchronous because each app takes one synchronous step. Says nothing: the caller knows whether a missing one is
 * expected (a first publication, a snapshot from before the history) or damage (see pipeline/records.ts).
 */
export function readPreviousHistory(dir: string | undefined, slug: string): HistoryRead {
  if (!dir) return { missing: true }
  const file = path.join(dir, ...paths.releases(slug).split('/'))
  const read = readRegularFile(file, MAX_HISTORY_BYTES)
  if ('refused' in read) {
    if (isMissing(read)) return { missing: true }
    return { problem: refusalWords(read, MAX_HISTORY_BYTES) }
  }
  let raw: unknown
  try {
    raw = JSON.parse(read.bytes.toString('utf8'))
  } catch {
    return { problem: 'is not JSON' }
  }
  const parsed = releasesDocSchema.safeParse(withJudges(raw))
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    return {
      problem: `does not match ${RELEASES_SCHEMA_ID} (${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'})`
    }
  }
  if (parsed.data.slug !== slug) return { problem: `is the history of another app (${parsed.data.slug})` }
  const { generatedAt, latest, releases, gaps } = parsed.data
  return { history: { generatedAt, latest, releases, ...(gaps ? { gaps } : {}) } }
}

/**
 * Why an app's history in the previous snapshot cannot be carried over, or null when it can (or there was none to
 * carry): unreadable, not the schema, another app's, or missing where the snapshot published one (`expected`).
 */
export function historyProblem(dir: string | undefined, slug: string, expected: boolean): string | null {
  const read = readPreviousHistory(dir, slug)
  if ('problem' in read) return read.problem
  return 'missing' in read && expected ? 'is missing' : null
}
