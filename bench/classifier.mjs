// Measures the release-notes classifier on the labelled dev set, next to two baselines
// computed in the same run, then times 10,000 classifications on one core.
//   node --import tsx bench/classifier.mjs            (npm run eval)
//   node --import tsx bench/classifier.mjs --quiet    (figures only, no list of misses)
// Data: __tests__/fixtures/release-notes/ (copied from the shared data set; see PROVENANCE.md).
import { readFileSync } from 'node:fs'
import { classifyReleases } from '../src/classify/index.ts'
import { compareVersions, parseVersion } from '../src/util/versions.ts'

const dir = new URL('../__tests__/fixtures/release-notes/', import.meta.url)
const readJsonl = (name) =>
  readFileSync(new URL(name, dir), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
const quiet = process.argv.includes('--quiet')

const notes = readJsonl('notes.jsonl')
const labels = new Map(readJsonl('dev-labels.jsonl').map((l) => [l.id, l]))
const byId = new Map(notes.map((n) => [n.id, n]))
const CLASSES = ['safe', 'caution', 'breaking', 'unknown']

// --- Baseline 1: keyword match over the raw text, as simple tools do it.
function keywordBaseline(text) {
  if (text.replace(/\[truncated\]/g, '').trim() === '') return 'unknown'
  if (/\bbreaking\b|\bmigrat(e|ion)\b|\bremoved\b|\bno longer\b|\brequired?\b|\bmust\b/i.test(text)) return 'breaking'
  if (/\bsecurity\b|\bCVE-|\bdeprecat|\bvulnerab|\bchanged?\b|\bdefault\b|\bwarning\b/i.test(text)) return 'caution'
  return 'safe'
}

// --- Baseline 2: semver update type against the previous entry of the same app.
const byApp = new Map()
for (const n of notes) {
  if (!byApp.has(n.app)) byApp.set(n.app, [])
  byApp.get(n.app).push(n)
}
function previousOf(n) {
  let best = null
  for (const o of byApp.get(n.app)) {
    const c = compareVersions(o.version, n.version)
    if (c === null || c >= 0) continue
    if (best === null || compareVersions(o.version, best.version) > 0) best = o
  }
  return best
}
function semverBaseline(n) {
  const prev = previousOf(n)
  const a = prev && parseVersion(prev.version)
  const b = parseVersion(n.version)
  if (!a || !b) return 'unknown'
  const len = Math.max(a.numbers.length, b.numbers.length)
  for (let i = 0; i < len; i++) {
    if ((a.numbers[i] ?? 0) !== (b.numbers[i] ?? 0)) return i === 0 ? 'breaking' : i === 1 ? 'caution' : 'safe'
  }
  return 'safe'
}

const ours = (n) => classifyReleases({ releases: [{ version: n.version, notes: n.notes }] })

// --- Metrics.
function metrics(pred) {
  const m = Object.fromEntries(CLASSES.map((c) => [c, Object.fromEntries(CLASSES.map((p) => [p, 0]))]))
  let correct = 0
  for (const [id, l] of labels) {
    const p = pred.get(id)
    m[l.label][p] = (m[l.label][p] ?? 0) + 1
    if (p === l.label) correct++
  }
  const per = {}
  for (const c of CLASSES) {
    const tp = m[c][c]
    const fp = CLASSES.reduce((s, t) => s + (t !== c ? m[t][c] : 0), 0)
    const fn = CLASSES.reduce((s, p) => s + (p !== c ? m[c][p] : 0), 0)
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp)
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn)
    per[c] = {
      precision,
      recall,
      f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
      support: tp + fn
    }
  }
  const macroF1 = CLASSES.reduce((s, c) => s + per[c].f1, 0) / CLASSES.length
  return { accuracy: correct / labels.size, macroF1, per, matrix: m, breakingAsSafe: m.breaking.safe }
}

const fmt = (x) => x.toFixed(3)
function report(name, r) {
  console.log(`\n== ${name}`)
  console.log(
    `accuracy ${fmt(r.accuracy)}   macro-F1 ${fmt(r.macroF1)}   breaking recall ${fmt(r.per.breaking.recall)}   breaking predicted safe: ${r.breakingAsSafe}`
  )
  console.log('class      precision  recall  f1     support')
  for (const c of CLASSES) {
    const p = r.per[c]
    console.log(
      `${c.padEnd(10)} ${fmt(p.precision).padStart(9)}  ${fmt(p.recall).padStart(6)}  ${fmt(p.f1)}  ${String(p.support).padStart(7)}`
    )
  }
  console.log(`confusion (rows = label, columns = predicted): ${CLASSES.map((c) => c.padStart(8)).join('')}`)
  for (const c of CLASSES)
    console.log(`${' '.repeat(46)}${c.padEnd(8)}${CLASSES.map((p) => String(r.matrix[c][p]).padStart(8)).join('')}`)
}

const dev = [...labels.keys()].map((id) => {
  const n = byId.get(id)
  if (!n) throw new Error(`dev label ${id} has no notes entry`)
  return n
})
const oursJ = new Map(dev.map((n) => [n.id, ours(n)]))
const results = {
  ours: metrics(new Map([...oursJ].map(([id, j]) => [id, j.safeToUpdate]))),
  keyword: metrics(new Map(dev.map((n) => [n.id, keywordBaseline(n.notes)]))),
  semver: metrics(new Map(dev.map((n) => [n.id, semverBaseline(n)])))
}
console.log(
  `dev set: ${labels.size} labelled entries (${CLASSES.map((c) => `${c} ${[...labels.values()].filter((l) => l.label === c).length}`).join(', ')})`
)
report('updatesafe rules', results.ours)
report('baseline: keyword match', results.keyword)
report('baseline: semver update type (previous entry of the same app)', results.semver)

const beats = ['keyword', 'semver'].every(
  (b) =>
    results.ours.accuracy > results[b].accuracy &&
    results.ours.macroF1 > results[b].macroF1 &&
    results.ours.per.breaking.recall >= results[b].per.breaking.recall &&
    results.ours.breakingAsSafe <= results[b].breakingAsSafe
)
console.log(
  `\nbeats both baselines on accuracy, macro-F1, breaking recall and breaking-as-safe: ${beats ? 'yes' : 'NO'}`
)
const worse = []
for (const b of ['keyword', 'semver']) {
  for (const c of CLASSES) {
    for (const f of ['precision', 'recall', 'f1'])
      if (results[b].per[c][f] > results.ours.per[c][f] + 1e-9)
        worse.push(`${c} ${f} (${b} ${fmt(results[b].per[c][f])} > ours ${fmt(results.ours.per[c][f])})`)
  }
}
console.log(
  `per-class figures where a baseline does better than ours: ${worse.length === 0 ? 'none' : worse.join('; ')}`
)
console.log(
  `targets: macro-F1 >= 0.80 ${results.ours.macroF1 >= 0.8 ? 'met' : 'MISSED'}; breaking recall >= 0.95 ${results.ours.per.breaking.recall >= 0.95 ? 'met' : 'MISSED'}; zero breaking predicted safe ${results.ours.breakingAsSafe === 0 ? 'met' : 'MISSED'}`
)

if (!quiet) {
  console.log('\ndev entries we get wrong (label → ours, rule, rationale):')
  for (const [id, l] of labels) {
    const j = oursJ.get(id)
    if (j.safeToUpdate !== l.label)
      console.log(`- ${id}: ${l.label} → ${j.safeToUpdate} [${j.rule}] ${j.rationale.slice(0, 220)}`)
  }
}

// Unlabelled entries: only checked to run without error; their classes are not inspected for tuning.
let unlabelled = 0
for (const n of notes) {
  if (labels.has(n.id)) continue
  const j = ours(n)
  if (!j.rationale || j.changelogSummary === null || j.changelogSummary.length > 500 || j.rationale.length > 1000)
    throw new Error(`bad verdict for ${n.id}`)
  unlabelled++
}
console.log(`\nunlabelled entries classified without error: ${unlabelled}`)

// --- Speed: 10,000 classifications cycling through the real notes, one core (this process).
const N = 10_000
for (const n of notes) ours(n) // warm the JIT the way a long build would
const t0 = process.hrtime.bigint()
const c0 = process.cpuUsage()
let sink = 0
for (let i = 0; i < N; i++) sink += ours(notes[i % notes.length]).rationale.length
const ms = Number(process.hrtime.bigint() - t0) / 1e6
const cpu = process.cpuUsage(c0)
const cpuMs = (cpu.user + cpu.system) / 1000
console.log(
  `\nspeed: ${N} notes (cycling the ${notes.length} real ones, mean ${Math.round(notes.reduce((s, n) => s + n.notes.length, 0) / notes.length)} chars) on one core: ` +
    `${(cpuMs / 1000).toFixed(2)} s CPU, ${(ms / 1000).toFixed(2)} s wall (${((cpuMs * 1000) / N).toFixed(0)} µs CPU per note; target <= 5 s)` +
    (sink > 0 ? '' : ' (no output?)')
)

// --- Worst cases: hostile notes that hit slow paths of a Markdown lexer (each capped at 64 KiB by the classifier).
const hostile = {
  '10 MB of real notes': `${notes[0].notes}\n`.repeat(Math.ceil(10_000_000 / notes[0].notes.length)),
  '60 K of "*_a" lines': '*_a\n'.repeat(15_000),
  '20 K nested quotes': `${'> '.repeat(20_000)}x`,
  '3 K nested list items': Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i * 2)}- item ${i}`).join('\n'),
  '16 K headings': '# h\n'.repeat(16_000)
}
const worst = []
for (const [name, text] of Object.entries(hostile)) {
  const c = process.cpuUsage()
  const j = ours({ version: '1', notes: text })
  const u = process.cpuUsage(c)
  worst.push(`${name}: ${((u.user + u.system) / 1000).toFixed(0)} ms CPU (${j.safeToUpdate})`)
}
console.log(`worst-case single notes: ${worst.join('; ')}`)
