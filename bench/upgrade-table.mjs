// The verdict from every judged release to the latest, as each app page's "Upgrading from an older version?"
// table computes it (verdictFrom once a row): HISTORY_MAX (50) releases an app, for N apps. Prints the min and
// median milliseconds of several runs:
//   node --import tsx bench/upgrade-table.mjs [--apps 1240] [--runs 5] [--root DIR]
// `--root` takes the sources of another checkout (e.g. the code before a change, from `git archive`) to compare.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { median } from './support/median.mjs'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt
}
const APPS = Number(opt('apps', '1240'))
const RUNS = Number(opt('runs', '5'))
const ROOT = path.resolve(opt('root', '.'))
const { verdictFrom } = await import(pathToFileURL(path.join(ROOT, 'src/classify/upgrade.ts')).href)

const CLASSES = ['safe', 'safe', 'caution', 'breaking', 'unknown']
/** 50 releases newest first over three majors, a class each in turn. */
const history = Array.from({ length: 50 }, (_, i) => {
  const n = 49 - i
  const version = `v${1 + Math.floor(n / 20)}.${Math.floor(n / 5) % 4}.${n % 5}`
  const cls = CLASSES[n % CLASSES.length]
  return {
    version,
    tag: version,
    date: null,
    url: `https://example.invalid/${version}`,
    safeToUpdate: cls,
    rationale: `${cls} in ${version}`,
    evidence: 'e',
    quote: null,
    security: false,
    breakingKind: cls === 'breaking' ? 'required' : null,
    basis: '00000000.00000000.000000000000',
    judge: 'rules',
    rules: cls,
    model: null
  }
})

const times = []
for (let r = 0; r < RUNS; r++) {
  const t = performance.now()
  for (let a = 0; a < APPS; a++)
    for (const e of history) verdictFrom(history, e.version, { latest: history[0].version, gaps: [] })
  times.push(performance.now() - t)
}
times.sort((x, y) => x - y)
console.log(
  `${APPS} apps x ${history.length} rows (${ROOT}): min ${times[0].toFixed(0)} ms, median ${median(times).toFixed(0)} ms (${RUNS} runs)`
)
