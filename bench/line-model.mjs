// Does a line-level model, trained on the lines the labels mark as deciding, help the release verdict? (issue 49)
// Inside each fold of the same grouped cross-validation as `npm run eval`, a model of the training apps' lines (each
// line's features, and with --words its words too) learns whether a line is one the labellers marked as breaking
// (breaking, requirement, removal, step, urgent) or as caution (security, behaviour, deprecation). The release then
// gains how strongly its most breaking and its most cautious lines lean, and the release model is fitted with them.
// Prints the folds' figures without and with it.
//   node --import tsx bench/line-model.mjs [--words]
// Data: the shared data set's release-notes/ folder beside the checkout, read in place; the training apps only.
import { existsSync, readFileSync } from 'node:fs'
import { featuresOfNotes } from '../src/classify/judge.ts'
import { FEATURES } from '../src/classify/features.ts'
import { decide, MODEL_CLASSES, probabilities } from '../src/classify/model.ts'
import { CV_FOLDS, fit, foldsOf, loadDataset, nestedThresholds, OPTIONS, scoresOf } from '../src/classify/train.ts'
import { metricsOf } from './support/metrics.mjs'

const dir = new URL('../../shared/data/release-notes/', import.meta.url)
if (!existsSync(new URL('notes.jsonl', dir))) {
  console.error(`needs the shared data set at ${new URL('notes.jsonl', dir).pathname} (read in place)`)
  process.exit(2)
}
const words = process.argv.includes('--words')
const read = (name) =>
  readFileSync(new URL(name, dir), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
const notes = new Map(read('notes.jsonl').map((n) => [n.id, n]))
const marks = new Map(read('dev-labels.jsonl').map((l) => [l.id, l.lines ?? []]))
const data = loadDataset(dir)
const foldOf = foldsOf(data.apps)
const BREAKING_KINDS = new Set(['breaking', 'requirement', 'removal', 'step', 'urgent'])
const norm = (s) =>
  s
    .toLowerCase()
    .replace(/[*_`>#[\]()]/g, '')
    .replace(/\s+/g, ' ')
    .trim()

// Each release's lines: their feature names and class (0 unmarked, 1 marked as caution, 2 marked as breaking). A
// marked line matches a line of the notes when 60 characters of one hold the other (markup and spacing aside).
const lines = new Map()
for (const e of data.examples) {
  if (e.features === null) continue
  const n = notes.get(e.id)
  const marked = marks
    .get(e.id)
    .map((x) => ({ text: norm(x.text).slice(0, 60), k: BREAKING_KINDS.has(x.kind) ? 2 : 1 }))
  const units = featuresOfNotes(n.notes, n.version).rf.units
  lines.set(
    e.id,
    units.map((ue) => {
      const text = norm(ue.unit.text)
      let k = 0
      for (const m of marked)
        if (m.text.length >= 12 && (text.includes(m.text) || (text.length >= 12 && m.text.includes(text.slice(0, 60)))))
          k = Math.max(k, m.k)
      const fs = [...new Set(ue.features.map((i) => FEATURES[i].name))]
      if (words) for (const w of new Set(text.match(/[a-z][a-z-]{2,}/g) ?? [])) fs.push(`w:${w}`)
      return { fs: fs.length > 0 ? fs : ['none'], k }
    })
  )
}

const EDGES = [0.2, 0.35, 0.5, 0.65, 0.8]
/** The release's features and, cumulatively, how far its most breaking and most cautious lines lean. */
function withLines(lineModel, e) {
  if (e.features === null) return e
  let breaking = 0
  let caution = 0
  for (const u of lines.get(e.id)) {
    const p = probabilities(lineModel, u.fs)
    breaking = Math.max(breaking, p[2])
    caution = Math.max(caution, p[1])
  }
  const extra = [
    ...EDGES.filter((x) => breaking >= x).map((_, i) => `line:breaking>${i}`),
    ...EDGES.filter((x) => caution >= x).map((_, i) => `line:caution>${i}`)
  ]
  return { ...e, features: [...e.features, ...extra] }
}
const lineExamples = (train) =>
  train.flatMap((e) =>
    e.features === null ? [] : lines.get(e.id).map((u, i) => ({ ...e, id: `${e.id}#${i}`, label: u.k, features: u.fs }))
  )

function figures(pred) {
  const f = metricsOf(data.examples.map((e) => [MODEL_CLASSES[e.label], MODEL_CLASSES[pred.get(e.id)]]))
  return (
    `macro-F1 ${f.macroF1.toFixed(3)}, over safe/caution/breaking ${f.macroF1Three.toFixed(3)}, ` +
    `breaking recall ${f.breakingRecall.toFixed(3)}, breaking called safe ${f.breakingAsSafe}`
  )
}

const without = new Map()
const withLineModel = new Map()
for (let g = 0; g < CV_FOLDS; g++) {
  const train = data.examples.filter((e) => foldOf.get(e.app) !== g)
  const test = data.examples.filter((e) => foldOf.get(e.app) === g)
  const lineModel = fit(lineExamples(train), OPTIONS)
  for (const [out, f] of [
    [without, (e) => e],
    [withLineModel, (e) => withLines(lineModel, e)]
  ]) {
    const tr = train.map(f)
    const model = fit(tr, OPTIONS)
    const t = nestedThresholds(tr, OPTIONS)
    for (const e of test.map(f)) {
      const s = scoresOf(model, e)
      out.set(e.id, s === null ? e.gate : decide(s.p, t, s.cues))
    }
  }
}
console.log(`cross-validated by app (${CV_FOLDS} folds, ${data.examples.length} notes of ${data.apps.length} apps)`)
console.log(`  without a line model: ${figures(without)}`)
console.log(`  with one (${words ? 'features and words' : 'features'}): ${figures(withLineModel)}`)
