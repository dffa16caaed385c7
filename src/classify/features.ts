// What the detectors find in one release's notes, as the named features the model weighs.
// A feature is a detector alone (`removedSetting`), in the context of the heading the line sits
// under (`removedSetting@breaking`), or qualified by a modifier of the same line
// (`removedSetting+negated`). Release-level features say how much there is and what kind of
// version it is. Bump FEATURE_VERSION whenever a detector, heading kind or feature changes.
import type { Unit } from './blocks.js'
import { DETECTORS, detect, MODIFIERS, type Hit } from './detectors.js'
import { HEADINGS, S } from './sections.js'
import { countWords, type WordCount } from './words.js'

export const FEATURE_VERSION = 14

export interface UnitEvidence {
  unit: Unit
  hits: Hit[]
  features: string[]
}

export interface ReleaseFeatures {
  /** Sorted, distinct. */
  features: string[]
  units: UnitEvidence[]
  /** Words of the notes outside code (links dropped), bounded. */
  words: number
  /** The share of those words that are common English words of changelogs. */
  english: number
}

const WARN_ALERT = /^(?:WARNING|IMPORTANT|CAUTION|DANGER|ATTENTION)$/
const WARN_LEAD = /^(?:important|warning|attention|caution|danger|heads up|note|breaking|security|action required)\b/i
const URL = /\bhttps?:\/\/\S+/g

/** Heading kinds by index; the last, `top`, is the place of a line under no kind of heading. */
const HEAD_NAMES = [...HEADINGS.map((h) => h.name), 'top']
const TOP = HEAD_NAMES.length - 1
const MOD_NAMES = [...MODIFIERS, 'alert']

// Every feature string, built once: a release's thousands of features are then looked up, not concatenated
// and hashed afresh (a third of featurising time went to that).
const AT = HEAD_NAMES.map((h) => `@${h}`)
const PLUS = new Map(MOD_NAMES.map((m) => [m, `+${m}`]))
const AT_PLUS = HEAD_NAMES.map((h) => new Map(MOD_NAMES.map((m) => [m, `@${h}+${m}`])))
const DETECTOR_AT = new Map(DETECTORS.map((d) => [d.name, HEAD_NAMES.map((h) => `${d.name}@${h}`)]))
const DETECTOR_PLUS = new Map(DETECTORS.map((d) => [d.name, new Map(MOD_NAMES.map((m) => [m, `${d.name}+${m}`]))]))
/** A feature seen on three lines or more, for every feature without a modifier. */
const THREE = new Map(
  [...AT, ...DETECTORS.map((d) => d.name), ...[...DETECTOR_AT.values()].flat()].map((f) => [f, `${f}#3`])
)

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
  const seen = new Map<string, number>()
  const evidence: UnitEvidence[] = []
  const count: WordCount = { words: 0, common: 0 }
  const content = units.filter((u) => u.kind !== 'heading' && u.kind !== 'code')
  const headsOf = new Map<number, number[]>()
  for (let ui = 0; ui < content.length; ui++) {
    const u = content[ui]!
    const text = u.text
    const lower = text.toLowerCase()
    if (count.words < 2000) {
      // Lower-cased once, not word by word: lower-casing maps letters to letters and marks, so the words are the
      // same; the guard skips the URL pass on the many lines without one (URL is case-sensitive).
      countWords(text.includes('http') ? text.replace(URL, ' ').toLowerCase() : lower, count)
    }
    const hits = detect(text, lower)
    const kinds = u.section?.kinds ?? 0
    let heads = headsOf.get(kinds)
    if (heads === undefined) headsOf.set(kinds, (heads = headings(kinds)))
    const mods: string[] = []
    const mains: string[] = []
    for (const h of hits) (MODIFIERS.has(h.detector.name) ? mods : mains).push(h.detector.name)
    if (WARN_ALERT.test(u.alert) || WARN_LEAD.test(u.lead) || text.includes('⚠')) mods.push('alert')
    const fs: string[] = []
    for (const h of heads) fs.push(AT[h]!)
    for (const m of mods) fs.push(PLUS.get(m)!)
    for (const d of mains) {
      fs.push(d)
      const at = DETECTOR_AT.get(d)!
      for (const h of heads) fs.push(at[h]!)
      const plus = DETECTOR_PLUS.get(d)!
      for (const m of mods) fs.push(plus.get(m)!)
    }
    for (const h of heads) for (const m of mods) fs.push(AT_PLUS[h]!.get(m)!)
    for (const f of fs) seen.set(f, (seen.get(f) ?? 0) + 1)
    evidence.push({ unit: u, hits, features: fs })
  }
  const out = new Set<string>()
  for (const [f, n] of seen) {
    out.add(f)
    if (n >= 3 && !f.includes('+')) out.add(THREE.get(f)!)
  }
  out.add(`units:${bucket(content.length, [0, 1, 3, 9, 30])}`)
  const words = count.words
  out.add(`words:${bucket(words, [2, 5, 12, 40, 150])}`)
  out.add(versionKind(version))
  if (cut) out.add('cut')
  return { features: [...out].sort(), units: evidence, words, english: words === 0 ? 0 : count.common / words }
}

/** Every detector name, for checks that the model knows no detector that no longer exists. */
export const DETECTOR_NAMES: readonly string[] = DETECTORS.map((d) => d.name)
