// template/: a catalog repository of its own, as a newcomer makes it. Copied into a fresh repository whose
// origin is a local bare repository, its publish workflow is run step by step as a runner would: the checkouts
// by hand, each `run:` step with bash, and the action's step as the CLI's build with the same inputs (the
// refresh against the local GitHub stand-in). Two runs: the first starts the Pages branch, the second finds
// nothing new.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { cp, readdir, readFile, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { parse } from 'yaml'
import { main } from '../src/commands.js'
import type { Logger } from '../src/util/types.js'
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js'
import { tempDir } from './support/tmp.js'

const TEMPLATE = path.resolve('template')
const WORKFLOW = path.join(TEMPLATE, '.github/workflows/publish.yml')

type Step = {
  name?: string
  uses?: string
  run?: string
  id?: string
  with?: Record<string, string>
  env?: Record<string, string>
}
type Workflow = { permissions: unknown; jobs: Record<string, { permissions: unknown; steps: Step[] }> }

let dir: string
let cleanup: () => Promise<void>
let remote: string
let work: string
let gitEnv: NodeJS.ProcessEnv
let fake: FakeGitHub
let endoflife: http.Server
let endoflifeUrl: string

function sh(cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...gitEnv, ...extra } })
  return { code: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout }
}
function git(args: string[], cwd = work): string {
  const r = sh('git', args, cwd)
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.out}`)
  return r.stdout.trim()
}

/** Every file of a folder, relative, dot files included. */
async function filesOf(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort()
}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-template-'))
  gitEnv = { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' }
  // The two apps' repositories on the GitHub stand-in, with made-up releases newer than the records' facts.
  fake = await startFakeGitHub({
    token: 'a-token',
    repos: [
      {
        owner: 'traefik',
        name: 'traefik',
        releases: [
          { tagName: 'v3.7.10', body: '## Bug fixes\n- Fix a made-up crash', createdAt: '2026-11-25T09:00:00Z' },
          // Another release line: the record's tagPattern keeps it out.
          { tagName: 'v2.11.51', body: '## Bug fixes\n- Fix', createdAt: '2026-11-26T09:00:00Z' }
        ]
      },
      {
        owner: 'miniflux',
        name: 'v2',
        releases: [
          { tagName: '2.2.12', body: '## Fixes\n- Fix a made-up feed error', createdAt: '2026-11-24T09:00:00Z' }
        ]
      }
    ]
  })
  // endoflife.date stand-in: no product known (the build keeps going without the lifecycle).
  endoflife = http.createServer((_req, res) => res.writeHead(404).end('{}'))
  await new Promise<void>((ok) => endoflife.listen(0, '127.0.0.1', ok))
  endoflifeUrl = `http://127.0.0.1:${(endoflife.address() as AddressInfo).port}`

  remote = path.join(dir, 'remote.git')
  work = path.join(dir, 'my-catalog')
  git(['init', '--quiet', '--bare', '--initial-branch=main', remote], dir)
  git(['clone', '--quiet', remote, work], dir)
  // What the template's README says: copy the folder, commit, push.
  await cp(TEMPLATE, work, { recursive: true })
  git(['add', '.'])
  git(['-c', 'user.name=Newcomer', '-c', 'user.email=n@example.org', 'commit', '--quiet', '-m', 'My catalog'])
  git(['push', '--quiet', 'origin', 'main'])
})
afterAll(async () => {
  await fake?.close()
  await new Promise((ok) => endoflife?.close(ok))
  await cleanup()
})

const workflow = async () => parse(await readFile(WORKFLOW, 'utf8')) as Workflow

/** `${{ runner.temp }}` as the runner has it; any other expression is a step output or a token, given here. */
function expand(value: string, runnerTemp: string, outputs: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) =>
    expr === 'runner.temp' ? runnerTemp : (outputs[expr] ?? '')
  )
}

const quiet: Logger = { info: () => {}, warning: () => {}, error: () => {} }

/** One run of the template's publish job, on a fresh runner. */
async function publishRun(day: string): Promise<string> {
  const runnerTemp = path.join(dir, 'runner-temp')
  await rm(runnerTemp, { recursive: true, force: true })
  await rm(path.join(work, '.updatesafe'), { recursive: true, force: true })
  git(['worktree', 'prune'])
  const outputs: Record<string, string> = {}
  const log: string[] = []
  for (const step of (await workflow()).jobs.publish!.steps) {
    if (step.uses?.startsWith('actions/checkout@')) {
      // The catalog is checked out already (the clone); updatesafe's scripts come from this repository.
      if (step.with?.path) await cp('scripts', path.join(work, step.with.path, 'scripts'), { recursive: true })
      continue
    }
    if (step.uses) {
      expect(step.uses).toMatch(/^OWNER\/updatesafe@v1$/)
      const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(v, runnerTemp, outputs)]))
      const lines: string[] = []
      const args = ['build', '--catalog', path.join(work, w.catalog!), '--out', w.output!, '--previous', w.previous!]
      const code = await main(
        [...args, ...(w.refresh === 'true' ? ['--refresh'] : []), '--now', `${day}T04:23:00.000Z`],
        { ...quiet, info: (m) => lines.push(m), error: (m) => lines.push(`error: ${m}`) },
        {
          GITHUB_ACTIONS: 'true',
          GITHUB_REPOSITORY: 'newcomer/my-catalog',
          GITHUB_TOKEN: 'a-token',
          GITHUB_API_URL: fake.apiUrl,
          GITHUB_GRAPHQL_URL: fake.graphqlUrl,
          ENDOFLIFE_API_URL: endoflifeUrl
        }
      )
      log.push(...lines)
      expect([code, lines.join('\n')]).toEqual([0, expect.stringContaining('wrote')])
      continue
    }
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, runnerTemp, outputs)]))
    const r = sh('bash', ['-c', step.run!], work, { RUNNER_TEMP: runnerTemp, ...env })
    log.push(r.out)
    if (r.code !== 0) throw new Error(`step "${step.name}" failed: ${r.out}`)
  }
  return log.join('\n')
}

describe('template/: a catalog repository of its own', () => {
  it('holds two apps, the publish workflow and its README, nothing else', async () => {
    expect(await filesOf(TEMPLATE)).toEqual([
      '.github/workflows/publish.yml',
      'README.md',
      'catalog/apps/miniflux.yml',
      'catalog/apps/traefik.yml'
    ])
  })

  it('records facts only, which validate accepts without a warning', async () => {
    const allowed = ['name', 'repo', 'images', 'lifecycle', 'tagPrefix', 'tagPattern', 'release']
    for (const f of await readdir(path.join(TEMPLATE, 'catalog/apps'))) {
      const record = parse(await readFile(path.join(TEMPLATE, 'catalog/apps', f), 'utf8')) as Record<string, unknown>
      for (const k of Object.keys(record)) expect([f, k, allowed.includes(k)]).toEqual([f, k, true])
      expect(Object.keys(record.release as object).sort()).toEqual(['checked', 'date', 'url', 'version'])
    }
    const lines: string[] = []
    const log: Logger = {
      info: (m) => lines.push(m),
      warning: (m) => lines.push(`warning: ${m}`),
      error: (m) => lines.push(m)
    }
    expect(await main(['validate', '--catalog', path.join(TEMPLATE, 'catalog')], log, {})).toBe(0)
    expect(lines).toEqual([`${path.join(TEMPLATE, 'catalog')}: 2 records, all valid`])
  })

  it('asks for the least it needs: nothing by default, contents: write and models: read to publish, actions: write to keep alive', async () => {
    const w = await workflow()
    expect(w.permissions).toEqual({})
    expect(w.jobs.publish!.permissions).toEqual({ contents: 'write', models: 'read' })
    expect(w.jobs['keep-alive']!.permissions).toEqual({ actions: 'write' })
    // The action gets only inputs it declares; the scripts are updatesafe's own, at the action's version.
    const declared = Object.keys((parse(await readFile('action.yml', 'utf8')) as { inputs: object }).inputs)
    const steps = Object.values(w.jobs).flatMap((j) => j.steps)
    for (const s of steps.filter((s) => s.uses?.includes('/updatesafe@')))
      for (const k of Object.keys(s.with ?? {})) expect([k, declared.includes(k)]).toEqual([k, true])
    for (const s of steps.filter((s) => s.with?.repository))
      expect(s.with).toMatchObject({ repository: 'OWNER/updatesafe', ref: 'v1', 'persist-credentials': false })
  })

  it('builds and publishes to the Pages branch of a new repository, and a quiet second run changes the run report', async () => {
    const first = await publishRun('2026-11-27')
    expect(first).toContain('gh-pages does not exist yet')
    const files = git(['ls-tree', '-r', '--name-only', 'gh-pages'], remote).split('\n')
    for (const f of ['.nojekyll', 'index.html', 'api/v1/apps.json', 'apps/traefik/index.html', 'badge/miniflux.svg'])
      expect(files).toContain(f)
    const apps = JSON.parse(git(['show', 'gh-pages:api/v1/apps.json'], remote)) as {
      apps: { slug: string; latestVersion: string; url: string; lastChecked: string }[]
    }
    // Fresh facts from the refresh; the v2 line stays out of Traefik's record.
    expect(apps.apps.map((a) => [a.slug, a.latestVersion, a.lastChecked])).toEqual([
      ['miniflux', '2.2.12', '2026-11-27'],
      ['traefik', 'v3.7.10', '2026-11-27']
    ])
    expect(apps.apps[0]!.url).toBe('https://newcomer.github.io/my-catalog/apps/miniflux/')
    // Read from upstream: no offline banner.
    expect(git(['show', 'gh-pages:index.html'], remote)).not.toContain('id="offline"')

    await publishRun('2026-11-28')
    const log = git(['log', '--format=%s', 'gh-pages'], remote).split('\n')
    expect(log).toEqual(['Publish run status: no app changed', 'Publish catalog: miniflux, traefik'])
  })
})

describe('the template catalog built offline, as the README’s preview does before any token', () => {
  it('builds from the records’ facts and says they are offline data, as of the day they were checked', async () => {
    const out = path.join(dir, 'preview')
    const lines: string[] = []
    const log: Logger = {
      info: (m) => lines.push(m),
      warning: (m) => lines.push(`warning: ${m}`),
      error: (m) => lines.push(m)
    }
    const args = ['build', '--catalog', path.join(TEMPLATE, 'catalog'), '--out', out, '--now', '2026-11-27']
    expect(await main(args, log, { ENDOFLIFE_API_URL: endoflifeUrl })).toBe(0)
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain(
      '<strong>Offline data, as of 2026-11-21.</strong>'
    )
  })
})
