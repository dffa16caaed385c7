// One timed run of the classifier's speed target, in a process of its own: 10,000 classifications
// cycling through the real notes, as a build classifies (a fresh process that does nothing else;
// bench/classifier.mjs's own process holds every fold's model and has taught the JIT the training code).
// Started by bench/classifier.mjs, pinned to one CPU when taskset is there, so the garbage collector's
// and the compiler's threads share that core and count against the target. Prints one JSON line.
//   node --import tsx bench/support/classify-speed.mjs [N]
import { readFileSync } from 'node:fs'
import { classifyReleases } from '../../src/classify/index.ts'

const N = Number(process.argv[2] ?? 10_000)
const notes = readFileSync(new URL('../../../shared/data/release-notes/notes.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l))
const classify = (n) => classifyReleases({ releases: [{ version: n.version, notes: n.notes }] })
for (const n of notes) classify(n) // warm the JIT the way the first apps of a build do
let sink = 0
const t0 = process.hrtime.bigint()
const c0 = process.cpuUsage()
for (let i = 0; i < N; i++) sink += classify(notes[i % notes.length]).rationale.length
const cpu = process.cpuUsage(c0)
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6
if (sink === 0) throw new Error('no output')
console.log(
  JSON.stringify({
    n: N,
    notes: notes.length,
    meanChars: Math.round(notes.reduce((s, n) => s + n.notes.length, 0) / notes.length),
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs
  })
)
