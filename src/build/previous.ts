// The previously published snapshot (the Pages branch, checked out) is our
// last-known-good source: when upstream fails, its facts are republished as they
// were, and its change history goes on in the new snapshot.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { catalogDocSchema, STATUS_SCHEMA_ID, statusDocSchema, type AppRecord } from '../schema/index.js'
import { changesDocSchema, CHANGES_SCHEMA_ID, type Change } from '../site/changes.js'
import type { Logger } from '../util/types.js'
import { paths } from '../site/paths.js'

export interface PreviousSnapshot {
  generatedAt: string
  records: Map<string, AppRecord>
}

/** Read `<dir>/api/v1/apps.json`; a missing or invalid snapshot is a warning, not an error. */
export async function readPrevious(dir: string | undefined, log: Logger): Promise<PreviousSnapshot | null> {
  if (!dir) return null
  const file = path.join(dir, ...paths.catalog.split('/'))
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    log.info(`no previous snapshot at ${file}; this is a first publication`)
    return null
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    log.warning(`previous snapshot ${file} is not JSON; ignoring it`)
    return null
  }
  const parsed = catalogDocSchema.safeParse(raw)
  if (!parsed.success) {
    log.warning(`previous snapshot ${file} does not match the v1 schema; ignoring it`)
    return null
  }
  return { generatedAt: parsed.data.generatedAt, records: new Map(parsed.data.apps.map((a) => [a.slug, a])) }
}

/**
 * The entries published by the previous snapshot, `<dir>/api/v1/changes.json`.
 * Missing or invalid is a warning and the history starts empty (no warning on a
 * first publication, where there is no previous catalog either).
 */
export interface PreviousChanges {
  changes: Change[]
  /** The site's Atom id prefix, kept from its first publication; null before there was one. */
  idPrefix: string | null
}

export async function readPreviousChanges(dir: string | undefined, log: Logger): Promise<PreviousChanges> {
  const none: PreviousChanges = { changes: [], idPrefix: null }
  if (!dir) return none
  const file = path.join(dir, ...paths.changes.split('/'))
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    const firstPublication = await readFile(path.join(dir, ...paths.catalog.split('/'))).then(
      () => false,
      () => true
    )
    if (firstPublication) log.info(`no previous ${paths.changes}; the feeds start empty`)
    else log.warning(`the previous snapshot has no ${paths.changes}; the feeds start empty`)
    return none
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    log.warning(`previous ${file} is not JSON; the feeds start empty`)
    return none
  }
  const parsed = changesDocSchema.safeParse(raw)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    log.warning(
      `previous ${file} does not match ${CHANGES_SCHEMA_ID} (${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'}); the feeds start empty`
    )
    return none
  }
  return { changes: parsed.data.changes, idPrefix: parsed.data.idPrefix ?? null }
}

/**
 * Since when each app of the previous run was stale, from `<dir>/api/v1/status.json`.
 * Missing (a snapshot older than status.json) or invalid starts the dates afresh.
 */
export async function readPreviousStaleSince(dir: string | undefined, log: Logger): Promise<Map<string, string>> {
  const none = new Map<string, string>()
  if (!dir) return none
  const file = path.join(dir, ...paths.status.split('/'))
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return none
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    log.warning(`previous ${file} is not JSON; stale dates start from this run`)
    return none
  }
  const parsed = statusDocSchema.safeParse(raw)
  if (!parsed.success) {
    log.warning(`previous ${file} does not match ${STATUS_SCHEMA_ID}; stale dates start from this run`)
    return none
  }
  return new Map(parsed.data.stale.map((s) => [s.slug, s.since]))
}
