// The previously published snapshot (the Pages branch, checked out) is our
// last-known-good source: when upstream fails, its facts are republished as they
// were, and its change history goes on in the new snapshot.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
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

export interface PreviousSnapshot {
  generatedAt: string
  records: Map<string, AppRecord>
}

/** A document of the previous snapshot, or why there is none: missing, not JSON, or the schema's first complaint. */
type Read<T> = { data: T } | { missing: true } | { problem: string }

async function readDoc<T>(dir: string, sitePath: string, schema: z.ZodType<T>, id: string): Promise<Read<T>> {
  let text: string
  try {
    text = await readFile(path.join(dir, ...sitePath.split('/')), 'utf8')
  } catch {
    return { missing: true }
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { problem: 'is not JSON' }
  }
  const parsed = schema.safeParse(raw)
  if (parsed.success) return { data: parsed.data }
  const first = parsed.error.issues[0]
  return { problem: `does not match ${id} (${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'})` }
}

/**
 * The previous snapshot's reuse record (build/reuse.ts), when it was made by `program`; null otherwise (a first
 * build, another program, or a record that is not valid, which is said: then every app is built again).
 */
export async function readPreviousReuse(
  dir: string | undefined,
  program: string,
  log: Logger
): Promise<ReuseDoc | null> {
  if (!dir) return null
  const read = await readDoc(dir, paths.reuse, reuseDocSchema, REUSE_SCHEMA_ID)
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
  const read = await readDoc(dir, paths.catalog, catalogDocSchema, APPS_SCHEMA_ID)
  if ('missing' in read) log.info(`no previous snapshot at ${file}; this is a first publication`)
  if ('problem' in read) log.warning(`previous snapshot ${file} ${read.problem}; ignoring it`)
  if (!('data' in read)) return null
  return { generatedAt: read.data.generatedAt, records: new Map(read.data.apps.map((a) => [a.slug, a])) }
}

export interface PreviousChanges {
  changes: Change[]
  /** The site's Atom id prefix, kept from its first publication; null before there was one. */
  idPrefix: string | null
}

/**
 * The entries published by the previous snapshot, `<dir>/api/v1/changes.json`.
 * Missing or invalid is a warning and the history starts empty (no warning on a
 * first publication, where there is no previous catalog either).
 */
export async function readPreviousChanges(dir: string | undefined, log: Logger): Promise<PreviousChanges> {
  const none: PreviousChanges = { changes: [], idPrefix: null }
  if (!dir) return none
  const read = await readDoc(dir, paths.changes, changesDocSchema, CHANGES_SCHEMA_ID)
  if ('data' in read) return { changes: read.data.changes, idPrefix: read.data.idPrefix ?? null }
  if ('problem' in read)
    log.warning(`previous ${path.join(dir, ...paths.changes.split('/'))} ${read.problem}; the feeds start empty`)
  else if (
    await readFile(path.join(dir, ...paths.catalog.split('/'))).then(
      () => true,
      () => false
    )
  )
    log.warning(`the previous snapshot has no ${paths.changes}; the feeds start empty`)
  else log.info(`no previous ${paths.changes}; the feeds start empty`)
  return none
}

/**
 * Since when each app of the previous run was stale, from `<dir>/api/v1/status.json`.
 * Missing (a snapshot older than status.json) or invalid starts the dates afresh.
 */
export async function readPreviousStaleSince(dir: string | undefined, log: Logger): Promise<Map<string, string>> {
  if (!dir) return new Map()
  const read = await readDoc(dir, paths.status, statusDocSchema, STATUS_SCHEMA_ID)
  if ('problem' in read)
    log.warning(
      `previous ${path.join(dir, ...paths.status.split('/'))} ${read.problem}; stale dates start from this run`
    )
  return new Map('data' in read ? read.data.stale.map((s) => [s.slug, s.since]) : [])
}

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
 * One app's judged releases in the previous snapshot, `<dir>/api/v1/apps/<slug>/releases.json`: one
 * read, synchronous because each app takes one synchronous step. Missing (a first publication, or a
 * snapshot from before the history) starts the history afresh; invalid is a warning and does the same.
 */
export function readPreviousHistory(dir: string | undefined, slug: string, log: Logger): PreviousHistory | null {
  if (!dir) return null
  const file = path.join(dir, ...paths.releases(slug).split('/'))
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return null
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    log.warning(`previous ${file} is not JSON; the history of ${slug} starts again`)
    return null
  }
  const parsed = releasesDocSchema.safeParse(withJudges(raw))
  if (!parsed.success || parsed.data.slug !== slug) {
    const first = parsed.success ? { path: ['slug'], message: `is not ${slug}` } : parsed.error.issues[0]
    log.warning(
      `previous ${file} does not match ${RELEASES_SCHEMA_ID} (${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'}); the history of ${slug} starts again`
    )
    return null
  }
  const { generatedAt, latest, releases } = parsed.data
  return { generatedAt, latest, releases }
}
