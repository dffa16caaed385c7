// What the detectors find in one release's notes, as the named features the model weighs.
// A feature is a detector alone (`removedSetting`), in the context of the heading the line sits
// under (`removedSetting@breaking`), or qualified by a modifier of the same line
// (`removedSetting+negated`). Release-level features say how much there is and what kind of
// version it is. Bump FEATURE_VERSION whenever a detector, heading kind or feature changes.
import type { Unit } from './blocks.js'
import { DETECTORS, detect, MODIFIERS, type Hit } from './detectors.js'
import { HEADINGS, S } from './sections.js'

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

// Common words of English changelogs. Notes in which almost no word is one of these are in
// another language (or junk): the detectors read English, and finding nothing there means nothing.
const ENGLISH = new Set(
  (
    'the a an and or of to in on for with from by at as is are was were be been it this that these not no new now ' +
    'add added adds adding fix fixed fixes fixing update updated updates bump bumped remove removed improve improved ' +
    'improvement improvements change changed changes support supported use used using allow allows make when if ' +
    'bug bugs feature features release version error errors issue issues more all can should will has have only into ' +
    'after before default option options config configuration security deprecated breaking docs documentation test ' +
    'tests dependency dependencies minor major patch set show list page user users file files api server client ' +
    'resolve resolves resolved revert reverts reverted upgrade upgraded crash crashes hide button first'
  ).split(' ')
)

const WARN_ALERT = /^(?:WARNING|IMPORTANT|CAUTION|DANGER|ATTENTION)$/
const WARN_LEAD = /^(?:important|warning|attention|caution|danger|heads up|note|breaking|security|action required)\b/i
const WORD = /\p{L}[\p{L}\p{M}'’-]*/gu
const URL = /\bhttps?:\/\/\S+/g

function headingNames(kinds: number): string[] {
  const out: string[] = []
  for (const h of HEADINGS) if (kinds & S[h.name]) out.push(h.name)
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
  let words = 0
  let english = 0
  const bump = (f: string): void => {
    seen.set(f, (seen.get(f) ?? 0) + 1)
  }
  const content = units.filter((u) => u.kind !== 'heading' && u.kind !== 'code')
  for (let ui = 0; ui < content.length; ui++) {
    const u = content[ui]!
    const text = u.text
    if (words < 2000) {
      // Lower-cased once, not word by word: lower-casing maps letters to letters and marks, so the words are the
      // same; the guard skips the URL pass on the many lines without one (URL is case-sensitive).
      const ws = (text.includes('http') ? text.replace(URL, ' ') : text).toLowerCase().match(WORD)
      if (ws) {
        words += ws.length
        for (const w of ws) if (ENGLISH.has(w)) english++
      }
    }
    const hits = detect(text)
    const heads = headingNames(u.section?.kinds ?? 0)
    if (heads.length === 0) heads.push('top')
    const mods: string[] = []
    const mains: string[] = []
    for (const h of hits) (MODIFIERS.has(h.detector.name) ? mods : mains).push(h.detector.name)
    if (WARN_ALERT.test(u.alert) || WARN_LEAD.test(u.lead) || text.includes('⚠')) mods.push('alert')
    const fs: string[] = []
    for (const h of heads) fs.push(`@${h}`)
    for (const m of mods) fs.push(`+${m}`)
    for (const d of mains) {
      fs.push(d)
      for (const h of heads) fs.push(`${d}@${h}`)
      for (const m of mods) fs.push(`${d}+${m}`)
    }
    for (const h of heads) for (const m of mods) fs.push(`@${h}+${m}`)
    for (const f of fs) bump(f)
    evidence.push({ unit: u, hits, features: fs })
  }
  const out = new Set<string>()
  for (const [f, n] of seen) {
    out.add(f)
    if (n >= 3 && !f.includes('+')) out.add(`${f}#3`)
  }
  out.add(`units:${bucket(content.length, [0, 1, 3, 9, 30])}`)
  out.add(`words:${bucket(words, [2, 5, 12, 40, 150])}`)
  out.add(versionKind(version))
  if (cut) out.add('cut')
  return { features: [...out].sort(), units: evidence, words, english: words === 0 ? 0 : english / words }
}

/** Every detector name, for checks that the model knows no detector that no longer exists. */
export const DETECTOR_NAMES: readonly string[] = DETECTORS.map((d) => d.name)
