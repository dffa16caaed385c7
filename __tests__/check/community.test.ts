// Community builds end to end: a catalog of one app with a LinuxServer and a home-operations build, built twice
// (the second run refreshed by a stand-in for GitHub), then `updatesafe check --compose` and the PR gate on it.
// The tags are real ones of those publishers; the notes are made up.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { changedImages } from '../../src/check/changes.js'
import { gateStatus } from '../../src/check/gate.js'
import { runCheck } from '../../src/check/report.js'
import { snapshotReader } from '../../src/check/snapshot.js'
import { main } from '../../src/commands.js'
import type { Logger } from '../../src/util/types.js'
import { builder, FIX, release, upstreamOf } from '../support/demo-chain.js'
import { tempDir } from '../support/tmp.js'
import { testGit } from '../support/git.js'

const REPO = 'Sonarr/Sonarr'
const SONARR = `name: Sonarr
repo: ${REPO}
community:
  - image: lscr.io/linuxserver/sonarr
    tags: linuxserver
    channel: stable
  - image: ghcr.io/home-operations/sonarr
    tags: home-operations
    channel: develop
release:
  version: v4.0.14.2939
  url: https://github.com/${REPO}/releases/tag/v4.0.14.2939
  date: 2026-10-01
  checked: 2026-11-01
`
const SEED_NOTES = '## Fixes\n\n- Series posters no longer flicker when the calendar view reloads'

let dir: string
let cleanup: () => Promise<void>
let snapshot: string
const quiet: Logger = { info: () => {}, warning: () => {}, error: () => {} }

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-community-'))
  await mkdir(path.join(dir, 'catalog/apps'), { recursive: true })
  await writeFile(path.join(dir, 'catalog/apps/sonarr.yml'), SONARR)
  await writeFile(
    path.join(dir, 'notes.jsonl'),
    `${JSON.stringify({ id: 'sonarr@v4.0.14.2939', slug: 'sonarr', repo: REPO, version: 'v4.0.14.2939', tag: 'v4.0.14.2939', date: '2026-10-01', notes: SEED_NOTES })}\n`
  )
  const at = builder(dir, 'https://example.org/updatesafe', quiet)
  const sonarr = (v: string, date: string) => release(v, FIX, date, REPO)
  await at('s1', '2026-11-21T12:00:00.000Z')
  await at(
    's2',
    '2026-11-28T12:00:00.000Z',
    's1',
    upstreamOf({ [REPO]: [sonarr('v4.0.15.2941', '2026-11-26'), sonarr('v4.0.16.2944', '2026-11-27')] }, '2026-11-28')
  )
  snapshot = path.join(dir, 's2')
}, 120_000)

afterAll(async () => {
  await cleanup()
})

async function check(compose: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const file = path.join(dir, 'compose.yml')
  await writeFile(file, compose)
  const out: string[] = []
  const status = await main(['check', '--api', snapshot, '--compose', file, '--json'], quiet, {}, (t) => out.push(t))
  return { status, json: JSON.parse(out.join('')) as Record<string, unknown> }
}

interface App {
  source: { service: string }
  running: string | null
  latest: string
  safeToUpdate: string
  rationale: string
}

describe('community builds in check --compose', () => {
  it('publishes each community build with its tag rule and channel in images.json', async () => {
    const doc = JSON.parse(await readFile(path.join(snapshot, 'api/v1/images.json'), 'utf8')) as { images: unknown[] }
    expect(doc.images).toEqual([
      { image: 'ghcr.io/home-operations/sonarr', slug: 'sonarr', tags: 'home-operations', channel: 'develop' },
      { image: 'lscr.io/linuxserver/sonarr', slug: 'sonarr', tags: 'linuxserver', channel: 'stable' }
    ])
  })

  it('reads a LinuxServer tag as the upstream version, and judges a develop build only where it names a release', async () => {
    const { json } = await check(`services:
  sonarr:
    image: lscr.io/linuxserver/sonarr:4.0.14.2939-ls300
  pinned:
    image: linuxserver/sonarr:version-4.0.15.2941
  mirrored:
    image: mirror.gcr.io/linuxserver/sonarr:4.0.16.2944-ls302
  develop:
    image: lscr.io/linuxserver/sonarr:develop-4.0.16.2950-ls12
  homeops:
    image: ghcr.io/home-operations/sonarr:4.0.15.2941
  homeopsnew:
    image: ghcr.io/home-operations/sonarr:4.0.16.2951
  floating:
    image: ghcr.io/home-operations/sonarr:rolling
`)
    const apps = json.apps as App[]
    const by = (service: string) => apps.find((a) => a.source.service === service)!
    expect(json.untracked).toEqual([])
    expect(by('sonarr')).toMatchObject({ running: '4.0.14.2939', latest: 'v4.0.16.2944', safeToUpdate: 'safe' })
    expect(by('sonarr').rationale).toContain('crosses 2 releases')
    expect(by('pinned')).toMatchObject({ running: '4.0.15.2941', safeToUpdate: 'safe' })
    expect(by('mirrored')).toMatchObject({ running: '4.0.16.2944', safeToUpdate: 'safe' })
    expect(by('develop')).toMatchObject({ running: '4.0.16.2950', safeToUpdate: 'unknown' })
    expect(by('develop').rationale).toContain('is a develop build: its tag names "4.0.16.2950"')
    // home-operations' Sonarr follows develop: a version the history holds is judged, another is not.
    expect(by('homeops')).toMatchObject({ running: '4.0.15.2941', safeToUpdate: 'safe' })
    expect(by('homeopsnew')).toMatchObject({ running: '4.0.16.2951', safeToUpdate: 'unknown' })
    expect(by('homeopsnew').rationale).toContain('develop build')
    expect(by('floating')).toMatchObject({ running: 'rolling', safeToUpdate: 'unknown' })
    expect(by('floating').rationale).toContain('the tag "rolling" names no version')
  })
})

describe('the PR gate on a Renovate bump of a home-operations image', () => {
  const git = (cwd: string, ...args: string[]) => testGit(dir)(cwd, ...args)
  // A HelmRelease's values, as home-ops repositories write them.
  const VALUES = (tag: string) =>
    `controllers:\n  sonarr:\n    containers:\n      app:\n        image:\n          repository: ghcr.io/home-operations/sonarr\n          tag: ${tag}\n`

  async function bump(name: string, from: string, to: string) {
    const cwd = path.join(dir, 'repos', name)
    await mkdir(path.join(cwd, 'apps'), { recursive: true })
    git(cwd, 'init', '-q', '-b', 'main')
    await writeFile(path.join(cwd, 'apps/values.yaml'), VALUES(from))
    git(cwd, 'add', '-A')
    git(cwd, 'commit', '-q', '-m', 'base')
    const base = git(cwd, 'rev-parse', 'HEAD')
    git(cwd, 'checkout', '-q', '-b', 'renovate/sonarr')
    await writeFile(path.join(cwd, 'apps/values.yaml'), VALUES(to))
    git(cwd, 'commit', '-q', '-am', `chore(container): update ghcr.io/home-operations/sonarr ( ${from} → ${to} )`)
    const { changes } = await changedImages(cwd, base, git(cwd, 'rev-parse', 'HEAD'))
    return runCheck(snapshotReader(snapshot), { from: [], services: [], changes })
  }

  it('judges 4.0.14.2939 → 4.0.15.2941 as the upstream releases between', async () => {
    const result = await bump('held', '4.0.14.2939', '4.0.15.2941')
    expect(result.untracked).toEqual([])
    expect(result.apps).toHaveLength(1)
    expect(result.apps[0]).toMatchObject({
      slug: 'sonarr',
      running: '4.0.14.2939',
      latest: '4.0.15.2941',
      safeToUpdate: 'safe'
    })
    expect(result.apps[0]!.crossed.map((c) => c.version)).toEqual(['v4.0.15.2941'])
    expect(gateStatus(result, { failOn: 'unknown' })).toBe(0)
  })

  it('leaves a bump to a develop build the history does not hold unknown, failing fail-on: unknown', async () => {
    const result = await bump('develop', '4.0.15.2941', '4.0.16.2951')
    expect(result.apps[0]).toMatchObject({ slug: 'sonarr', safeToUpdate: 'unknown' })
    expect(result.apps[0]!.rationale).toContain('is a develop build')
    expect(gateStatus(result, { failOn: 'unknown' })).toBe(1)
    expect(gateStatus(result, { failOn: 'breaking' })).toBe(0)
  })
})
