// The previously published snapshot (the Pages branch, checked out) is our
// last-known-good source: when upstream fails, its facts are republished as they were.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { catalogDocSchema, type AppRecord } from '../schema/index.js'
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
