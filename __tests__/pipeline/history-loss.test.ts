// History is never dropped in silence (issue 48, item 4): a previous snapshot whose releases.json (or changes.json)
// is removed, corrupted, another app's, or a folder. Offline nothing can read it again: the build is refused (exit 1)
// and the old tree kept. With --refresh the judged history is read again from upstream; whatever is lost is named in
// the run's output, the job summary and status.json.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { main } from '../../src/commands.js'
import { buildSummary } from '../../src/output/job-summary.js'
import { releasesDocSchema, statusDocSchema, type ReleasesDoc, type StatusDoc } from '../../src/schema/index.js'
import type { Logger } from '../../src/util/types.js'
import { startFakeGitHub, type FakeGitHub, type FakeRepo } from '../support/fake-github.js'
import { tempDir } from '../support/tmp.js'

const TOKEN = 'ghs_historylosstesttoken0123456789'
const BASE = 'https://example.org/catalog'
// Made-up notes: fixes the classifier calls safe, and a removed setting it calls breaking.
const FIX = (n: number) => `## Bug fixes\n\n- The feed list keeps its sort order after a reload (made-up note ${n})`
const BREAKING =
  '## Breaking changes\n\n- The `DEMO_LISTEN` setting was removed. You must set `DEMO_PORT` instead before upgrading.'
const SEED = (slug: string, repo: string) => `name: ${slug}
repo: ${repo}
release:
  version: v1.0.0
  url: https://github.com/${repo}/releases/tag/v1.0.0
  date: 2026-10-01
  checked: 2026-11-01
`
/** The seeds' notes, read by an offline build from a notes file (records hold facts only). */
const SEED_NOTES = ['demo-org/demo', 'other-org/other']
  .map((repo) => JSON.stringify({ repo, version: 'v1.0.0', tag: 'v1.0.0', date: '2026-10-01', notes: FIX(0) }))
  .join('\n')

let dir: string
let cleanup: () => Promise<void>
let fake: FakeGitHub
let down: FakeGitHub

function repo(name: string, tags: [string, string, string][], extra: Partial<FakeRepo> = {}): FakeRepo {
  const [owner = '', n = ''] = name.split('/')
  return {
    owner,
    name: n,
    releases: tags.map(([tagName, createdAt, body]) => ({ tagName, createdAt, body })),
    ...extra
  }
}
const DEMO: [string, string, string][] = [
  ['v1.0.0', '2026-10-01T12:00:00Z', FIX(0)],
  ['v1.1.0', '2026-11-10T12:00:00Z', BREAKING],
  ['v1.2.0', '2026-11-20T12:00:00Z', FIX(2)]
]
const OTHER: [string, string, string][] = [['v1.0.0', '2026-10-01T12:00:00Z', FIX(0)]]

interface Run {
  status: number
  lines: string[]
}

async function run(args: string[], github: FakeGitHub | null = null): Promise<Run> {
  const lines: string[] = []
  const log: Logger = {
    info: (m) => lines.push(m),
    warning: (m) => lines.push(`warning: ${m}`),
    error: (m) => lines.push(`error: ${m}`)
  }
  const env = github
    ? { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: github.apiUrl, GITHUB_GRAPHQL_URL: github.graphqlUrl }
    : {}
  const status = await main(args, log, env, () => {})
  return { status, lines }
}

/** `build` of the catalog into `out`, with `previous`, as of `now`; refreshed from `github` when given. */
function build(out: string, now: string, previous: string | null, github: FakeGitHub | null = null): Promise<Run> {
  return run(
    [
      'build',
      '--catalog',
      path.join(dir, 'catalog'),
      '--out',
      path.join(dir, out),
      '--base-url',
      BASE,
      '--now',
      now,
      ...(previous ? ['--previous', path.join(dir, previous)] : []),
      ...(github ? ['--refresh'] : ['--notes-from', path.join(dir, 'notes.jsonl')])
    ],
    github
  )
}

async function checkFrom(out: string, from: string): Promise<number> {
  return (await run(['check', '--api', path.join(dir, out), '--from', from])).status
}

async function history(out: string): Promise<ReleasesDoc> {
  const text = await readFile(path.join(dir, out, 'api/v1/apps/demo/releases.json'), 'utf8')
  return releasesDocSchema.parse(JSON.parse(text))
}

async function status(out: string): Promise<StatusDoc> {
  return statusDocSchema.parse(JSON.parse(await readFile(path.join(dir, out, 'api/v1/status.json'), 'utf8')))
}

const RELEASES = 'api/v1/apps/demo/releases.json'
/** The four ways the red team lost demo's history in the previous snapshot. */
const DAMAGE: Record<string, (root: string) => Promise<void>> = {
  removed: (root) => rm(path.join(root, RELEASES)),
  corrupted: (root) => writeFile(path.join(root, RELEASES), '{"schema": "updatesafe.releases.v1", "slug": "de'),
  "another app's": (root) => cp(path.join(root, 'api/v1/apps/other/releases.json'), path.join(root, RELEASES)),
  'a folder': async (root) => {
    await rm(path.join(root, RELEASES))
    await mkdir(path.join(root, RELEASES))
  }
}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir())
  await mkdir(path.join(dir, 'catalog/apps'), { recursive: true })
  await writeFile(path.join(dir, 'catalog/apps/demo.yml'), SEED('demo', 'demo-org/demo'))
  await writeFile(path.join(dir, 'catalog/apps/other.yml'), SEED('other', 'other-org/other'))
  await writeFile(path.join(dir, 'notes.jsonl'), `${SEED_NOTES}\n`)
  fake = await startFakeGitHub({
    token: TOKEN,
    repos: [repo('demo-org/demo', DEMO.slice(0, 2)), repo('other-org/other', OTHER)]
  })
  // s1 from the seeds; s2 refreshed to the breaking v1.1.0; s3 refreshed to the fix v1.2.0 (GitHub has it now).
  expect((await build('s1', '2026-11-01T12:00:00.000Z', null)).status).toBe(0)
  expect((await build('s2', '2026-11-11T12:00:00.000Z', 's1', fake)).status).toBe(0)
  await fake.close()
  fake = await startFakeGitHub({ token: TOKEN, repos: [repo('demo-org/demo', DEMO), repo('other-org/other', OTHER)] })
  down = await startFakeGitHub({
    token: TOKEN,
    repos: [repo('demo-org/demo', DEMO, { hidden: true }), repo('other-org/other', OTHER)]
  })
  expect((await build('s3', '2026-11-21T12:00:00.000Z', 's2', fake)).status).toBe(0)
  expect((await history('s3')).releases.map((e) => e.version)).toEqual(['v1.2.0', 'v1.1.0', 'v1.0.0'])
  // The point of the history: from v1.0.0, the breaking v1.1.0 is crossed.
  expect(await checkFrom('s3', 'demo=v1.0.0')).toBe(1)
}, 60_000)
afterAll(async () => {
  await fake.close()
  await down.close()
  await cleanup()
})

/** Every file's path and bytes under `root`. */
async function treeHash(root: string): Promise<string> {
  const h = createHash('sha256')
  const entries = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
  for (const f of entries.map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort())
    h.update(`${f}\0`)
      .update(await readFile(path.join(root, f)))
      .update('\0')
  return h.digest('hex')
}

let n = 0
/** A copy of s3 with demo's history damaged, and an output folder holding a copy of s3 (the published tree). */
async function damaged(how: string): Promise<{ previous: string; out: string }> {
  const previous = `damaged-${++n}`
  const out = `out-${n}`
  await cp(path.join(dir, 's3'), path.join(dir, previous), { recursive: true })
  await cp(path.join(dir, 's3'), path.join(dir, out), { recursive: true })
  await DAMAGE[how]!(path.join(dir, previous))
  return { previous, out }
}

describe('a previous snapshot whose releases.json was lost', () => {
  for (const how of Object.keys(DAMAGE)) {
    it(`${how}: offline, the build is refused (exit 1) naming the file, and the old tree is kept`, async () => {
      const { previous, out } = await damaged(how)
      const before = await treeHash(path.join(dir, out))
      const r = await build(out, '2026-11-22T12:00:00.000Z', previous)
      expect(r.status).toBe(1)
      const named = r.lines.find((l) => l.startsWith('error:') && l.includes(path.join(dir, previous, RELEASES)))
      expect(named).toContain('would be lost')
      expect(await treeHash(path.join(dir, out))).toBe(before)
    })

    it(`${how}: with --refresh, the history is read again from upstream, and named as not carried over`, async () => {
      const { previous, out } = await damaged(how)
      const r = await build(out, '2026-11-22T12:00:00.000Z', previous, fake)
      expect(r.status).toBe(0)
      const h = await history(out)
      expect(h.slug).toBe('demo')
      expect(h.releases.map((e) => e.version)).toEqual(['v1.2.0', 'v1.1.0', 'v1.0.0'])
      expect(await checkFrom(out, 'demo=v1.0.0')).toBe(1)
      // Named in the run's output, in status.json, and (from the same result) in the job summary.
      expect(r.lines.some((l) => l.startsWith('warning: previous') && l.includes('read again from upstream'))).toBe(
        true
      )
      expect(r.lines.some((l) => l.includes(`history not carried over: ${RELEASES}`))).toBe(true)
      expect((await status(out)).historyReset).toEqual([
        { document: RELEASES, problem: expect.any(String), rebuilt: true }
      ])
    })
  }

  it('with --refresh and upstream failing for the app, the history starts again, and status.json says it was not rebuilt', async () => {
    const { previous, out } = await damaged('corrupted')
    const r = await build(out, '2026-11-22T12:00:00.000Z', previous, down)
    expect(r.status).toBe(0)
    expect((await status(out)).historyReset).toEqual([{ document: RELEASES, problem: 'is not JSON', rebuilt: false }])
    expect(r.lines.some((l) => l.includes(`the judged history of demo starts again from this run`))).toBe(true)
  })

  it('a snapshot from before the per-release history (no releases schema) starts it afresh offline, as before', async () => {
    const { previous, out } = await damaged('removed')
    await rm(path.join(dir, previous, 'api/v1/schema/releases.v1.json'))
    const r = await build(out, '2026-11-22T12:00:00.000Z', previous)
    expect(r.status).toBe(0)
    expect((await status(out)).historyReset).toBeUndefined()
  })
})

describe('a previous snapshot whose changes.json was lost', () => {
  it('offline, the build is refused (exit 1), and with --refresh the empty feeds are named in status.json', async () => {
    const { previous, out } = await damaged('removed')
    await cp(path.join(dir, 's3', RELEASES), path.join(dir, previous, RELEASES))
    await writeFile(path.join(dir, previous, 'api/v1/changes.json'), '[]')
    const before = await treeHash(path.join(dir, out))
    const offline = await build(out, '2026-11-22T12:00:00.000Z', previous)
    expect(offline.status).toBe(1)
    expect(offline.lines.some((l) => l.startsWith('error:') && l.includes('api/v1/changes.json'))).toBe(true)
    expect(await treeHash(path.join(dir, out))).toBe(before)

    const refreshed = await build(out, '2026-11-22T12:00:00.000Z', previous, fake)
    expect(refreshed.status).toBe(0)
    expect((await status(out)).historyReset).toEqual([
      { document: 'api/v1/changes.json', problem: expect.stringContaining('does not match'), rebuilt: false }
    ])
  })
})

describe('the job summary', () => {
  it('lists the histories not carried over', () => {
    const summary = buildSummary({
      count: 2,
      changes: [],
      stale: [],
      warnings: [],
      errors: [],
      refresh: true,
      stats: null,
      historyReset: [{ document: RELEASES, problem: 'is not JSON', rebuilt: true }]
    })
    expect(summary).toContain('1 histories not carried over')
    expect(summary).toContain('### History not carried over')
    expect(summary).toContain('api/v1/apps/demo/releases.json is not JSON; read again from upstream')
  })
})
