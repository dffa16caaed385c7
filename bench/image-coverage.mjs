// How much of what homelabs update `check` maps to a catalog app: one Compose file naming every image of the data
// set's homelab-usage.jsonl (one service each), run through the real CLI (`build` of the catalog, offline, then
// `check --compose --json` against that snapshot). Prints the share of images and of updates (weighted by `bumps`)
// mapped to an app, and the unmapped images with the most updates:
//   node --import tsx bench/image-coverage.mjs [--catalog DIR] [--usage FILE] [--top N]
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sharedPath } from '../__tests__/support/shared-data.ts'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt
}
const CATALOG = path.resolve(opt('catalog', 'catalog'))
const USAGE = path.resolve(opt('usage', sharedPath('images/homelab-usage.jsonl')))
const TOP = Number(opt('top', '25'))
const CLI = path.resolve('src/cli.ts')

const usage = readFileSync(USAGE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l))
const dir = mkdtempSync(path.join(os.tmpdir(), 'updatesafe-coverage-'))
try {
  // A representative tag: a version, so the service is a pinned one as Renovate keeps them.
  const compose = `services:\n${usage.map((u, i) => `  s${i}:\n    image: ${JSON.stringify(`${u.image}:1.0.0`)}\n`).join('')}`
  const file = path.join(dir, 'compose.yml')
  writeFileSync(file, compose)
  const run = (...a) =>
    execFileSync(process.execPath, ['--import', 'tsx', CLI, ...a], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe']
    })
  const site = path.join(dir, 'site')
  try {
    run('build', '--catalog', CATALOG, '--out', site, '--base-url', 'https://example.org/updatesafe')
  } catch (e) {
    // The build's own words say what in the catalog stopped it.
    process.stderr.write(String(e.stderr ?? '').slice(-4000))
    throw new Error(`updatesafe build of ${CATALOG} failed (status ${e.status}); run it by hand to see why`)
  }
  let out
  try {
    out = run('check', '--api', site, '--compose', file, '--json', '--fail-on', 'never')
  } catch (e) {
    out = e.stdout // a gate status other than 0 still prints the document
  }
  const result = JSON.parse(out)
  const mapped = new Map()
  for (const a of result.apps) {
    const i = Number(a.source.service.slice(1))
    mapped.set(i, [...(mapped.get(i) ?? []), a.slug])
  }
  const total = usage.reduce((s, u) => s + u.bumps, 0)
  const hit = usage.reduce((s, u, i) => s + (mapped.has(i) ? u.bumps : 0), 0)
  const apps = new Set([...mapped.values()].flat())
  const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`
  console.log(`catalog: ${CATALOG}`)
  console.log(`images mapped to an app: ${mapped.size} of ${usage.length} (${pct(mapped.size, usage.length)})`)
  console.log(`updates mapped (weighted by bumps): ${hit} of ${total} (${pct(hit, total)}), to ${apps.size} apps`)
  console.log(`top unmapped images by bumps:`)
  usage
    .map((u, i) => ({ ...u, i }))
    .filter((u) => !mapped.has(u.i))
    .sort((a, b) => b.bumps - a.bumps)
    .slice(0, TOP)
    .forEach((u) => console.log(`  ${String(u.bumps).padStart(5)}  ${u.image}`))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
