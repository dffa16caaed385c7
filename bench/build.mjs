// Build benchmark: a synthetic catalog of N apps whose notes cycle through real
// release notes, built by the committed CLI bundle exactly as a user runs it.
// Prints wall time, peak RSS, file count, the time `cp -r` takes to copy the
// produced tree, and the ratio of the two.
//   node --import tsx bench/build.mjs [--apps 10000,20000] [--runs 2] [--keep]
// Targets: at 10,000 apps ≤ 2× the copy time and ≤ 300 MB peak RSS (the highest of the runs);
// 20,000 apps ≤ 2.2× the 10,000-app time.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { stringify } from 'yaml'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({ options: { apps: { type: 'string', default: '10000,20000' }, runs: { type: 'string', default: '2' }, keep: { type: 'boolean', default: false } } })
const runs = Math.max(1, Number(values.runs))
const sizes = values.apps.split(',').map(Number)
const cli = path.join(root, 'dist/cli/index.js')
const notes = readFileSync(path.join(root, '__tests__/fixtures/release-notes/notes.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l))

function makeCatalog(dir, n) {
  mkdirSync(path.join(dir, 'apps'), { recursive: true })
  for (let i = 0; i < n; i++) {
    const real = notes[i % notes.length]
    const id = String(i).padStart(6, '0')
    const record = {
      name: `${real.app} ${id}`,
      repo: `bench-owner/app-${id}`,
      release: {
        version: real.version,
        url: `https://github.com/bench-owner/app-${id}/releases/tag/${encodeURIComponent(real.tag ?? real.version)}`,
        ...(real.date ? { date: real.date } : {}),
        notes: real.notes,
        checked: '2026-11-21'
      }
    }
    writeFileSync(path.join(dir, 'apps', `app-${id}.yml`), stringify(record))
  }
}

function countFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length
}

function timed(cmd, args, opts = {}) {
  const start = process.hrtime.bigint()
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr.slice(-4000)}`)
  return { ms, stderr: r.stderr }
}

// The disk of a shared VM is noisy (deletes trigger discards that slow later
// writes), so each size is built and copied `--runs` times, alternating, after
// a sync; the fastest of each is compared.
const results = []
for (const n of sizes) {
  const work = mkdtempSync(path.join(os.tmpdir(), `updatesafe-bench-${n}-`))
  const catalog = path.join(work, 'catalog')
  makeCatalog(catalog, n)
  let best = null
  for (let run = 0; run < runs; run++) {
    const out = path.join(work, `site-${run}`)
    spawnSync('sync')
    const b = timed(process.execPath, ['--import', path.join(root, 'bench/support/report-rss.mjs'), cli, 'build', '--catalog', catalog, '--out', out, '--base-url', 'https://bench.example.org/catalog', '--now', '2026-11-21T12:00:00.000Z'])
    const rssKb = Number(/BENCH_MAXRSS_KB=(\d+)/.exec(b.stderr)?.[1] ?? NaN)
    spawnSync('sync')
    const c = timed('cp', ['-r', out, path.join(work, `copy-${run}`)])
    const r = { buildMs: b.ms, copyMs: c.ms, rssMb: rssKb / 1024 }
    console.log(`  ${n} apps, run ${run + 1}: build ${(r.buildMs / 1000).toFixed(2)} s, cp -r ${(r.copyMs / 1000).toFixed(2)} s, peak RSS ${r.rssMb.toFixed(0)} MB`)
    best = best ? { buildMs: Math.min(best.buildMs, r.buildMs), copyMs: Math.min(best.copyMs, r.copyMs), rssMb: Math.max(best.rssMb, r.rssMb) } : r
  }
  const files = countFiles(path.join(work, 'site-0'))
  results.push({ n, files, ...best })
  console.log(
    `${n} apps: build ${(best.buildMs / 1000).toFixed(2)} s, peak RSS ${best.rssMb.toFixed(0)} MB, ${files} files; ` +
      `cp -r ${(best.copyMs / 1000).toFixed(2)} s; build/copy ${(best.buildMs / best.copyMs).toFixed(2)}× (fastest of ${runs})`
  )
  if (values.keep) console.log(`  kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
const at = (n) => results.find((r) => r.n === n)
if (at(10000)) {
  const r = at(10000)
  console.log(`target 10,000 apps: build/copy ${(r.buildMs / r.copyMs).toFixed(2)}× (≤ 2×) ${r.buildMs <= 2 * r.copyMs ? 'PASS' : 'FAIL'}; peak RSS ${r.rssMb.toFixed(0)} MB (≤ 300) ${r.rssMb <= 300 ? 'PASS' : 'FAIL'}`)
}
if (at(10000) && at(20000)) {
  const ratio = at(20000).buildMs / at(10000).buildMs
  console.log(`target 20,000 / 10,000 apps: ${ratio.toFixed(2)}× (≤ 2.2×) ${ratio <= 2.2 ? 'PASS' : 'FAIL'}`)
}
