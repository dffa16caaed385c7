// Prints how long `parseRecord` takes to refuse a record of N unknown keys (and of N keys after a YAML error), for
// N = 10,000, 20,000 and 40,000: the time should grow in proportion to N (it once took 38 s at 40,000).
// Run: node --import tsx bench/record-parse.mjs [runs=5]   (min and median of the runs, in ms, and their ratio to N)
import { parseRecord } from '../src/catalog/load.ts'

const RUNS = Number(process.argv[2] ?? 5)
const keys = (n) => Array.from({ length: n }, (_, i) => `k${i}: v`).join('\n')
const shapes = {
  'unknown keys': (n) => `name: X\nrepo: a/b\n${keys(n)}\n`,
  'after a YAML error': (n) => `name: X\nrepo: [a\n${keys(n)}\n`
}
parseRecord(shapes['unknown keys'](100), 'warm.yml')
for (const [shape, text] of Object.entries(shapes)) {
  for (const n of [10_000, 20_000, 40_000]) {
    const body = text(n)
    const times = []
    for (let r = 0; r < RUNS; r++) {
      const start = performance.now()
      parseRecord(body, 'a.yml')
      times.push(performance.now() - start)
    }
    times.sort((a, b) => a - b)
    const median = times[Math.floor(times.length / 2)]
    console.log(
      `${shape.padEnd(18)} N=${String(n).padStart(6)}  min ${times[0].toFixed(0).padStart(5)} ms  median ${median.toFixed(0).padStart(5)} ms  µs per key ${((median * 1000) / n).toFixed(1)}`
    )
  }
}
