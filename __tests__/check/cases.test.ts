// The six cases of issue 58, each a local git repository with a base and a head commit, run through the check
// action as the runner runs it (a child process, INPUT_* variables, GITHUB_EVENT_PATH with a pull_request
// payload, GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files, annotations on stdout) against a snapshot folder of
// made-up apps (../support/mini-snapshot.ts) whose releases carry the shapes of the real pull requests.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { runCheckAction, type CheckRun } from '../support/check-action.js'
import { prRepository } from '../support/git.js'
import { APPS } from '../support/made-up-apps.js'
import { writeMiniSnapshot } from '../support/mini-snapshot.js'
import { tempDir } from '../support/tmp.js'

// The bundled action, as check/action.yml runs it (CI fails when dist/ is not what the sources build).
const ENTRY = path.resolve('dist/check/index.js')
const REPO = 'someone/homelab'
const D = (c: string) => `sha256:${c.repeat(64)}`

let dir: string
let cleanup: () => Promise<void>
let api: string
let runs = 0

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-cases-'))
  api = path.join(dir, 'snapshot')
  await writeMiniSnapshot(api, APPS)
})
afterAll(() => cleanup())

async function repoWith(name: string, base: Record<string, string>, head: Record<string, string>) {
  const r = await prRepository(dir, name, base, head)
  return { cwd: r.cwd, base: r.base, head: r.heads[0]! }
}

async function runAction(r: { cwd: string; base: string; head: string }, inputs: Record<string, string> = {}) {
  const n = ++runs
  // No token: no comment is written; the summary, the annotations and the outputs carry the result.
  return runCheckAction({
    dir,
    n,
    argv: [ENTRY],
    ...r,
    repo: REPO,
    apiUrl: 'http://127.0.0.1:9',
    inputs: { api, 'fail-on': 'breaking', 'allow-urgent': 'false', 'github-token': '', ...inputs }
  })
}

const output = (run: CheckRun, name: string) => new RegExp(`^${name}<<.*\\n(.*)\\n`, 'm').exec(run.outputs)?.[1]
const COMPOSE = (image: string) => `services:\n  app:\n    image: ${image}\n`
const DEPLOYMENT = (image: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  template:\n    spec:\n      containers:\n        - name: app\n          image: ${image}\n`
const VALUES = (repository: string, tag: string) => `app:\n  image:\n    repository: ${repository}\n    tag: ${tag}\n`

describe('the six cases of issue 58, through the check action', () => {
  it('1. a Dockerfile FROM bump across a breaking release fails', async () => {
    const r = await repoWith(
      'dockerfile',
      { Dockerfile: 'FROM example/metrics:v3.13.0\nRUN true\n' },
      { Dockerfile: 'FROM example/metrics:v3.14.0\nRUN true\n' }
    )
    const run = await runAction(r)
    expect(run.code).toBe(1)
    expect(output(run, 'worst')).toBe('breaking')
    expect(output(run, 'judged')).toBe('1')
  }, 60_000)

  it('2. a tag unlike its release label: the breaking release between is found, and fails', async () => {
    const r = await repoWith(
      'tag-unlike-label',
      { 'compose.yml': COMPOSE('ghcr.io/example/calver:v0.2601.0') },
      { 'compose.yml': COMPOSE('ghcr.io/example/calver:v0.2602.0') }
    )
    const run = await runAction(r)
    expect(run.code).toBe(1)
    expect(output(run, 'worst')).toBe('breaking')
    expect(run.summary).toMatch(/\| calver \| v0\.2601\.0 → v0\.2602\.0 \| breaking \| breaking \(v26\.02\) \|/)
  }, 60_000)

  it('3. a floating tag is the newest release of its line: v3.6 → v3.7 does not cross 3.6.x again', async () => {
    const r = await repoWith(
      'floating',
      { 'k8s/proxy.yaml': DEPLOYMENT('example/proxy:v3.6') },
      { 'k8s/proxy.yaml': DEPLOYMENT('example/proxy:v3.7') }
    )
    const run = await runAction(r)
    expect(run.code).toBe(0)
    expect(output(run, 'worst')).toBe('caution')
    expect(run.summary).toMatch(/\| proxy \| v3\.6 → v3\.7 \| caution \| caution \(v3\.7\.0\) \|/)
    expect(run.summary).not.toContain('v3.6.1')
  }, 60_000)

  it('4. a digest moved under a floating tag is unknown, never "version stays" safe', async () => {
    const r = await repoWith(
      'digest',
      { 'compose.yml': COMPOSE(`example/cache:7.2-alpine@${D('a')}`) },
      { 'compose.yml': COMPOSE(`example/cache:7.2-alpine@${D('b')}`) }
    )
    const run = await runAction(r)
    expect(run.code).toBe(0)
    expect(output(run, 'worst')).toBe('unknown')
    expect(run.summary).toMatch(/\| cache \| 7\.2 → 7\.2 \| unknown \| unknown \| .*floating tag 7\.2 moved/)
    const strict = await runAction(r, { 'fail-on': 'unknown' })
    expect(strict.code).toBe(1)
  }, 60_000)

  it('5. a tag naming no version is shown as written, not as the catalog’s latest', async () => {
    const r = await repoWith(
      'no-version',
      { 'helm/values.yaml': VALUES('example/cache', '7.2.1-alpine') },
      { 'helm/values.yaml': VALUES('example/cache', 'latest-alpine') }
    )
    const run = await runAction(r)
    expect(run.code).toBe(0)
    expect(output(run, 'worst')).toBe('unknown')
    expect(run.summary).toMatch(/\| cache \| 7\.2\.1 → latest-alpine \| unknown \|/)
    expect(run.summary).not.toContain('→ 7.4.0')
  }, 60_000)

  it('6. an update of the major version the catalog cannot judge fails, with its reason, unless allowed', async () => {
    const r = await repoWith(
      'unjudged-major',
      { 'compose.yml': COMPOSE('example/store:7.1') },
      { 'compose.yml': COMPOSE('example/store:8.4.0') }
    )
    const run = await runAction(r)
    expect(run.code).toBe(1)
    expect(output(run, 'worst')).toBe('breaking')
    expect(run.stdout).toMatch(
      /^::error title=updatesafe%3A store,file=compose\.yml,line=3::store 7\.1 → 8\.4\.0: breaking: The update changes the major version and the catalog cannot judge it/m
    )
    const allowed = await runAction(r, { 'allow-unjudged-major': 'true' })
    expect(allowed.code).toBe(0)
    expect(output(allowed, 'worst')).toBe('unknown')
    expect(allowed.summary).toContain('allow-unjudged-major')
  }, 60_000)
})
