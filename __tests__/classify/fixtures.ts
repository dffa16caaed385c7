// Real release notes and labels, read in place from the shared data set (../support/shared-data.ts): the notes
// of the apps read first (the 47 labelled first, ./first-labelled-apps.json, on which the rules were written, and
// 14 left unlabelled on purpose) and the labels of the 47. The model is trained on more apps (TRAINING_APPS): the
// labels it learned from are TRAINING_LABELS. The sealed apps are never read here.
import { TRAINING_APPS } from '../../src/classify/train.js'
import firstLabelled from './first-labelled-apps.json' with { type: 'json' }
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

const FIRST_LABELLED: readonly string[] = firstLabelled
const FIRST_READ = new Set([...FIRST_LABELLED, ...UNLABELLED_FIRST_READ])

const ALL_NOTES = readSharedJsonl<NoteEntry>(RELEASE_NOTES)
const ALL_LABELS = readSharedJsonl<DevLabel>(DEV_LABELS)
export const NOTES: NoteEntry[] = ALL_NOTES.filter((n) => FIRST_READ.has(n.slug))
const first = new Set(NOTES.filter((n) => FIRST_LABELLED.includes(n.slug)).map((n) => n.id))
/** The labels of the 47 apps labelled first. */
export const LABELS: DevLabel[] = ALL_LABELS.filter((l) => first.has(l.id))
const training = new Set(ALL_NOTES.filter((n) => TRAINING_APPS.includes(n.slug)).map((n) => n.id))
/** The labels the committed model learned from, in the labels file's order. */
export const TRAINING_LABELS: DevLabel[] = ALL_LABELS.filter((l) => training.has(l.id))

export function note(id: string): NoteEntry {
  const n = NOTES.find((e) => e.id === id)
  if (!n) throw new Error(`no entry ${id} in ${RELEASE_NOTES}`)
  return n
}
