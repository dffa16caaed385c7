// One release's notes → one class, the evidence that weighed most and the words it quotes.
// The detectors (./detectors.ts) find; the trained model (./model.json) weighs; the rules of
// ./cues.ts bound it (notes that call a change breaking; no safe while a line asks for action or
// announces a security fix or change; the model says breaking only where a line asks for action).
// Two rules come before the model: empty notes and notes with no words but a link are unknown.
import { parseUnits, type Unit } from './blocks.js'
import { cueFlags, cuesOf, internal, saysNone, type Cue, type Cues } from './cues.js'
import { DETECTOR, MODIFIERS, type Detector, type Hit } from './detectors.js'
import { FEATURES, releaseFeatures, type ReleaseFeatures, type UnitEvidence } from './features.js'
import {
  BREAKING,
  CAUTION,
  decide,
  MODEL_CLASSES,
  probabilitiesBy,
  SAFE,
  topClass,
  UNKNOWN,
  weightTable,
  type Model
} from './model.js'
import { HEADINGS } from './sections.js'
import {
  cleanNotes,
  formatNotes,
  isBlankNotes,
  NOTES_CAP,
  squash,
  withoutTrailingReferences,
  type CleanNotes
} from './text.js'
import type { Classification } from '../schema/index.js'

export type BreakingKind = 'urgent' | 'required'

export interface ReleaseJudgement {
  safeToUpdate: Classification
  /** The deciding evidence: a detector's name, a heading kind (`heading-breaking`), or an outcome below. */
  rule: string
  /** What the deciding evidence means, in plain words for the rationale. */
  describes: string
  /** The line that weighed most, null when none did. */
  unit: Unit | null
  /**
   * A caution the notes weigh toward only as a whole: no rule decided and no line's strongest
   * evidence is a finding the rubric names, so the quoted line is the strongest of many small ones.
   */
  diffuse: boolean
  /** Where in that line the deciding words start. */
  at: number
  /** For a breaking release: an urgent fix to apply now, or a required step. */
  breakingKind: BreakingKind | null
  /** The notes announce a security fix. */
  security: boolean
  /** Class probabilities of the model (safe, caution, breaking, unknown); null when a rule decided. */
  p: number[] | null
  units: Unit[]
  /** The notes were cut (over the cap). */
  cut: boolean
  /** What the floor under a model's answer reads (see floor.ts: RulesFloor): the lines' evidence, for floorKindsOf. */
  floor: { evidence: readonly UnitEvidence[] }
}

export const OUTCOMES = {
  emptyNotes: 'empty-notes',
  noContent: 'no-content',
  unreadable: 'unreadable-notes',
  truncated: 'truncated-notes'
} as const

export interface NotesFeatures {
  /** A rule that decides before the model (an OUTCOMES value), or null. */
  gate: string | null
  /** The release's features, as sorted indexes into FEATURES (empty when a rule decides). */
  ids: Int32Array
  rf: ReleaseFeatures | null
  units: Unit[]
  cut: boolean
}

/**
 * Clean, parse and featurise one release's notes. Total: any value gives an answer. `plain`: the notes as
 * plainNotes cleaned them, when the caller has them already.
 */
export function featuresOfNotes(notes: unknown, version: string, plain?: CleanNotes): NotesFeatures {
  const { text, cut } = plain ? formatNotes(plain) : cleanNotes(notes)
  if (isBlankNotes(text)) return { gate: OUTCOMES.emptyNotes, ids: new Int32Array(0), rf: null, units: [], cut }
  const units = parseUnits(text)
  const rf = releaseFeatures(units, version, cut)
  // Only a link, a heading or a word: nothing to judge. Notes not in English: nothing the detectors read.
  const gate =
    rf.words < 2
      ? OUTCOMES.noContent
      : rf.english < 0.08
        ? rf.words < 5
          ? OUTCOMES.noContent
          : OUTCOMES.unreadable
        : null
  return { gate, ids: rf.ids, rf, units, cut }
}

const HEADING_MEANS = new Map<string, string>(HEADINGS.map((h) => [h.name, h.means]))
const RELEASE_MEANS: Record<string, string> = {
  'ver:major': 'the release is a new major version',
  'ver:minor': 'the release is a feature release',
  'ver:patch': 'the release is a patch release',
  cut: `the notes are longer than the read limit`
}

/** A feature in plain words: what the line does, where it sits, how it is qualified. */
export function explain(feature: string): string {
  const base = feature.replace(/#3$/, '')
  const at = base.indexOf('@')
  const plus = base.indexOf('+')
  const head = base.slice(0, [at, plus].filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? base.length)
  const parts: string[] = []
  if (head !== '') parts.push(DETECTOR[head]?.means ?? RELEASE_MEANS[head] ?? 'weighs in the notes as a whole')
  if (at >= 0) {
    const h = base.slice(at + 1).split('+')[0]!
    if (h !== 'top') parts.push(`${head === '' ? 'is ' : ''}${HEADING_MEANS.get(h) ?? ''}`)
  }
  if (plus >= 0) {
    const m = base.slice(plus + 1)
    const means = m === 'alert' ? 'is marked as a warning' : (DETECTOR[m]?.means ?? m)
    parts.push(parts.length > 0 ? `and ${means}` : means)
  }
  const s = parts.filter((p) => p !== '').join(', ')
  return s === '' ? 'is an ordinary line of the notes' : s
}

/** The detector (or heading kind) a feature is about, as the `rule` name. */
function ruleOf(feature: string): string {
  const base = feature.replace(/#3$/, '')
  const head = base.split(/[@+]/)[0]!
  if (head !== '') return head
  const h = base.slice(1).split('+')[0]!
  return h === 'top' ? `modifier-${base.split('+')[1] ?? 'none'}` : `heading-${h}`
}

/** Per model, each feature's weights (by index into FEATURES; undefined where the model has none). */
const rows = new WeakMap<Model, (readonly number[] | undefined)[]>()

/** Class probabilities of a release's features, given as indexes into FEATURES: `probabilities` without names. */
function probabilitiesOf(model: Model, ids: Int32Array): number[] {
  const byId = rows.get(model) ?? rowsOf(model)
  return probabilitiesBy(model.bias, ids, (id) => byId[id])
}

function rowsOf(model: Model): (readonly number[] | undefined)[] {
  const table = weightTable(model)
  const r = FEATURES.map((f) => table.get(f.name))
  rows.set(model, r)
  return r
}

/** Per model, how much each feature (by index into FEATURES) pushes toward each class; built once per model. */
const pushes = new WeakMap<Model, Float64Array[]>()

/**
 * How much each feature pushes toward class c: for caution and breaking, rather than safe; for safe, rather
 * than the stronger of caution and breaking.
 */
function pushOf(model: Model, c: number): Float64Array {
  let byClass = pushes.get(model)
  if (!byClass) pushes.set(model, (byClass = []))
  let push = byClass[c]
  if (!push) {
    const table = weightTable(model)
    push = Float64Array.from(FEATURES, (f) => {
      const w = table.get(f.name)
      return !w ? 0 : c === SAFE ? w[SAFE]! - Math.max(w[CAUTION]!, w[BREAKING]!) : w[c]! - w[SAFE]!
    })
    byClass[c] = push
  }
  return push
}

interface Deciding {
  ue: UnitEvidence | null
  feature: string
  /** The line's strongest evidence is a finding the rubric names. */
  rubric: boolean
}

/** A detector whose finding the rubric names (a step, an urgent fix, a security fix, a change), not routine work. */
function namesRubric(d: Detector | undefined): boolean {
  return d !== undefined && d.why !== 'routine'
}

/**
 * The line whose features push hardest toward class c, and its strongest feature ('' when none pushes).
 * Toward caution or breaking, a line whose strongest evidence is a finding the rubric names comes
 * first. Internal work, tests and docs are the reason only when no other line pushes at all: a line
 * about tests may weigh, but it is not why an admin should be careful.
 */
function deciding(model: Model, units: UnitEvidence[], c: number): Deciding {
  // An entry that says there is none ("Nothing" under "Changed") names no change to quote.
  const lines = units.filter((ue) => !saysNone(ue))
  const outside = lines.filter((ue) => !internal(ue))
  // A change, a deprecation, a security fix or a step says why better than a line that weighs only as a bug fix.
  if (c !== SAFE) {
    const d = strongest(model, outside, c, true)
    if (d.ue) return { ...d, rubric: true }
  }
  const d = strongest(model, outside, c, false)
  return { ...(d.ue || outside.length === lines.length ? d : strongest(model, lines, c, false)), rubric: false }
}

/** Whether each feature names a finding the rubric counts (not routine work, a heading or a release-level fact). */
const RUBRIC = FEATURES.map((f) => Boolean(f.detector) && namesRubric(DETECTOR[f.detector!]))

/**
 * Why each feature would make a release breaking: its detector's reason; a heading kind or modifier alone is a
 * required step, or under a security heading an urgent fix.
 */
const WHY = FEATURES.map((f) =>
  f.detector === '' ? (f.heading === 'security' ? 'security' : 'required') : (DETECTOR[f.detector ?? '']?.why ?? 'note')
)

/** The line of `units` that pushes hardest toward c; with `rubric`, only a line whose strongest feature is a rubric finding. */
function strongest(model: Model, units: UnitEvidence[], c: number, rubric: boolean): Pick<Deciding, 'ue' | 'feature'> {
  const push = pushOf(model, c)
  let best: UnitEvidence | null = null
  let bestFeature = -1
  let bestScore = 0
  for (const ue of units) {
    let sum = 0
    let top = -1
    let topScore = 0
    // A version number is named only when nothing else on the line pushes: "names a version" explains little.
    let version = -1
    let versionScore = 0
    for (const f of ue.features) {
      const s = push[f]!
      if (s > 0) sum += s
      // A qualifier (`+negated`, `+future`…) weighs in the sum but is not named as the reason.
      const feature = FEATURES[f]!
      if (feature.modifier !== null) continue
      if (feature.detector === 'versionNumber') {
        if (s > versionScore) [versionScore, version] = [s, f]
      } else if (s > topScore) [topScore, top] = [s, f]
    }
    if (top < 0) top = version
    if (sum > bestScore && (!rubric || (top >= 0 && RUBRIC[top]!))) {
      bestScore = sum
      best = ue
      bestFeature = top
    }
  }
  return { ue: best, feature: bestFeature < 0 ? '' : FEATURES[bestFeature]!.name }
}

/** An urgent fix or a required step: which kind of evidence pushes the breaking lines harder. */
function kindOf(model: Model, lines: UnitEvidence[]): BreakingKind {
  const push = pushOf(model, BREAKING)
  let urgent = 0
  let required = 0
  let urgentSeen = false
  for (const ue of lines) {
    for (const f of ue.features) {
      const why = WHY[f]!
      if (why === 'urgent') urgentSeen = true
      const s = push[f]!
      if (s <= 0) continue
      if (why === 'urgent' || why === 'security') urgent += s
      else if (why === 'required') required += s
    }
  }
  return urgentSeen && urgent > required ? 'urgent' : 'required'
}

/**
 * The line a rule decided by, quoted in the rationale; null when the model's weights decide. A
 * breaking release always quotes why it is one: the notes calling a change breaking, else the line
 * that states a rubric's breaking change, else the line that asks for action (the model says
 * breaking only where one does), never merely the line the weights lean on most. A caution release
 * the model leaned safe on quotes the line that asks for action, else the security fix or change
 * that makes it caution.
 */
function ruleLine(c: number, p: number[], cues: Cues, cut: boolean): Cue | null {
  if (c === BREAKING) return cues.called ?? cues.required ?? cues.action
  return c === CAUTION && topClass(p, cues.described) === SAFE && !cut
    ? (cues.action ?? cues.security ?? cues.changed)
    : null
}

/**
 * The line that says why a caution no line with a rubric finding explains: the security fix or
 * change a rule found, else the line that asks for action (unless it is internal work).
 */
function cautionCue(cues: Cues): Cue | null {
  const step = cues.action && !internal(cues.action.ue) ? cues.action : null
  return cues.security ?? cues.changed ?? step
}

/** Judge one release's notes with a model. Total: any string (or none) gives a judgement. */
export function judgeRelease(notes: unknown, version: string, model: Model, plain?: CleanNotes): ReleaseJudgement {
  const nf = featuresOfNotes(notes, version, plain)
  const base = {
    units: nf.units,
    cut: nf.cut,
    unit: null,
    diffuse: false,
    at: 0,
    breakingKind: null,
    security: false,
    p: null,
    floor: { evidence: [] as readonly UnitEvidence[] }
  }
  if (nf.gate === OUTCOMES.emptyNotes)
    return { ...base, safeToUpdate: 'unknown', rule: nf.gate, describes: 'there are no release notes' }
  if (nf.gate === OUTCOMES.unreadable)
    return {
      ...base,
      safeToUpdate: 'unknown',
      rule: nf.gate,
      describes: 'the notes are not in a language the classifier reads'
    }
  if (nf.gate !== null || nf.rf === null)
    return {
      ...base,
      safeToUpdate: 'unknown',
      rule: OUTCOMES.noContent,
      describes: 'the notes carry no usable content'
    }
  const rf = nf.rf
  const p = probabilitiesOf(model, rf.ids)
  const cues = cuesOf(rf.units, true)
  const decided = decide(p, model.header.thresholds, cueFlags(cues))
  // Notes cut at the read limit: what was not read may matter, so they are never safe.
  const c = decided === SAFE && nf.cut ? CAUTION : decided
  const security = cues.security !== null
  // The floor's kinds are read (floorKindsOf) only where a model answered: most releases are judged by the rules alone.
  base.floor = { evidence: rf.units }
  if (c === UNKNOWN)
    return {
      ...base,
      p,
      security,
      safeToUpdate: 'unknown',
      rule: OUTCOMES.noContent,
      describes: 'the notes carry no usable content'
    }
  let byRule = ruleLine(c, p, cues, nf.cut)
  // A safe release quotes the line that came closest to caution, if any did.
  let d: Deciding = byRule
    ? { ue: byRule.ue, feature: '', rubric: true }
    : deciding(model, rf.units, c === SAFE ? CAUTION : c)
  // A caution that no line with a finding the rubric names explains: a rule's line says why.
  const cueLine = c === CAUTION && !byRule && !d.rubric && !nf.cut ? cautionCue(cues) : null
  if (cueLine) {
    byRule = cueLine
    d = { ue: cueLine.ue, feature: '', rubric: true }
  }
  if (!byRule && c === SAFE && d.ue === null) d = deciding(model, rf.units, SAFE)
  if (!byRule && c !== SAFE && d.ue === null) d = deciding(model, rf.units, CAUTION)
  const feature = d.feature
  const cutRule = decided === SAFE && c === CAUTION
  const ruleHit: Hit | null = byRule ? byRule.hit : null
  // A line its heading decided: what the line itself says too, when a detector reads more than routine in it.
  const lineHit =
    byRule && !ruleHit
      ? (byRule.ue.hits.find((h) => !MODIFIERS.has(h.detector.name) && namesRubric(h.detector)) ?? null)
      : null
  const rule = cutRule
    ? OUTCOMES.truncated
    : byRule
      ? (ruleHit?.detector.name ?? `heading-${byRule.heading}`)
      : feature === ''
        ? 'no-evidence'
        : ruleOf(feature)
  const describes = cutRule
    ? `the notes exceed the ${NOTES_CAP / 1024} KiB read limit, so what was not read may matter`
    : byRule
      ? ruleHit
        ? byRule.later
          ? `announces that a later release ${ruleHit.detector.means}`
          : ruleHit.detector.means
        : lineHit
          ? `${lineHit.detector.means}, ${HEADING_MEANS.get(byRule.heading ?? 'breaking')}`
          : `is ${HEADING_MEANS.get(byRule.heading ?? 'breaking')}`
      : feature === ''
        ? 'nothing in the notes weighs either way'
        : explain(feature)
  const head = rule in DETECTOR && !MODIFIERS.has(rule) ? DETECTOR[rule]! : null
  // A heading-decided line is quoted from its start: the heading, not a word in it, decided.
  const hit = ruleHit ?? (head && d.ue ? d.ue.hits.find((h) => h.detector === head) : undefined)
  return {
    ...base,
    safeToUpdate: MODEL_CLASSES[c]!,
    rule,
    describes,
    unit: cutRule ? null : (d.ue?.unit ?? null),
    diffuse: c === CAUTION && !cutRule && d.ue !== null && !d.rubric,
    at: hit?.at ?? 0,
    breakingKind: c === BREAKING ? kindOf(model, rf.units) : null,
    security,
    p
  }
}

/** The words of the deciding line around the deciding match, bounded, for the rationale. */
export function quoteOf(unit: Unit, at: number, max = 200): string {
  // What a line ends with to credit and link it ("… (#33704) by @a", "… in https://github.com/o/r/pull/1") is not
  // what decided.
  const bare = withoutTrailingReferences(unit.text)
  const t = at < bare.length ? bare : unit.text
  let start = at > 80 ? t.lastIndexOf(' ', at - 40) + 1 : 0
  if (start < 0) start = 0
  let q = t.slice(start)
  if (q.length > max) {
    q = q.slice(0, max - 1)
    const sp = q.lastIndexOf(' ')
    if (sp > max * 0.6) q = q.slice(0, sp)
    q = `${q}…`
  }
  return squash(`${start > 0 ? '…' : ''}${q}`)
}
