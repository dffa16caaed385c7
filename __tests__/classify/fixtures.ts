// Real release notes and labels, read in place from the shared data set (../support/shared-data.ts): the notes
// of the apps read first (the 47 the model is trained on and 14 left unlabelled on purpose) and the labels of
// the 47. The apps labelled later are out of sample for the rules (see bench/classifier.mjs), not read here.
import { TRAINING_APPS } from '../../src/classify/train.js'
import { DEV_LABELS, readSharedJsonl, RELEASE_NOTES, sharedPath } from '../support/shared-data.js'

export interface NoteEntry {
  id: string
  app: string
  slug: string
  version: string
  notes: string
}

export interface DevLabel {
  id: string
  label: 'safe' | 'caution' | 'breaking' | 'unknown'
  evidence: string
}

/** The data set's release-notes folder, as a path ending in a separator. */
export const FIXTURES = `${sharedPath('release-notes')}/`

/** The 14 apps of the first read that the data set leaves unlabelled on purpose (its README). */
const UNLABELLED_FIRST_READ = [
  'coturn',
  'dendrite',
  'firefly-iii',
  'freshrss',
  'gitea',
  'healthchecks',
  'kimai',
  'linkding',
  'nginx',
  'node-red',
  'pixelfed',
  'prometheus',
  'redis',
  'synapse'
]

const FIRST_READ = new Set([...TRAINING_APPS, ...UNLABELLED_FIRST_READ])

export const NOTES: NoteEntry[] = readSharedJsonl<NoteEntry>(RELEASE_NOTES).filter((n) => FIRST_READ.has(n.slug))
const training = new Set(NOTES.filter((n) => TRAINING_APPS.includes(n.slug)).map((n) => n.id))
export const LABELS: DevLabel[] = readSharedJsonl<DevLabel>(DEV_LABELS).filter((l) => training.has(l.id))

export function note(id: string): NoteEntry {
  const n = NOTES.find((e) => e.id === id)
  if (!n) throw new Error(`no entry ${id} in ${RELEASE_NOTES}`)
  return n
}
