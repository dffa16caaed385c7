// Real upstream text (release notes, labels, compose files) is read in place from the team's data set beside
// the checkout, `../shared/data/`, and never copied into the repository (tests use ./needs-shared-data.ts to skip
// or fail where it is absent). No Jest here: bench scripts read the data set through this module too.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The data set's folder: `shared/data` beside the project's root, or UPDATESAFE_SHARED_DATA where it lives elsewhere. */
export const SHARED_DATA = path.resolve(
  process.env.UPDATESAFE_SHARED_DATA || fileURLToPath(new URL('../../../shared/data/', import.meta.url))
)

/** A file or folder of the data set, by its path inside it. */
export const sharedPath = (rel: string): string => path.join(SHARED_DATA, rel)

export const RELEASE_NOTES = sharedPath('release-notes/notes.jsonl')
export const DEV_LABELS = sharedPath('release-notes/dev-labels.jsonl')
export const UNLABELLED_NOTES = sharedPath('release-notes/unlabelled-notes.jsonl')

/** Is the data set here? */
export const HAS_SHARED_DATA = existsSync(RELEASE_NOTES)

/** The lines of a JSON-lines file of the data set, parsed; empty where the data set is absent. */
export function readSharedJsonl<T>(file: string): T[] {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T)
}
