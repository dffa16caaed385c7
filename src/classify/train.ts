// Training and honest measurement of the model (not part of the bundle: only `npm run train`,
// `npm run eval` and the tests import this). Everything learned from labels is learned inside
// the fold that is measured: the vocabulary (features seen in at least two training apps), the
// weights and the breaking threshold (chosen on out-of-fold predictions of an inner split of
// the training apps). The rules of ./cues.ts are not learned: they bound every decision alike. Deterministic: full-batch optimisation, a fixed number of steps, no
// randomness, weights rounded to 6 significant digits.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import sealedApps from './sealed-apps.json' with { type: 'json' }
import trainingApps from './training-apps.json' with { type: 'json' }
import { cueFlags, cuesOf } from './cues.js'
import { featuresOfNotes } from './judge.js'
import { FEATURE_VERSION, featureNames } from './features.js'
import {
  BREAKING,
  decide,
  MODEL_CLASSES,
  probabilities,
  SAFE,
  UNKNOWN,
  type CueFlags,
  type Figures,
  type Model,
  type Thresholds,
  type Weights
} from './model.js'

export interface Example {
  id: string
  app: string
  version: string
  label: number
  /** Release features (./features.ts); null when a rule decides before the model (empty notes, only a link). */
  features: string[] | null
  /** What ./cues.ts finds; null with features. */
  cues: CueFlags | null
  gate: number | null
}

export interface Options {
  lambda: number
  steps: number
  rate: number
  minApps: number
  innerFolds: number
}

export const OPTIONS: Options = { lambda: 0.003, steps: 200, rate: 0.05, minApps: 2, innerFolds: 3 }

const K = MODEL_CLASSES.length
// Bound once for fit's inner loop: under Jest (a vm context) every lookup of a global such as `Math` goes through
// the context's interceptor, and training ran four times slower there than in Node.
const { exp, sqrt } = Math

export interface Dataset {
  examples: Example[]
  labelsSha256: string
  apps: string[]
}

/**
 * The apps whose labels train the model (training-apps.json, by slug): every labelled app of the data set but the
 * sealed group. A list apart, so that no app's name stands in the classifier's code.
 */
export const TRAINING_APPS: readonly string[] = trainingApps

/**
 * The sealed group (sealed-apps.json, by slug): 20 of the apps labelled on 2026-11-28, drawn once by
 * sealedChoice(…, SEAL_SEED). No choice is made on them and their errors are never printed: `npm run eval` prints
 * only their aggregate figures, once, for the committed model.
 */
export const SEALED_APPS: readonly string[] = sealedApps
const SEAL_SEED = 49

/** A seeded generator (mulberry32): the same seed, the same draws. */
export function seeded(seed: number): () => number {
  let a = seed | 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `apps` in a seeded order (Fisher–Yates over the sorted names). */
function shuffled(apps: readonly string[], seed: number): string[] {
  const out = [...apps].sort()
  const random = seeded(seed)
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** The sealed group: `n` of `candidates` (the apps labelled last), drawn by `seed`, sorted. */
export function sealedChoice(candidates: readonly string[], seed = SEAL_SEED, n = 20): string[] {
  return shuffled(candidates, seed).slice(0, n).sort()
}

/**
 * The labelled examples of `apps` from the data set's folder (notes.jsonl, dev-labels.jsonl), in label order. The
 * digest names what was learned from: each example's id and label, so a reworded evidence changes nothing.
 */
export function loadDataset(dir: string | URL, apps: readonly string[] = TRAINING_APPS): Dataset {
  const read = (name: string) => readFileSync(new URL(name, dir), 'utf8')
  const wanted = new Set(apps)
  const notes = new Map<string, { app: string; slug: string; version: string; notes: string }>()
  for (const line of read('notes.jsonl').split('\n'))
    if (line.trim() !== '') {
      const n = JSON.parse(line) as { id: string; app: string; slug: string; version: string; notes: string }
      if (wanted.has(n.slug)) notes.set(n.id, n)
    }
  const examples: Example[] = []
  const digest = createHash('sha256')
  for (const line of read('dev-labels.jsonl').split('\n')) {
    if (line.trim() === '') continue
    const l = JSON.parse(line) as { id: string; label: string }
    const n = notes.get(l.id)
    if (!n) continue
    const label = MODEL_CLASSES.indexOf(l.label as (typeof MODEL_CLASSES)[number])
    if (label < 0) throw new Error(`label ${l.id}: unknown class ${l.label}`)
    digest.update(`${l.id}\t${l.label}\n`)
    const f = featuresOfNotes(n.notes, n.version)
    const c = f.gate === null && f.rf ? cuesOf(f.rf.units) : null
    examples.push({
      id: l.id,
      app: n.app,
      version: n.version,
      label,
      features: f.gate === null ? featureNames(f.ids) : null,
      cues: c && cueFlags(c),
      gate: f.gate === null ? null : UNKNOWN
    })
  }
  const found = new Set([...notes.values()].map((n) => n.slug))
  const absent = apps.filter((a) => !found.has(a))
  if (absent.length > 0) throw new Error(`no notes for ${absent.join(', ')} in ${String(dir)}notes.jsonl`)
  const names = [...new Set(examples.map((e) => e.app))].sort()
  return { examples, labelsSha256: digest.digest('hex'), apps: names }
}

/** Round to 6 significant digits, as the model file stores weights. */
export const round6 = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(6)))

/** Fit multinomial logistic regression over releases (balanced class weights, L2, full-batch Adam). */
export function fit(examples: Example[], opt: Options = OPTIONS): Weights {
  const raw = examples
    .filter((e) => e.features !== null)
    .map((e) => ({ features: e.features!, label: e.label, weight: 1, app: e.app }))
  // Vocabulary: features seen in at least minApps distinct apps of this training set.
  const appsOf = new Map<string, Set<string>>()
  for (const r of raw)
    for (const f of r.features) {
      let s = appsOf.get(f)
      if (!s) appsOf.set(f, (s = new Set()))
      s.add(r.app)
    }
  const vocab = [...appsOf].filter(([, s]) => s.size >= opt.minApps).map(([f]) => f)
  vocab.sort()
  const index = new Map(vocab.map((f, i) => [f, i]))
  // Identical releases (same known features, same class) are one row with their summed weight.
  const merged = new Map<string, { cols: number[]; label: number; weight: number }>()
  for (const r of raw) {
    const cols = [...new Set(r.features.map((f) => index.get(f)).filter((j): j is number => j !== undefined))].sort(
      (x, y) => x - y
    )
    const key = `${r.label}|${cols.join(',')}`
    const m = merged.get(key)
    if (m) m.weight += r.weight
    else merged.set(key, { cols, label: r.label, weight: r.weight })
  }
  const rows = [...merged.values()]
  const ptr = [0]
  const col: number[] = []
  for (const r of rows) {
    for (const j of r.cols) col.push(j)
    ptr.push(col.length)
  }
  const n = rows.length
  const d = vocab.length
  const mass = new Array<number>(K).fill(0)
  for (const r of rows) mass[r.label]! += r.weight
  const present = mass.filter((c) => c > 0).length
  const total = mass.reduce((x, y) => x + y, 0)
  const sw = rows.map((r) => (r.weight * total) / (present * mass[r.label]!) / total)
  const W = new Float64Array(d * K)
  const b = new Float64Array(K)
  const gW = new Float64Array(d * K)
  const gb = new Float64Array(K)
  const mW = new Float64Array(d * K)
  const vW = new Float64Array(d * K)
  const mb = new Float64Array(K)
  const vb = new Float64Array(K)
  const z = new Float64Array(K)
  const beta1 = 0.9
  const beta2 = 0.999
  for (let step = 1; step <= opt.steps; step++) {
    gW.fill(0)
    gb.fill(0)
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < K; c++) z[c] = b[c]!
      for (let p = ptr[i]!; p < ptr[i + 1]!; p++) {
        const o = col[p]! * K
        for (let c = 0; c < K; c++) z[c]! += W[o + c]!
      }
      let max = -Infinity
      for (let c = 0; c < K; c++) if (z[c]! > max) max = z[c]!
      let sum = 0
      for (let c = 0; c < K; c++) sum += z[c] = exp(z[c]! - max)
      const y = rows[i]!.label
      for (let c = 0; c < K; c++) {
        const g = sw[i]! * (z[c]! / sum - (c === y ? 1 : 0))
        z[c] = g
        gb[c]! += g
      }
      for (let p = ptr[i]!; p < ptr[i + 1]!; p++) {
        const o = col[p]! * K
        for (let c = 0; c < K; c++) gW[o + c]! += z[c]!
      }
    }
    const c1 = 1 - beta1 ** step
    const c2 = 1 - beta2 ** step
    for (let j = 0; j < d * K; j++) {
      const g = gW[j]! + opt.lambda * W[j]!
      mW[j] = beta1 * mW[j]! + (1 - beta1) * g
      vW[j] = beta2 * vW[j]! + (1 - beta2) * g * g
      W[j]! -= (opt.rate * (mW[j]! / c1)) / (sqrt(vW[j]! / c2) + 1e-8)
    }
    for (let c = 0; c < K; c++) {
      const g = gb[c]!
      mb[c] = beta1 * mb[c]! + (1 - beta1) * g
      vb[c] = beta2 * vb[c]! + (1 - beta2) * g * g
      b[c]! -= (opt.rate * (mb[c]! / c1)) / (sqrt(vb[c]! / c2) + 1e-8)
    }
  }
  const weights: Record<string, number[]> = {}
  for (let j = 0; j < d; j++) {
    const w = Array.from(W.subarray(j * K, j * K + K), round6)
    if (w.some((x) => Math.abs(x) >= 1e-4)) weights[vocab[j]!] = w
  }
  return { bias: Array.from(b, round6), weights }
}

interface Scored {
  p: number[]
  cues: CueFlags
}

/** A release's class probabilities and cues, null when a rule decided. */
export function scoresOf(m: Weights, e: Example): Scored | null {
  return e.features === null ? null : { p: probabilities(m, e.features), cues: e.cues! }
}

/** The breaking thresholds tried: 0.10 to 0.50 in steps of 0.05. */
const BREAKING_GRID: readonly number[] = Array.from({ length: 9 }, (_, i) => round6((i + 2) * 0.05))

/** The breaking threshold of a fixed grid (0.10 to 0.50) with the best macro-F1 on out-of-fold scores. */
export function chooseThresholds(ss: Scored[], labels: number[]): Thresholds {
  let best = { t: 0.5, f1: -1 }
  for (const t of BREAKING_GRID) {
    const m = figures(
      ss.map(({ p, cues }) => decide(p, { breaking: t }, cues)),
      labels
    )
    if (m.macroF1 > best.f1) best = { t, f1: m.macroF1 }
  }
  return { breaking: best.t }
}

/** Out-of-fold scores over groups of apps: each example scored by models fitted without its app's group. */
function outOfFold(examples: Example[], groupOf: (app: string) => number, groups: number, opt: Options): Scored[] {
  const out: Scored[] = examples.map((e) => ({ p: [], cues: e.cues! }))
  for (let g = 0; g < groups; g++) {
    const train = examples.filter((e) => groupOf(e.app) !== g)
    const test = examples.map((e, i) => ({ e, i })).filter(({ e }) => groupOf(e.app) === g)
    if (test.length === 0) continue
    const m = fit(train, opt)
    for (const { e, i } of test) out[i] = scoresOf(m, e)!
  }
  return out
}

/** The inner split: each training app's group, by sorted name. */
function appGroups(train: readonly Example[], folds: number): Map<string, number> {
  const apps = [...new Set(train.map((e) => e.app))].sort()
  return new Map(apps.map((a, i) => [a, i % folds]))
}

/** Thresholds chosen by an inner split of the training apps (never the measured app). */
export function nestedThresholds(train: Example[], opt: Options = OPTIONS): Thresholds {
  const group = appGroups(train, opt.innerFolds)
  const rows = train.filter((e) => e.features !== null)
  const ss = outOfFold(rows, (a) => group.get(a)!, opt.innerFolds, opt)
  return chooseThresholds(
    ss,
    rows.map((e) => e.label)
  )
}

export interface Prediction {
  id: string
  app: string
  label: number
  predicted: number
  s: Scored | null
}

export function figures(pred: number[], labels: number[]): Figures {
  const m = Array.from({ length: K }, () => new Array<number>(K).fill(0))
  let correct = 0
  for (let i = 0; i < pred.length; i++) {
    m[labels[i]!]![pred[i]!]!++
    if (pred[i] === labels[i]) correct++
  }
  let f1sum = 0
  for (let c = 0; c < K; c++) {
    const tp = m[c]![c]!
    const fp = m.reduce((s, row, r) => s + (r !== c ? row[c]! : 0), 0)
    const fn = m[c]!.reduce((s, v, p) => s + (p !== c ? v : 0), 0)
    const pr = tp + fp === 0 ? 0 : tp / (tp + fp)
    const rc = tp + fn === 0 ? 0 : tp / (tp + fn)
    f1sum += pr + rc === 0 ? 0 : (2 * pr * rc) / (pr + rc)
  }
  const bRow = m[BREAKING]!
  const bTotal = bRow.reduce((s, v) => s + v, 0)
  return {
    entries: pred.length,
    accuracy: round6(correct / Math.max(1, pred.length)),
    macroF1: round6(f1sum / K),
    breakingRecall: round6(bTotal === 0 ? 0 : bRow[BREAKING]! / bTotal),
    breakingAsSafe: bRow[SAFE]!
  }
}

/** The cross-validation's folds: each app's fold, by a seeded order of the apps (CV_SEED). */
export const CV_FOLDS = 10
const CV_SEED = 7
export function foldsOf(apps: readonly string[], folds = CV_FOLDS, seed = CV_SEED): Map<string, number> {
  return new Map(shuffled(apps, seed).map((a, i) => [a, i % folds]))
}

/**
 * Cross-validation grouped by app: each fold's apps predicted by a model whose weights, vocabulary and threshold
 * (an inner split of the training apps) were learned without them.
 */
export function groupedCV(data: Dataset, opt: Options = OPTIONS, folds = CV_FOLDS): Prediction[] {
  const fold = foldsOf(data.apps, folds)
  const out: Prediction[] = []
  for (let g = 0; g < folds; g++) {
    const train = data.examples.filter((e) => fold.get(e.app) !== g)
    const m = fit(train, opt)
    const t = nestedThresholds(train, opt)
    for (const e of data.examples) {
      if (fold.get(e.app) !== g) continue
      const s = scoresOf(m, e)
      out.push({ id: e.id, app: e.app, label: e.label, predicted: s === null ? e.gate! : decide(s.p, t, s.cues), s })
    }
  }
  return out
}

/** Train the committed model: grouped cross-validation figures, then the final fit and thresholds on every label. */
export function train(dir: string | URL, opt: Options = OPTIONS): { model: Model; cv: Prediction[] } {
  const data = loadDataset(dir)
  const cv = groupedCV(data, opt)
  const final = fit(data.examples, opt)
  const thresholds = nestedThresholds(data.examples, opt)
  const inSample = data.examples.map((e) => {
    const s = scoresOf(final, e)
    return s === null ? e.gate! : decide(s.p, thresholds, s.cues)
  })
  const model: Model = {
    header: {
      format: 'updatesafe-classifier',
      featureVersion: FEATURE_VERSION,
      labels: {
        file: 'dev-labels.jsonl',
        sha256: data.labelsSha256,
        entries: data.examples.length,
        apps: data.apps.length
      },
      training: {
        model:
          'multinomial logistic regression, balanced class weights, L2, full-batch Adam; bounded by the rules of cues.ts',
        lambda: opt.lambda,
        steps: opt.steps,
        rate: opt.rate,
        minApps: opt.minApps,
        innerFolds: opt.innerFolds,
        folds: CV_FOLDS
      },
      thresholds,
      cv: figures(
        cv.map((p) => p.predicted),
        cv.map((p) => p.label)
      ),
      inSample: figures(
        inSample,
        data.examples.map((e) => e.label)
      )
    },
    classes: MODEL_CLASSES,
    ...final
  }
  return { model, cv }
}

/** The model file's text: stable key order, one feature per line. */
export function serialise(model: Model): string {
  const table = (w: Record<string, number[]>) =>
    Object.entries(w)
      .map(([f, v]) => `    ${JSON.stringify(f)}: ${JSON.stringify(v)}`)
      .join(',\n')
  return (
    `{\n  "header": ${JSON.stringify(model.header)},\n  "classes": ${JSON.stringify(model.classes)},\n` +
    `  "bias": ${JSON.stringify(model.bias)},\n  "weights": {\n${table(model.weights)}\n  }\n}\n`
  )
}
