// The previously published snapshot (the Pages branch, checked out) is our
// last-known-good source: when upstream fails, its facts are republished as they
// were, and its change history goes on in the new snapshot.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { catalogDocSchema, releasesDocSchema, RELEASES_SCHEMA_ID, type AppRecord } from '../schema/index.js'
import type { PreviousHistory } from './history.js'
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
export async function readPreviousChanges(dir: string | undefined, log: Logger): Promise<Change[]> {
  if (!dir) return []
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
  const parsed = releasesDocSchema.safeParse(raw)
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
