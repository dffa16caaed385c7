// Issue 56's "done when": a catalog of N apps (release-less, archived, hidden, cut-off, renamed, hostile and huge
// notes among them; __tests__/support/chaos-fleet.ts) against the local GitHub stand-in, four daily runs:
//   1. a first refresh, 2. (a) a refresh the next day (new releases), 3. (b) a frozen upstream (the stand-in
//   answers as the day before), 4. (c) offline (no refresh), each from the snapshot before,
// each with the given share of requests failing (502, 500, secondary limits, resets; not the offline one).
//   node --import tsx bench/chaos.mjs [--apps 1000] [--fault-rate 0.15] [--seed 7] [--poison-every 1000]
// --poison-every: one app in that many whose answers arrive cut off, and one GraphQL cannot answer (see README).
// Prints, per run: wall time, apps published, stale, left out, record faults, apps lost (published by any run
// before and missing now) and records the frozen and offline runs changed.
// Targets: every run publishes, 0 apps lost, 0 record faults, 0 records changed by the frozen and offline runs.
import { rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { mkdtemp } from 'node:fs/promises'
import { fleet, lost, runDay } from '../__tests__/support/chaos-fleet.ts'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : dflt
}
const APPS = opt('apps', 1000)
const FAULT_RATE = opt('fault-rate', 0.15)
const SEED = opt('seed', 7)
const POISON_EVERY = opt('poison-every', 1000)

const dir = await mkdtemp(path.join(os.tmpdir(), 'updatesafe-chaos-'))
const apps = fleet(APPS, { poisonEvery: POISON_EVERY })
const at = (d) => new Date(Date.UTC(2026, 10, d, 6))
const up = (day, seed) => ({ fleet: apps, day, faultRate: FAULT_RATE, seed })
const plan = [
  ['first refresh', { name: 'd1', now: at(1), upstream: up(1, SEED) }],
  ['(a) refresh, faulty', { name: 'd2', now: at(2), previous: 'd1', upstream: up(2, SEED + 1) }],
  ['(b) frozen upstream', { name: 'd3', now: at(3), previous: 'd2', upstream: up(2, SEED + 2) }],
  ['(c) offline', { name: 'd4', now: at(4), previous: 'd3' }]
]

const kinds = new Map()
for (const kind of apps.kinds.values()) kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
console.log(`${APPS} apps, ${Math.round(FAULT_RATE * 100)}% of requests failing, seed ${SEED}`)
console.log(`  ${[...kinds].map(([k, c]) => `${k} ${c}`).join(', ')}`)
const seen = new Map()
let failed = false
try {
  for (const [label, opts] of plan) {
    let day
    try {
      day = await runDay(apps, { dir, ...opts })
    } catch (e) {
      console.log(`${label}: FAILED, nothing published: ${e.message.split('\n')[0]}`)
      failed = true
      break
    }
    const missing = lost(
      [...seen.keys()].map((slug) => ({ slug })),
      day.apps
    )
    const changed = day.result.changes.filter((c) => c.before !== null).length
    const frozenOrOffline = opts.name === 'd3' || opts.name === 'd4'
    console.log(
      `${label.padEnd(22)} ${(day.ms / 1000).toFixed(1).padStart(5)} s  published ${day.apps.length}  ` +
        `stale ${day.result.stale.length}  left out ${day.result.leftOut.length}  record faults ${day.result.faults.length}  ` +
        `lost ${missing.length}${frozenOrOffline ? `  records changed ${changed}` : ''}`
    )
    if (missing.length > 0 || day.result.faults.length > 0 || (frozenOrOffline && changed > 0)) failed = true
    for (const a of day.apps) seen.set(a.slug, a.latestVersion)
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}
console.log(failed ? 'target missed' : 'target met: every run published, 0 apps lost')
process.exitCode = failed ? 1 : 0
