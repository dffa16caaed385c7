// The floor the rules set under a model's answer (issue 59): only the kinds of evidence that rarely fire on a
// release labelled safe may overrule a model's `safe`, and a model's `unknown` gives way to the rules' own verdict
// where a line says what changed. The kinds are those of ./cues.ts (floorKindsOf): a detector's name, or
// `heading:<kind>` for a line a heading decides. Which kinds are kept is a choice made on the labels
// (chooseFloorKinds), measured by cross-validation grouped by app in bench/classifier.mjs.
import type { Classification } from '../schema/index.js'
import type { AnswerClass, ModelAnswer } from './model-answer.js'

/** What the rules found in the notes that the floor reads. */
export interface RulesFloor {
  /** The rules' own class for the release. */
  safeToUpdate: Classification
  /** Every kind of evidence by which a line calls a change breaking, states one or asks for a step (cues.ts). */
  kinds: readonly string[]
  /** A line says what changed. */
  described: boolean
  /** The notes were longer than what the judge read. */
  cut: boolean
}

export interface FlooredVerdict {
  safeToUpdate: AnswerClass
  /** The floor overruled the model: the rules' verdict stands. */
  floored: boolean
}

/**
 * The kinds that overrule a model's `safe`: chosen by chooseFloorKinds on the labels of the training apps
 * (__tests__/classify/floor.test.ts holds it to that choice). Kinds left out fired on releases labelled safe too
 * often to overrule a reader who read the notes.
 */
export const FLOOR_KINDS: readonly string[] = [
  'bangMarker',
  'breakingMarker',
  'criticalFix',
  'heading:breaking',
  'heading:removed',
  'interfaceRemoved',
  'manualAfter',
  'manualStep',
  'raisedRequirement',
  'refusedConfig',
  'removedSupport',
  'renamed',
  'requiredVersion',
  'requirementAfter',
  'settingRemoved',
  'signatureChanged',
  'supportRemoved',
  'urgent'
]

/**
 * Share of a kind's firings on releases labelled safe past which it is not kept. A reader who read the notes says safe
 * exactly where such a kind misfires, so a kind earns its place only by (almost) never firing on a safe release.
 */
export const MISFIRE_MAX = 0.02

/** How often a kind fires, and on how many releases labelled safe. */
export interface KindCount {
  fired: number
  misfired: number
}

/** The kinds a floor keeps: those seen to fire whose firings on releases labelled safe are at most `max` of them. */
export function chooseFloorKinds(counts: ReadonlyMap<string, KindCount>, max = MISFIRE_MAX): string[] {
  return [...counts]
    .filter(([, c]) => c.fired > 0 && c.misfired <= max * c.fired)
    .map(([k]) => k)
    .sort()
}

/**
 * The model's class, unless the floor forbids it. A `safe` answer while a kept kind fires (or the notes were
 * longer than read) gives the rules' verdict, caution at least; an `unknown` answer while a line says what changed
 * gives the rules' own verdict: never a class that neither judge gave.
 */
export function applyFloor(
  answer: Pick<ModelAnswer, 'class'>,
  rules: RulesFloor,
  kept: readonly string[] = FLOOR_KINDS
): FlooredVerdict {
  if (answer.class === 'unknown') {
    if (!rules.described || rules.safeToUpdate === 'unknown') return { safeToUpdate: 'unknown', floored: false }
    const r = rules.safeToUpdate
    return { safeToUpdate: r === 'unmaintained' ? 'caution' : r, floored: true }
  }
  if (answer.class !== 'safe' || !(rules.cut || firesIn(rules.kinds, kept)))
    return { safeToUpdate: answer.class, floored: false }
  // The answer is safe here: the rules' breaking stands, anything else is caution at least.
  return { safeToUpdate: rules.safeToUpdate === 'breaking' ? 'breaking' : 'caution', floored: true }
}

/** Whether one of `kinds` is among the kinds kept. */
export function firesIn(kinds: readonly string[], kept: readonly string[]): boolean {
  return kinds.some((k) => kept.includes(k))
}
