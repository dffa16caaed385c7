// Trains the release-notes model from the dev labels and writes src/classify/model.json
// (deterministic: the same labels give the same bytes). Prints the figures cross-validated by app.
//   node --import tsx scripts/train.mjs            (npm run train)
//   node --import tsx scripts/train.mjs --check    (exit 1 when the committed file differs)
import { readFileSync, writeFileSync } from 'node:fs'
import { serialise, train } from '../src/classify/train.ts'

// The shared data set, read in place beside the checkout (never copied into the repository).
const dir = new URL('../../shared/data/release-notes/', import.meta.url)
const out = new URL('../src/classify/model.json', import.meta.url)
const t0 = Date.now()
const { model } = train(dir)
const text = serialise(model)
const h = model.header
console.log(
  `trained on ${h.labels.entries} labels of ${h.labels.apps} apps in ${((Date.now() - t0) / 1000).toFixed(1)} s; ` +
    `${Object.keys(model.weights).length} features; thresholds ${JSON.stringify(h.thresholds)}`
)
console.log(`cross-validated by app (${h.training.folds} folds): ${JSON.stringify(h.cv)}`)
console.log(`in-sample:         ${JSON.stringify(h.inSample)}`)
if (process.argv.includes('--check')) {
  const same = readFileSync(out, 'utf8') === text
  console.log(same ? 'src/classify/model.json is up to date' : 'src/classify/model.json DIFFERS: run npm run train')
  process.exit(same ? 0 : 1)
}
writeFileSync(out, text)
console.log(`wrote src/classify/model.json (${text.length} bytes)`)
