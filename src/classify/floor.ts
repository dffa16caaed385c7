// The floor the rules set under a model's answer (issue 59): only the kinds of evidence that rarely fire on a
// release labelled safe may overrule a model's `safe`, and a model's `unknown` gives way to the rules' own verdict
// only where one of those kinds fires. The kinds are those of ./cues.ts (floorKindsOf): a detector's name, or
// `heading:<kind>` for a line a heading decides. Which kinds are kept is a choice made on the labels
// (chooseFloorKinds), measured by cross-validation grouped by app in bench/classifier.mjs.
import type { Classification } from '../schema/index.js'
import { FLOOR_KIND_NAMES, floorGroupOf } from './cues.js'
import type { AnswerClass, ModelAnswer } from './model-answer.js'

/** What the rules found in the notes that the floor reads. */
export interface RulesFloor {
  /** The rules' own class for the release. */
  safeToUpdate: Classification
  /** Every kind of evidence by which a line calls a change breaking, states one or asks for a step (cues.ts). */
  kinds: readonly string[]
  /** The notes were longer than what the judge read. */
  cut: boolean
  /** The notes themselves use the word "safe" (injection.ts: namesSafe): a model's `safe` may be theirs, not its own reading. */
  namesSafe?: boolean
}

export interface FlooredVerdict {
  safeToUpdate: AnswerClass
  /** The floor overruled the model: the rules' verdict stands. */
  floored: boolean
}

/**
 * The kinds that overrule a model's `safe`: chosen by chooseFloorKinds on the labels of the training apps
 * (__tests__/classify/floor.test.ts holds it to that choice). Kinds left out fired on releases labelled safe, or
 * fired too seldom to show they do not while their group misfires.
 */
export const FLOOR_KINDS: readonly string[] = [
  'advisory',
  'criticalFix',
  'earlierUnfit',
  'heading:breaking',
  'interfaceRemoved',
  'manualStep',
  'removedSupport',
  'settingRemoved',
  'urgent'
]

/**
 * The misfire rate past which a kind is not kept. A reader who read the notes says safe exactly where a kind
 * misfires, so a kind earns its place only by (almost) never firing on a safe release.
 */
export const MISFIRE_MAX = 0.02

/** How often a kind fires, and on how many releases labelled safe. */
export interface KindCount {
  fired: number
  misfired: number
}

/** How often each kind, and each group of kinds (a release counted once), fires and misfires. */
export interface FloorCounts {
  kinds: ReadonlyMap<string, KindCount>
  groups: ReadonlyMap<string, KindCount>
}

/** Counts the kinds and groups that fire on labelled releases: a firing on a release labelled safe is a misfire. */
export function countFloorKinds(rows: Iterable<{ kinds: readonly string[]; label: string }>): FloorCounts {
  const kinds = new Map<string, KindCount>()
  const groups = new Map<string, KindCount>()
  const add = (m: Map<string, KindCount>, k: string, safe: boolean) => {
    const c = m.get(k) ?? { fired: 0, misfired: 0 }
    c.fired++
    if (safe) c.misfired++
    m.set(k, c)
  }
  for (const r of rows) {
    for (const k of r.kinds) add(kinds, k, r.label === 'safe')
    for (const g of new Set(r.kinds.map(floorGroupOf))) add(groups, g, r.label === 'safe')
  }
  return { kinds, groups }
}

/** The misfire rate by the rule of succession: (misfired + 1) / (fired + 2). */
const rate = (c: KindCount = { fired: 0, misfired: 0 }): number => (c.misfired + 1) / (c.fired + 2)

/**
 * The kinds a floor keeps: those whose misfire rate, estimated by the rule of succession, is at most `max`. A kind
 * seen clean ten times says little of a 2% rate: kept by the raw share, such kinds misfired on the one fold that held
 * out the app they misfire on (issue 59), so at 2% a kind must fire about 50 times to be kept. A kind seen too seldom
 * to be judged alone, and never on a release labelled safe, is judged with its group (cues.ts: floorGroupOf): kept
 * when the group as a whole rarely misfires. So a rare way of saying "update now" stands with the security advisories,
 * while a rare kind of removal does not, for removals as a group misfire often.
 */
export function chooseFloorKinds(counts: FloorCounts, max = MISFIRE_MAX): string[] {
  return [...new Set([...FLOOR_KIND_NAMES, ...counts.kinds.keys()])]
    .filter((k) => {
      const own = counts.kinds.get(k)
      return rate(own) <= max || ((own?.misfired ?? 0) === 0 && rate(counts.groups.get(floorGroupOf(k))) <= max)
    })
    .sort()
}

/**
 * The model's class, unless the floor forbids it. A `safe` answer while a kept kind fires (or the notes were
 * longer than read) gives the rules' verdict, caution at least; an `unknown` answer while a kept kind fires gives
 * the rules' own verdict: never a class that neither judge gave. Where no kept kind fires an `unknown` stands: that
 * some line says what changed is no precise signal.
 */
export function applyFloor(
  answer: Pick<ModelAnswer, 'class'>,
  rules: RulesFloor,
  kept: readonly string[] = FLOOR_KINDS
): FlooredVerdict {
  const fires = firesIn(rules.kinds, kept)
  if (answer.class === 'unknown') {
    if (!fires || rules.safeToUpdate === 'unknown') return { safeToUpdate: 'unknown', floored: false }
    const r = rules.safeToUpdate
    return { safeToUpdate: r === 'unmaintained' ? 'caution' : r, floored: true }
  }
  // Notes that say "safe" while the rules find a change to read first: the model agreeing with the notes' own word
  // is no reading of them (issue 59's red teams: most injections that got past injection.ts wrote the word).
  const echoed = rules.namesSafe === true && (rules.safeToUpdate === 'caution' || rules.safeToUpdate === 'breaking')
  if (answer.class !== 'safe' || !(rules.cut || fires || echoed)) return { safeToUpdate: answer.class, floored: false }
  // The answer is safe here: the rules' breaking stands, anything else is caution at least.
  return { safeToUpdate: rules.safeToUpdate === 'breaking' ? 'breaking' : 'caution', floored: true }
}

/** Whether one of `kinds` is among the kinds kept. */
export function firesIn(kinds: readonly string[], kept: readonly string[]): boolean {
  return kinds.some((k) => kept.includes(k))
}
