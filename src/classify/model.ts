// The trained model: multinomial logistic regression over the named features of ./features.ts,
// and the decision rule that turns its probabilities into a class. Trained by `npm run train`
// (./train.ts) from the dev labels; loaded from ./model.json, nothing is trained at build time.

export const MODEL_CLASSES = ['safe', 'caution', 'breaking', 'unknown'] as const
export type ModelClass = (typeof MODEL_CLASSES)[number]
export const SAFE = 0
export const CAUTION = 1
export const BREAKING = 2
export const UNKNOWN = 3

export interface Thresholds {
  /** Breaking when P(breaking) reaches this (or breaking is the most probable class). */
  breaking: number
}

/** What the rules of ./cues.ts found in a release: they bound the model's decision. */
export interface CueFlags {
  /** A line asks for something the admin must act on: never safe. */
  action: boolean
  /** The notes call a change breaking: breaking. */
  called: boolean
  /** A line says what changed: not unknown. */
  described: boolean
  /** Every line only points to other text (so none says what changed): unknown. */
  pointsElsewhere: boolean
  /** A line states what the rubric counts as breaking: breaking. */
  required: boolean
  /**
   * A line the rubric counts as caution (a security fix; a line under a deprecations, "Changed" or
   * configuration-changes heading): never safe.
   */
  caution: boolean
}

export interface Figures {
  entries: number
  accuracy: number
  macroF1: number
  breakingRecall: number
  breakingAsSafe: number
}

export interface ModelHeader {
  format: 'updatesafe-classifier'
  featureVersion: number
  labels: { file: string; sha256: string; entries: number; apps: number }
  training: Record<string, number | string>
  thresholds: Thresholds
  /** Figures of this training recipe cross-validated by app (CV_FOLDS folds; thresholds chosen inside each fold). */
  cv: Figures
  inSample: Figures
}

export interface Model {
  header: ModelHeader
  classes: readonly string[]
  bias: number[]
  /** Feature name → one weight per class. */
  weights: Record<string, number[]>
}

export type Weights = Pick<Model, 'bias' | 'weights'>

const tables = new WeakMap<Weights, Map<string, number[]>>()

/** A model's weights as a Map (built once per model: faster than a large object's keys). */
export function weightTable(model: Weights): Map<string, number[]> {
  let t = tables.get(model)
  if (!t) {
    t = new Map(Object.entries(model.weights))
    tables.set(model, t)
  }
  return t
}

/** Class probabilities for a release's features (features the model does not know weigh nothing). */
export function probabilities(model: Weights, features: readonly string[]): number[] {
  const table = weightTable(model)
  return probabilitiesBy(model.bias, features, (f) => table.get(f))
}

/**
 * Class probabilities for a release's features, each feature's weights found by `row` (undefined: it weighs
 * nothing). Training names its features; a build passes their indexes (./judge.ts), with the same sums.
 */
export function probabilitiesBy<K>(
  bias: readonly number[],
  features: Iterable<K>,
  row: (feature: K) => readonly number[] | undefined
): number[] {
  const z = bias.slice()
  for (const f of features) {
    const w = row(f)
    if (w) for (let c = 0; c < z.length; c++) z[c]! += w[c]!
  }
  return softmax(z)
}

/** Scores → probabilities (in place: `z` is the caller's scratch). */
function softmax(z: number[]): number[] {
  let max = -Infinity
  for (const v of z) if (v > max) max = v
  let sum = 0
  for (let c = 0; c < z.length; c++) {
    z[c] = Math.exp(z[c]! - max)
    sum += z[c]!
  }
  return z.map((v) => v / sum)
}

export function argmax(p: readonly number[]): number {
  let best = 0
  for (let c = 1; c < p.length; c++) if (p[c]! > p[best]!) best = c
  return best
}

/** The model's most probable class; unknown is not a candidate when a line says what changed. */
export function topClass(p: readonly number[], described: boolean): number {
  return described ? argmax(p.slice(0, UNKNOWN)) : argmax(p)
}

/** Whether the model leans breaking: the most probable class, or P(breaking) at the threshold. */
export function modelLeansBreaking(p: readonly number[], t: Thresholds, described: boolean): boolean {
  return topClass(p, described) === BREAKING || p[BREAKING]! >= t.breaking
}

/**
 * The decision rule. Breaking when the notes call it so, when a line states what the rubric counts
 * as breaking, or when the model leans breaking on notes in which a line asks the admin to act: a
 * breaking release needs a step or an urgent fix, so where no line asks for one (a security fix, a
 * refused input) the model's lean is doubt. Doubt falls to caution, never to safe: safe needs safe to
 * be the most probable class, no lean to breaking, no line that asks the admin to act and none the
 * rubric counts as caution (a security fix, a deprecation). Unknown only when no line says what changed.
 */
export function decide(p: readonly number[], t: Thresholds, cues: CueFlags): number {
  if (cues.pointsElsewhere) return UNKNOWN
  const top = topClass(p, cues.described)
  if (top === UNKNOWN) return UNKNOWN
  if (cues.called || cues.required) return BREAKING
  if (modelLeansBreaking(p, t, cues.described)) return cues.action ? BREAKING : CAUTION
  if (top === SAFE && !cues.action && !cues.caution) return SAFE
  return CAUTION
}
