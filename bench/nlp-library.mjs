// What an NLP library would cost the classifier: wink-nlp with its English model (the one issue 19 names)
// reading the same lines the detectors read, for part-of-speech tags and negation. Not a dependency of the
// project; install it without saving, then run:
//   npm i --no-save wink-nlp wink-eng-lite-web-model && taskset -c 0 node --import tsx bench/nlp-library.mjs
// Prints the model's load time, the time to tag the lines of 10,000 notes (cycling the 707 real ones) on one
// core, and how its negation flags compare with the classifier's own `negated` modifier.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parseUnits } from '../src/classify/blocks.ts'
import { detect } from '../src/classify/detectors.ts'
import { cleanNotes } from '../src/classify/text.ts'

const require = createRequire(import.meta.url)
let winkNLP, model
try {
  winkNLP = require('wink-nlp')
  model = require('wink-eng-lite-web-model')
} catch {
  console.error('wink-nlp is not installed: npm i --no-save wink-nlp wink-eng-lite-web-model')
  process.exit(2)
}

const notes = readFileSync(new URL('../../shared/data/release-notes/notes.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l))
// The lines the detectors read: every unit but headings and code.
const lines = notes.map((n) =>
  parseUnits(cleanNotes(n.notes).text)
    .filter((u) => u.kind !== 'heading' && u.kind !== 'code')
    .map((u) => u.text)
)

const t0 = process.hrtime.bigint()
const nlp = winkNLP(model)
const loadMs = Number(process.hrtime.bigint() - t0) / 1e6
const its = nlp.its

const tag = (line) => {
  const tokens = nlp.readDoc(line).tokens()
  return { pos: tokens.out(its.pos), negated: tokens.out(its.negationFlag).some(Boolean), n: tokens.length() }
}
for (const ls of lines) for (const l of ls) tag(l) // warm up
let tokens = 0
const c0 = process.cpuUsage()
for (const ls of lines) for (const l of ls) tokens += tag(l).n
const c = process.cpuUsage(c0)
const cpuMs = (c.user + c.system) / 1000
const units = lines.reduce((s, ls) => s + ls.length, 0)
console.log(
  `wink-nlp ${require('wink-nlp/package.json').version}, wink-eng-lite-web-model ${require('wink-eng-lite-web-model/package.json').version}: ` +
    `model loads in ${loadMs.toFixed(0)} ms (the classifier's own target: 50 ms)`
)
console.log(
  `tagging the ${units} lines of the ${notes.length} real notes (${tokens} tokens): ${cpuMs.toFixed(0)} ms CPU, ` +
    `${((cpuMs / notes.length) * 10).toFixed(1)} s per 10,000 notes (the whole classifier's target: 5 s)`
)

// Negation: wink's flag against the classifier's `negated` modifier, line by line.
let both = 0
let oursOnly = 0
let winkOnly = 0
const winkOnlyLines = []
for (const ls of lines)
  for (const l of ls) {
    const ours = detect(l).some((h) => h.detector.name === 'negated')
    const theirs = tag(l).negated
    if (ours && theirs) both++
    else if (ours) oursOnly++
    else if (theirs) {
      winkOnly++
      if (winkOnlyLines.length < 5) winkOnlyLines.push(l.slice(0, 100))
    }
  }
console.log(
  `negation: wink flags ${both + winkOnly} of ${units} lines, the classifier's \`negated\` ${both + oursOnly}; ` +
    `both ${both}, wink only ${winkOnly}, ours only ${oursOnly}. Lines only wink flags, for example:\n  ` +
    winkOnlyLines.join('\n  ')
)
