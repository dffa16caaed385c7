// The PR gate's reading of a pull request: N changed Compose files (each bumping one image) in a
// real git repository, read by changedImages at the merge base and the head. Prints the min and
// median of several runs for each N:
//   node --import tsx bench/check-gate.mjs [--files 400,3000] [--runs 3] [--root DIR] [--max-files N]
// `--root` takes the sources of another checkout (e.g. the code before a change) to compare;
// `--max-files` raises the gate's cap on files read (1,000), to time reading them all.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { median } from './support/median.mjs'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt
}
const SIZES = opt('files', '400,3000').split(',').map(Number)
const RUNS = Number(opt('runs', '3'))
const ROOT = path.resolve(opt('root', '.'))
const MAX_FILES = opt('max-files', null)
const { changedImages } = await import(pathToFileURL(path.join(ROOT, 'src/check/changes.ts')).href)

const env = {
  PATH: process.env.PATH ?? '',
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@example.invalid',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: os.tmpdir()
}
const git = (cwd, ...a) => execFileSync('git', a, { cwd, env, encoding: 'utf8' }).trim()
const compose = (i, tag) =>
  `services:\n  app${i}:\n    image: gogs/gogs:${tag}\n  db${i}:\n    image: postgres:16.4\n    environment:\n      POSTGRES_DB: app${i}\n`

function repo(n) {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'updatesafe-bench-gate-'))
  git(cwd, 'init', '-q', '-b', 'main')
  const write = (tag) => {
    for (let i = 0; i < n; i++) {
      const dir = path.join(cwd, `stack${Math.floor(i / 100)}`)
      mkdirSync(dir, { recursive: true })
      writeFileSync(path.join(dir, `compose-${i}.yml`), compose(i, tag))
    }
    git(cwd, 'add', '-A')
    git(cwd, 'commit', '-q', '-m', tag)
    return git(cwd, 'rev-parse', 'HEAD')
  }
  const base = write('0.14.3')
  git(cwd, 'checkout', '-q', '-b', 'bump')
  return { cwd, base, head: write('0.15.1') }
}

console.log(`sources: ${ROOT}`)
for (const n of SIZES) {
  const r = repo(n)
  const times = []
  let found
  for (let k = 0; k < RUNS; k++) {
    const t0 = performance.now()
    found = await changedImages(r.cwd, r.base, r.head, MAX_FILES ? { maxFiles: Number(MAX_FILES) } : {})
    times.push((performance.now() - t0) / 1000)
  }
  const notRead = found.notRead?.length ?? 0
  console.log(
    `${n} changed files: min ${Math.min(...times).toFixed(2)} s, median ${median(times).toFixed(2)} s ` +
      `(${RUNS} runs; ${found.changes.length} changes found, ${notRead} files listed as not read)`
  )
  rmSync(r.cwd, { recursive: true, force: true })
}
