// The classifier's figures from [label, predicted] pairs, one way for every bench script.
export const CLASSES = ['safe', 'caution', 'breaking', 'unknown']

export function metricsOf(pairs) {
  const m = Object.fromEntries(CLASSES.map((c) => [c, Object.fromEntries(CLASSES.map((p) => [p, 0]))]))
  let correct = 0
  for (const [label, p] of pairs) {
    m[label][p]++
    if (p === label) correct++
  }
  const per = {}
  for (const c of CLASSES) {
    const tp = m[c][c]
    const fp = CLASSES.reduce((s, t) => s + (t !== c ? m[t][c] : 0), 0)
    const fn = CLASSES.reduce((s, p) => s + (p !== c ? m[c][p] : 0), 0)
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp)
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn)
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
    per[c] = { precision, recall, f1, support: tp + fn }
  }
  // Over the classes that occur (as a label or a prediction): a small sample or a resample may lack one.
  const occur = CLASSES.filter((c) => CLASSES.some((t) => m[c][t] > 0 || m[t][c] > 0))
  // Over safe, caution and breaking too: `unknown` has few entries and swings the 4-class figure.
  const three = ['safe', 'caution', 'breaking']
  return {
    n: pairs.length,
    accuracy: pairs.length ? correct / pairs.length : 0,
    macroF1: occur.reduce((s, c) => s + per[c].f1, 0) / Math.max(1, occur.length),
    macroF1Three: three.reduce((s, c) => s + per[c].f1, 0) / 3,
    breakingRecall: per.breaking.recall,
    breakingAsSafe: m.breaking.safe,
    per,
    matrix: m
  }
}
