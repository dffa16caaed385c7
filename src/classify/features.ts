// What the detectors find in one release's notes, as the named features the model weighs.
// A feature is a detector alone (`removedSetting`), in the context of the heading the line sits
// under (`removedSetting@breaking`), or qualified by a modifier of the same line
// (`removedSetting+negated`). Release-level features say how much there is and what kind of
// version it is. Bump FEATURE_VERSION whenever a detector, heading kind or feature changes.
import type { Unit } from './blocks.js'
import { boilerplate } from './boilerplate.js'
import { DETECTORS, detect, MODIFIERS, wordsPattern, type Hit } from './detectors.js'
import { HEADINGS, S } from './sections.js'
import { countWords, type WordCount } from './words.js'

export const FEATURE_VERSION = 24

export interface UnitEvidence {
  unit: Unit
  hits: Hit[]
  /** The line's features, as indexes into FEATURES (its heading kind, modifiers and detectors, combined). */
  features: number[]
}

export interface ReleaseFeatures {
  /** The release's features as indexes into FEATURES: sorted (so in name order), distinct. */
  ids: Int32Array
  units: UnitEvidence[]
  /** Words of the notes outside code (links dropped), bounded. */
  words: number
  /** The share of those words that are common English words of changelogs. */
  english: number
}

/** A feature the model may weigh, and what its name is made of, so that no reader parses the name. */
export interface Feature {
  name: string
  /** The detector it is about; '' for a heading kind or modifier alone; null for a release-level fact. */
  detector: string | null
  /** The heading kind of the line (`top`: under no kind of heading), null when the name has none. */
  heading: string | null
  /** The modifier of the line (a MODIFIERS detector or `alert`), null when none. */
  modifier: string | null
  /** Seen on three lines or more. */
  three: boolean
}

const WARN_ALERT = /^(?:WARNING|IMPORTANT|CAUTION|DANGER|ATTENTION)$/
/** The words of a bold lead-in that warns ("**Important:**", "**Heads up**"). */
const WARN_WORDS = [
  ...['important', 'warning', 'attention', 'caution', 'danger', 'heads up', 'note', 'breaking', 'security'],
  'action required'
]
const WARN_LEAD = new RegExp(`^${wordsPattern(WARN_WORDS).source}`, 'i')
const URL = /\bhttps?:\/\/\S+/g

/** Heading kinds by index; the last, `top`, is the place of a line under no kind of heading. */
const HEAD_NAMES = [...HEADINGS.map((h) => h.name), 'top']
const TOP = HEAD_NAMES.length - 1
const MOD_NAMES = [...MODIFIERS, 'alert']
/**
 * Detectors the rules read (cues.ts) but the model does not weigh. `afterUpgrade` fires in two training apps, on
 * releases the rules already judge right; as a feature it only moved the weights, enough to turn a release labelled
 * breaking to safe in-sample. A release said to be unfit fires in one app only: no weight learned from it would
 * carry to another.
 */
const RULES_ONLY: ReadonlySet<string> = new Set(['afterUpgrade', 'notThisRelease', 'earlierUnfit'])
const UNITS_EDGES = [0, 1, 3, 9, 30]
const WORDS_EDGES = [2, 5, 12, 40, 150]
const VERSION_KINDS = ['ver:major', 'ver:minor', 'ver:patch', 'ver:other']

function bucketNames(edges: number[]): string[] {
  return [...edges.map(String), `${edges[edges.length - 1]}+`]
}

function feature(detector: string | null, heading: string | null, modifier: string | null, three = false): Feature {
  const name = `${detector ?? ''}${heading === null ? '' : `@${heading}`}${modifier === null ? '' : `+${modifier}`}`
  return { name: three ? `${name}#3` : name, detector, heading, modifier, three }
}

/**
 * Every feature there can be, in name order: a release's features are counted and sorted as indexes, and the
 * strings are looked up, not built (building and hashing them was a third of featurising time).
 */
export const FEATURES: readonly Feature[] = (() => {
  const all: Feature[] = []
  const plain: Feature[] = []
  for (const h of HEAD_NAMES) plain.push(feature('', h, null))
  for (const d of DETECTORS) {
    plain.push(feature(d.name, null, null))
    for (const h of HEAD_NAMES) plain.push(feature(d.name, h, null))
    for (const m of MOD_NAMES) all.push(feature(d.name, null, m))
  }
  for (const m of MOD_NAMES) all.push(feature('', null, m))
  for (const h of HEAD_NAMES) for (const m of MOD_NAMES) all.push(feature('', h, m))
  // A feature seen on three lines or more, for every feature without a modifier.
  for (const f of plain) all.push(f, feature(f.detector, f.heading, null, true))
  for (const name of [
    ...bucketNames(UNITS_EDGES).map((b) => `units:${b}`),
    ...bucketNames(WORDS_EDGES).map((b) => `words:${b}`),
    ...VERSION_KINDS,
    'cut'
  ])
    all.push({ name, detector: null, heading: null, modifier: null, three: false })
  // The same order as sorting the names: sorting indexes sorts names.
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
})()

const ID = new Map(FEATURES.map((f, i) => [f.name, i]))
if (ID.size !== FEATURES.length) throw new Error('two features have one name')
const idOf = (name: string): number => {
  const id = ID.get(name)
  if (id === undefined) throw new Error(`no feature ${name}`)
  return id
}
const AT = HEAD_NAMES.map((h) => idOf(`@${h}`))
const PLUS = MOD_NAMES.map((m) => idOf(`+${m}`))
const AT_PLUS = HEAD_NAMES.map((h) => MOD_NAMES.map((m) => idOf(`@${h}+${m}`)))
const ALERT = MOD_NAMES.indexOf('alert')
// By detector (the index of DETECTORS): arrays, not maps keyed by name, on the path every line takes.
const DETECTOR_INDEX = new Map(DETECTORS.map((d, i) => [d, i]))
/** The detector's index into MOD_NAMES when it is a modifier, else -1. */
const MOD_OF = DETECTORS.map((d) => MOD_NAMES.indexOf(d.name))
const DETECTOR_ID = DETECTORS.map((d) => idOf(d.name))
const DETECTOR_AT = DETECTORS.map((d) => HEAD_NAMES.map((h) => idOf(`${d.name}@${h}`)))
const DETECTOR_PLUS = DETECTORS.map((d) => MOD_NAMES.map((m) => idOf(`${d.name}+${m}`)))
/** The `#3` feature of each feature without a modifier, -1 for the others. */
const THREE = FEATURES.map((f) => (f.modifier === null && f.detector !== null && !f.three ? idOf(`${f.name}#3`) : -1))

/** Indexes into HEAD_NAMES of the kinds a heading bit set holds, `top` when none. */
function headings(kinds: number): number[] {
  const out: number[] = []
  for (let i = 0; i < HEADINGS.length; i++) if (kinds & S[HEADINGS[i]!.name]) out.push(i)
  if (out.length === 0) out.push(TOP)
  return out
}

function versionKind(version: string): string {
  const m = /(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?/.exec(version)
  if (!m) return 'ver:other'
  const parts = m.slice(2).filter((x) => x !== undefined)
  if (parts.length === 0) return 'ver:major'
  if (parts.every((p) => Number(p) === 0)) return 'ver:major'
  const last = parts[parts.length - 1]!
  if (parts.length >= 2 && Number(last) === 0) return 'ver:minor'
  return parts.length === 1 ? 'ver:minor' : 'ver:patch'
}

function bucket(n: number, edges: number[]): string {
  for (const e of edges) if (n <= e) return `${e}`
  return `${edges[edges.length - 1]}+`
}

/** Features of one release. `units` come from parseUnits over cleaned notes. */
export function releaseFeatures(units: Unit[], version: string, cut: boolean): ReleaseFeatures {
  // Lines per feature, and the features seen, in the order first seen.
  const seen = new Uint16Array(FEATURES.length)
  const order: number[] = []
  const evidence: UnitEvidence[] = []
  const count: WordCount = { words: 0, common: 0 }
  const content = units.filter((u) => u.kind !== 'heading' && u.kind !== 'code' && !boilerplate(u))
  // A heading that is a sentence is read by the rules only: the model learned from the notes with it as a heading.
  let statements = 0
  const headsOf = new Map<number, number[]>()
  for (let ui = 0; ui < content.length; ui++) {
    const u = content[ui]!
    const text = u.text
    const lower = text.toLowerCase()
    if (u.kind === 'statement') {
      statements++
      evidence.push({ unit: u, hits: detect(text, lower), features: [] })
      continue
    }
    if (count.words < 2000) {
      // Lower-cased once, not word by word: lower-casing maps letters to letters and marks, so the words are the
      // same. Links are dropped from the lower-cased line, so "Https://…" (an item capitalised) is a link too; the
      // guard skips the URL pass on the many lines without one.
      countWords(lower.includes('http') ? lower.replace(URL, ' ') : lower, count)
    }
    const hits = detect(text, lower)
    const kinds = u.section?.kinds ?? 0
    let heads = headsOf.get(kinds)
    if (heads === undefined) headsOf.set(kinds, (heads = headings(kinds)))
    // Modifiers as indexes into MOD_NAMES, the other detectors as indexes into DETECTORS, in the order of hits.
    const mods: number[] = []
    const mains: number[] = []
    for (const h of hits) {
      if (RULES_ONLY.has(h.detector.name)) continue
      const d = DETECTOR_INDEX.get(h.detector)!
      const m = MOD_OF[d]!
      if (m >= 0) mods.push(m)
      else mains.push(d)
    }
    if (WARN_ALERT.test(u.alert) || WARN_LEAD.test(u.lead) || text.includes('⚠')) mods.push(ALERT)
    const fs: number[] = []
    for (const h of heads) fs.push(AT[h]!)
    for (const m of mods) fs.push(PLUS[m]!)
    for (const d of mains) {
      fs.push(DETECTOR_ID[d]!)
      const at = DETECTOR_AT[d]!
      for (const h of heads) fs.push(at[h]!)
      const plus = DETECTOR_PLUS[d]!
      for (const m of mods) fs.push(plus[m]!)
    }
    for (const h of heads) for (const m of mods) fs.push(AT_PLUS[h]![m]!)
    for (const f of fs) if (seen[f]!++ === 0) order.push(f)
    evidence.push({ unit: u, hits, features: fs })
  }
  const out: number[] = []
  for (const f of order) {
    out.push(f)
    if (seen[f]! >= 3 && THREE[f]! >= 0) out.push(THREE[f]!)
  }
  out.push(idOf(`units:${bucket(content.length - statements, UNITS_EDGES)}`))
  const words = count.words
  out.push(idOf(`words:${bucket(words, WORDS_EDGES)}`))
  out.push(idOf(versionKind(version)))
  if (cut) out.push(idOf('cut'))
  return { ids: Int32Array.from(out).sort(), units: evidence, words, english: words === 0 ? 0 : count.common / words }
}

/** Feature names of indexes into FEATURES. */
export function featureNames(ids: Iterable<number>): string[] {
  return Array.from(ids, (id) => FEATURES[id]!.name)
}
