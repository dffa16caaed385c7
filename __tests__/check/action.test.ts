// The pull-request check action run as the runner runs it (a child process, INPUT_* variables,
// GITHUB_EVENT_PATH with a pull_request payload, GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files,
// annotations on stdout) on a real git repository with base and head commits; the catalog built
// here and served on loopback; the comment written to a stand-in of GitHub's REST API.
import { afterAll, beforeAll, expect } from '@jest/globals'
import { describe, it } from '../support/needs-shared-data.js'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { changedImages } from '../../src/check/changes.js'
import { runCheck } from '../../src/check/report.js'
import { snapshotReader } from '../../src/check/snapshot.js'
import { MARKER } from '../../src/check/pr-comment.js'
import { createSiteHandler } from '../../src/output/serve.js'
import type { Logger } from '../../src/util/types.js'
import { BREAKING, builder, FIX, release, upstreamOf } from '../support/demo-chain.js'
import { startFakeComments, type FakeComments } from '../support/fake-issue-comments.js'
import { startFakeRegistry } from '../support/fake-registry.js'
import { RELEASE_NOTES } from '../support/shared-data.js'
import { tempDir } from '../support/tmp.js'
import { prRepository } from '../support/git.js'
import { runCheckAction as runAction, type CheckRun } from '../support/check-action.js'
import { copyJudgedCatalog } from '../support/catalog.js'

const ENTRY = path.resolve('src/check-action.ts')
// Run from the TypeScript source (dist/ is built at release): tsx's loader, by absolute path, as the checkout is elsewhere.
const TSX = pathToFileURL(path.resolve('node_modules/tsx/dist/esm/index.mjs')).href
const REPO = 'someone/homelab'
const quiet: Logger = { info: () => {}, warning: () => {}, error: () => {} }

let dir: string
let cleanup: () => Promise<void>
let server: http.Server
let api: string
let gh: FakeComments
let runs = 0

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-check-action-'))
  server = http.createServer(createSiteHandler(path.join(dir, 's2')))
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // The judged part of the bundled catalog and a sample of the rest: a size that does not grow with the catalog.
  await copyJudgedCatalog(path.join(dir, 'catalog'), RELEASE_NOTES)
  const at = builder(dir, api, quiet, RELEASE_NOTES)
  const gogs = (v: string, notes: string, date: string) => release(v, notes, date, 'gogs/gogs')
  const prom = (v: string, notes: string, date: string) => release(v, notes, date, 'prometheus/prometheus')
  await at('s1', '2026-11-21T12:00:00.000Z')
  await at(
    's2',
    '2026-11-28T12:00:00.000Z',
    's1',
    upstreamOf(
      {
        'gogs/gogs': [gogs('v0.15.0', BREAKING, '2026-11-26'), gogs('v0.15.1', FIX, '2026-11-27')],
        'prometheus/prometheus': [prom('v3.15.0', FIX, '2026-11-26'), prom('v3.16.0', FIX, '2026-11-27')]
      },
      '2026-11-28'
    )
  )
  gh = await startFakeComments(REPO)
}, 120_000)

afterAll(async () => {
  await new Promise((ok) => server.close(ok))
  await gh.close()
  await cleanup()
})

/** A repository with `base` files committed on main and `head` files on a branch; returns both commits. */
const repoWith = (name: string, base: Record<string, string>, ...heads: Record<string, string>[]) =>
  prRepository(dir, name, base, ...heads)

function runCheckAction(
  cwd: string,
  base: string,
  head: string,
  inputs: Record<string, string> = {},
  fork = false,
  number = 7
): Promise<CheckRun> {
  return runAction({
    dir,
    n: ++runs,
    argv: ['--import', TSX, ENTRY],
    cwd,
    base,
    head,
    repo: REPO,
    ...(fork ? { fork: 'contributor/homelab' } : {}),
    number,
    title: 'Update gogs/gogs to v0.15.1',
    apiUrl: gh.url,
    inputs: { api, 'fail-on': 'breaking', 'allow-urgent': 'false', 'github-token': 'ghs_faketoken123', ...inputs }
  })
}

const COMPOSE = (gogs: string, other = 'ghcr.io/someone/tool:1.0.0') =>
  `services:\n  git:\n    image: gogs/gogs:${gogs}\n  tool:\n    image: ${other}\n`
const DEPLOYMENT = (tag: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: gogs\nspec:\n  template:\n    spec:\n      containers:\n        - name: gogs\n          image: docker.io/gogs/gogs:${tag}\n`
const VALUES = (tag: string) => `prometheus:\n  image:\n    repository: prom/prometheus\n    tag: ${tag}\n`
const DIGEST = (d: string) => `services:\n  git:\n    image: gogs/gogs@sha256:${d.repeat(64)}\n`

describe('the pull-request check action', () => {
  it('fails a bump across a breaking release with one comment quoting it, and updates that comment on the next push', async () => {
    const r = await repoWith(
      'breaking',
      {
        'compose.yml': COMPOSE('0.14.3'),
        'k8s/gogs.yaml': DEPLOYMENT('0.15.0'),
        'helm/values.yaml': VALUES('v3.15.0')
      },
      {
        'compose.yml': COMPOSE('0.15.1', 'ghcr.io/someone/tool:1.1.0'),
        'k8s/gogs.yaml': DEPLOYMENT('0.15.1'),
        'helm/values.yaml': VALUES('v3.16.0')
      },
      { 'compose.yml': COMPOSE('0.15.0', 'ghcr.io/someone/tool:1.1.0') }
    )
    const first = await runCheckAction(r.cwd, r.base, r.heads[0]!)
    expect(first.code).toBe(1)
    // An annotation on each changed line: the breaking Compose bump fails, the others do not.
    expect(first.stdout).toMatch(
      /^::error title=updatesafe%3A gogs,file=compose\.yml,line=3::gogs 0\.14\.3 → 0\.15\.1: breaking \(v0\.15\.0\): .*LEGACY_AUTH/m
    )
    expect(first.stdout).toMatch(
      /^::notice title=updatesafe%3A gogs,file=k8s\/gogs\.yaml,line=10::gogs 0\.15\.0 → 0\.15\.1: safe/m
    )
    expect(first.stdout).toMatch(
      /^::notice title=updatesafe%3A prometheus,file=helm\/values\.yaml,line=4::prometheus v3\.15\.0 → v3\.16\.0: safe/m
    )
    expect(first.stdout).toMatch(
      /^::notice title=updatesafe%3A not judged,file=compose\.yml,line=5::not judged \(unknown\): ghcr\.io\/someone\/tool:1\.1\.0: not tracked by this catalog/m
    )
    expect(first.stdout).toMatch(/^::error::an image update reaches fail-on: breaking \(gogs 0\.14\.3 → 0\.15\.1\)/m)
    // The token appears once: the runner's mask command, never in a message.
    expect(first.stdout.split('ghs_faketoken123')).toHaveLength(2)
    expect(first.stdout).toMatch(/^::add-mask::ghs_faketoken123$/m)
    expect(first.outputs).toMatch(/^worst<<.*\nbreaking\n/m)
    // One comment, made with the token, quoting the deciding line.
    expect(gh.violations).toEqual([])
    expect(gh.calls.map((c) => c.operationId)).toEqual([
      'users/get-authenticated',
      'issues/list-comments',
      'issues/create-comment'
    ])
    expect(gh.calls.every((c) => c.auth === 'Bearer ghs_faketoken123')).toBe(true)
    expect(gh.comments).toHaveLength(1)
    const comment = gh.comments[0]!
    expect(comment.body.startsWith('<!-- updatesafe-check -->\n')).toBe(true)
    expect(comment.body).toContain('❌ 1 image update reaches fail-on: breaking')
    expect(comment.body).toMatch(
      /\| `compose\.yml:3` \| gogs \| 0\.14\.3 → 0\.15\.1 \| breaking \| breaking \(v0\.15\.0\) \| The LEGACY\\_AUTH/
    )
    expect(first.summary).toContain(comment.body.trim().split('\n')[1]!)

    // The second push: the same comment, updated.
    const second = await runCheckAction(r.cwd, r.base, r.heads[1]!)
    expect(second.code).toBe(1)
    expect(gh.calls.map((c) => c.operationId).slice(3)).toEqual([
      'users/get-authenticated',
      'issues/list-comments',
      'issues/update-comment'
    ])
    expect(gh.comments).toHaveLength(1)
    expect(gh.comments[0]!.id).toBe(comment.id)
    expect(gh.comments[0]!.body).toContain('0.14.3 → 0.15.0')
    expect(gh.violations).toEqual([])
  }, 60_000)

  it('passes a safe bump; an unmapped or digest-pinned image passes with a note, and fails fail-on: unknown', async () => {
    const safe = await repoWith('safe', { 'compose.yml': COMPOSE('0.15.0') }, { 'compose.yml': COMPOSE('0.15.1') })
    const ok = await runCheckAction(safe.cwd, safe.base, safe.heads[0]!)
    expect(ok.code).toBe(0)
    expect(ok.summary).toContain('✅ no image update reaches fail-on: breaking')

    const other = await repoWith(
      'unknown',
      { 'compose.yml': COMPOSE('0.15.1'), 'pinned/compose.yaml': DIGEST('a') },
      { 'compose.yml': COMPOSE('0.15.1', 'ghcr.io/someone/tool:2.0.0'), 'pinned/compose.yaml': DIGEST('b') }
    )
    const passes = await runCheckAction(other.cwd, other.base, other.heads[0]!)
    expect(passes.code).toBe(0)
    expect(passes.summary).toMatch(/`compose\.yml:5` `ghcr\.io\/someone\/tool:2\.0\.0`: not tracked by this catalog/)
    expect(passes.summary).toMatch(
      /\| `pinned\/compose\.yaml:3` \| gogs \| \? → .* \| unknown \| unknown \| The update is not judged: the version before is not known .*digest/
    )
    const strict = await runCheckAction(other.cwd, other.base, other.heads[0]!, { 'fail-on': 'unknown' })
    expect(strict.code).toBe(1)
    expect(strict.stdout).toMatch(/^::error title=updatesafe%3A gogs,file=pinned\/compose\.yaml,line=3::/m)
    expect(gh.violations).toEqual([])
  }, 60_000)

  it('pairs each reference with its own earlier one: two Deployments in one file, one bumped', async () => {
    const two = (a: string, b: string) =>
      `${DEPLOYMENT(a)}---\n${DEPLOYMENT(b).replace('name: gogs\nspec', 'name: gogs-mirror\nspec')}`
    const r = await repoWith(
      'two-docs',
      { 'k8s/all.yaml': two('0.14.3', '0.15.0') },
      { 'k8s/all.yaml': two('0.14.3', '0.15.1') }
    )
    const found = await changedImages(r.cwd, r.base, r.heads[0]!)
    expect(found.changes).toEqual([
      {
        file: 'k8s/all.yaml',
        field: 'Deployment/gogs-mirror:spec.template.spec.containers[0].image',
        line: 21,
        baseImage: 'docker.io/gogs/gogs:0.15.0',
        image: 'docker.io/gogs/gogs:0.15.1'
      }
    ])
    expect(found.added).toEqual([])
  })

  it('judges a Dockerfile FROM bump (Dependabot’s docker ecosystem) like any other file', async () => {
    const file = (v: string) => `ARG GOGS=${v}\nFROM --platform=linux/amd64 gogs/gogs:\${GOGS} AS app\nFROM app\n`
    const r = await repoWith('dockerfile', { 'git/Dockerfile': file('0.14.3') }, { 'git/Dockerfile': file('0.15.1') })
    const run = await runCheckAction(r.cwd, r.base, r.heads[0]!, { 'github-token': '' })
    expect(run.code).toBe(1)
    expect(run.outputs).toMatch(/^worst<<.*\nbreaking\n/m)
    expect(run.outputs).toMatch(/^judged<<.*\n1\n/m)
    expect(run.stdout).toMatch(
      /^::error title=updatesafe%3A gogs,file=git\/Dockerfile,line=1::gogs 0\.14\.3 → 0\.15\.1: breaking/m
    )
  }, 60_000)

  it('never says safe when a changed file it does not parse touches an image (a script)', async () => {
    const r = await repoWith(
      'script-file',
      { 'compose.yml': COMPOSE('0.15.1'), 'upgrade.sh': 'docker pull gogs/gogs:0.15.0\n' },
      { 'upgrade.sh': 'docker pull gogs/gogs:0.15.1\n' }
    )
    const run = await runCheckAction(r.cwd, r.base, r.heads[0]!, { 'github-token': '' })
    expect(run.code).toBe(0)
    expect(run.outputs).toMatch(/^worst<<.*\nunknown\n/m)
    expect(run.summary).toMatch(/`upgrade\.sh`: not read, is not YAML, a Dockerfile or a \.env file/)
    const strict = await runCheckAction(r.cwd, r.base, r.heads[0]!, { 'github-token': '', 'fail-on': 'unknown' })
    expect(strict.code).toBe(1)
  }, 60_000)

  it('judges an image the catalog does not map by its source label (resolve-images), and names the label of another', async () => {
    const registry = await startFakeRegistry({
      'mirror/gogs': { 'org.opencontainers.image.source': 'https://github.com/gogs/gogs' },
      'mirror/tool': { 'org.opencontainers.image.source': 'https://github.com/someone/tool' }
    })
    try {
      const compose = (gogs: string, tool: string) =>
        `services:\n  git:\n    image: ${registry.host}/mirror/gogs:${gogs}\n  tool:\n    image: ${registry.host}/mirror/tool:${tool}\n`
      const r = await repoWith(
        'resolve',
        { 'compose.yml': compose('0.14.3', '1.0.0') },
        { 'compose.yml': compose('0.15.1', '1.1.0') }
      )
      const run = await runCheckAction(r.cwd, r.base, r.heads[0]!, { 'github-token': '', 'resolve-images': 'true' })
      expect(run.code).toBe(1)
      expect(run.outputs).toMatch(/^judged<<.*\n1\n/m)
      expect(run.summary).toMatch(/\| `compose\.yml:3` \| gogs \(by its source label\) \| 0\.14\.3 → 0\.15\.1 \| /)
      expect(run.summary).toContain(
        'resolve-images: its source label names https://github.com/someone/tool, which is no app of the catalog'
      )
      // Off: no registry is asked, and both images are not tracked.
      const asked = registry.seen.length
      const off = await runCheckAction(r.cwd, r.base, r.heads[0]!, { 'github-token': '', 'resolve-images': 'false' })
      expect(off.code).toBe(0)
      expect(off.outputs).toMatch(/^judged<<.*\n0\n/m)
      expect(registry.seen.length).toBe(asked)
    } finally {
      await registry.close()
    }
  }, 60_000)

  it('judges a bump of an unmapped ghcr.io package named like an app’s repository, with no registry asked', async () => {
    const values = (tag: string) =>
      `prometheus:\n  image:\n    repository: ghcr.io/prometheus/prometheus\n    tag: ${tag}\n`
    const r = await repoWith('ghcr-own', { 'values.yaml': values('v3.15.0') }, { 'values.yaml': values('v3.16.0') })
    const run = await runCheckAction(r.cwd, r.base, r.heads[0]!, { 'github-token': '', 'resolve-images': 'false' })
    expect(run.code).toBe(0)
    expect(run.outputs).toMatch(/^judged<<.*\n1\n/m)
    expect(run.summary).toMatch(
      /\| `values\.yaml:4` \| prometheus \(by its ghcr\.io namespace\) \| v3\.15\.0 → v3\.16\.0 \| safe \|/
    )
  }, 60_000)

  it('leaves a pull request that changes no image without a comment', async () => {
    const r = await repoWith(
      'no-image',
      { 'compose.yml': COMPOSE('0.15.1') },
      { 'compose.yml': `${COMPOSE('0.15.1')}  # a comment, no image changed\n` }
    )
    const before = gh.calls.length
    const run = await runCheckAction(r.cwd, r.base, r.heads[0]!, {}, false, 9)
    expect(run.code).toBe(0)
    expect(gh.calls.slice(before).map((c) => c.operationId)).toEqual([
      'users/get-authenticated',
      'issues/list-comments'
    ])
    expect(gh.comments.filter((c) => c.issue === 9)).toEqual([])
    expect(run.summary).toContain('no image reference changed')
    expect(run.stdout).not.toMatch(/^::warning/m)
  }, 60_000)

  it('on a fork, where the token may not comment, still writes the summary and annotations and says why', async () => {
    const r = await repoWith('fork', { 'compose.yml': COMPOSE('0.14.3') }, { 'compose.yml': COMPOSE('0.15.1') })
    gh.refuseWrites = 403
    try {
      const before = gh.comments.length
      const run = await runCheckAction(r.cwd, r.base, r.heads[0]!, {}, true, 8)
      expect(run.code).toBe(1)
      expect(gh.comments).toHaveLength(before)
      expect(run.stdout).toMatch(/^::error title=updatesafe%3A gogs,file=compose\.yml,line=3::/m)
      expect(run.stdout).toMatch(
        /^::warning::No pull-request comment: the token may not comment on the pull request \(HTTP 403\)/m
      )
      expect(run.summary).toContain('this pull request comes from a fork')
      expect(run.summary).toContain('No pull-request comment: the token may not comment on the pull request')
      expect(run.summary).toMatch(/breaking \(v0\.15\.0\)/)
      expect(run.outputs).toMatch(/^comment<<.*\nnone\n/m)
    } finally {
      gh.refuseWrites = null
    }
  }, 60_000)

  it('counts a changed file it cannot read (a duplicate key, a NUL byte, over 1 MiB) as unknown, with its reason', async () => {
    const big = `${COMPOSE('0.15.1')}${'# padding, not a manifest anyone reviews\n'.repeat(30_000)}`
    const r = await repoWith(
      'unread',
      { 'dup.yml': COMPOSE('0.14.3'), 'nul.yaml': COMPOSE('0.14.3'), 'big/compose.yml': COMPOSE('0.14.3') },
      {
        'dup.yml': `${COMPOSE('0.15.1')}  git:\n    image: gogs/gogs:0.14.3\n`,
        'nul.yaml': `${COMPOSE('0.15.1')}\0\n`,
        'big/compose.yml': big
      }
    )
    // The catalog's address with a password: it is used, and never printed.
    const withPassword = api.replace('http://', 'http://reader:s3cret-pass-9@')
    const run = await runCheckAction(r.cwd, r.base, r.heads[0]!, { api: withPassword }, false, 21)
    expect(run.code).toBe(0) // fail-on: breaking; the files are unknown, not breaking
    expect(run.outputs).toMatch(/^worst<<.*\nunknown\n/m)
    expect(run.outputs).toMatch(/^judged<<.*\n0\n/m)
    expect(run.outputs).toMatch(/^comment<<.*\ncreated\n/m)
    const comment = gh.comments.find((c) => c.issue === 21)!
    expect(comment.body).toMatch(/`dup\.yml`: not read, is not YAML: line 6: Map keys must be unique/)
    expect(comment.body).toMatch(/`nul\.yaml`: not read, holds a NUL byte/)
    expect(comment.body).toMatch(/`big\/compose\.yml`: not read, is \d+ bytes, larger than the 1 MiB the gate reads/)
    expect(comment.body).toContain('never as safe')
    expect(run.stdout).toMatch(/^::notice title=updatesafe%3A not judged,file=dup\.yml,line=1::not judged \(unknown\)/m)
    // No credential in the comment, the summary or the log (but the runner's mask command).
    for (const text of [comment.body, run.summary]) {
      expect(text).not.toContain('s3cret-pass-9')
      expect(text).toContain(`catalog ${api},`)
    }
    expect(run.stdout.split('s3cret-pass-9')).toHaveLength(2)
    expect(run.stdout).toMatch(/^::add-mask::s3cret-pass-9$/m)

    const strict = await runCheckAction(r.cwd, r.base, r.heads[0]!, { 'fail-on': 'unknown' }, false, 21)
    expect(strict.code).toBe(1)
    expect(strict.stdout).toMatch(/^::error title=updatesafe%3A not judged,file=nul\.yaml,line=1::/m)
    expect(strict.summary).toContain('❌ 3 not judged, counted as unknown: fail-on: unknown')
    expect(gh.violations).toEqual([])
  }, 60_000)

  it('updates only a marked comment its own identity wrote: never one another user wrote the marker into', async () => {
    const r = await repoWith('spoof', { 'compose.yml': COMPOSE('0.14.3') }, { 'compose.yml': COMPOSE('0.15.1') })
    const spoof = { id: 1, issue: 31, body: `${MARKER}\n✅ all safe, merge away`, user: 'mallory' }
    const theirs = { id: 2, issue: 31, body: `I reviewed this. ${MARKER}`, user: 'octo-maintainer' }
    gh.comments.push(spoof, theirs)
    const first = await runCheckAction(r.cwd, r.base, r.heads[0]!, {}, false, 31)
    expect(first.code).toBe(1)
    const ours = gh.comments.filter((c) => c.issue === 31 && c.user === 'github-actions[bot]')
    expect(ours).toHaveLength(1)
    expect(ours[0]!.body).toContain('❌ 1 image update reaches fail-on: breaking')
    expect(spoof.body).toBe(`${MARKER}\n✅ all safe, merge away`)
    expect(theirs.body).toBe(`I reviewed this. ${MARKER}`)
    // The next push updates that one comment.
    await runCheckAction(r.cwd, r.base, r.heads[0]!, {}, false, 31)
    expect(gh.comments.filter((c) => c.issue === 31)).toHaveLength(3)
    expect(gh.calls.slice(-1)[0]).toMatchObject({
      operationId: 'issues/update-comment',
      path: expect.stringMatching(new RegExp(`/comments/${ours[0]!.id}$`))
    })

    // A user's token (a PAT) writes as that user, whom GET /user names.
    gh.identities.ghp_faketokenof0cto = { login: 'homelab-bot', installation: false }
    const pat = await runCheckAction(r.cwd, r.base, r.heads[0]!, { 'github-token': 'ghp_faketokenof0cto' }, false, 31)
    expect(pat.outputs).toMatch(/^comment<<.*\ncreated\n/m)
    expect(theirs.body).toBe(`I reviewed this. ${MARKER}`)
    expect(gh.comments.filter((c) => c.issue === 31 && c.user === 'homelab-bot')).toHaveLength(1)

    // A GitHub App's installation token: GET /user refuses it; the comment says who wrote it, and
    // comment-author names that bot so that the next push updates the comment.
    gh.identities.ghs_appinstallation0token = { login: 'homelab-app[bot]', installation: true }
    const app = { 'github-token': 'ghs_appinstallation0token' }
    const unnamed = await runCheckAction(r.cwd, r.base, r.heads[0]!, app, false, 32)
    expect(unnamed.stdout).toMatch(
      /^::warning::the comment was written as homelab-app\[bot\], not github-actions\[bot\]: set the input comment-author: homelab-app\[bot\]/m
    )
    const named = await runCheckAction(
      r.cwd,
      r.base,
      r.heads[0]!,
      { ...app, 'comment-author': 'homelab-app[bot]' },
      false,
      32
    )
    expect(named.outputs).toMatch(/^comment<<.*\nupdated\n/m)
    expect(named.stdout).not.toMatch(/^::warning/m)
    expect(gh.comments.filter((c) => c.issue === 32)).toHaveLength(1)
    expect(gh.violations).toEqual([])
  }, 60_000)

  it('bounds the annotations, and says how many it left out', async () => {
    const many = (tag: string) =>
      `services:\n${Array.from({ length: 80 }, (_, i) => `  git${i}:\n    image: gogs/gogs:${tag}\n`).join('')}`
    const r = await repoWith('many', { 'compose.yml': many('0.14.3') }, { 'compose.yml': many('0.15.1') })
    const run = await runCheckAction(r.cwd, r.base, r.heads[0]!, { 'github-token': '' })
    expect(run.code).toBe(1)
    const onLines = run.stdout.split('\n').filter((l) => /^::(error|warning|notice) .*file=/.test(l))
    expect(onLines).toHaveLength(50)
    expect(run.stdout).toMatch(/^::notice::30 more annotations left out \(at most 50 a run, the errors first\)/m)
  }, 60_000)
})

describe('the files a pull request changes', () => {
  it('reads at most the file cap and within the time budget; the rest are listed as not read', async () => {
    const r = await repoWith(
      'capped',
      { 'a.yml': COMPOSE('0.14.3'), 'b.yml': COMPOSE('0.14.3'), 'c.yml': COMPOSE('0.14.3') },
      { 'a.yml': COMPOSE('0.15.1'), 'b.yml': COMPOSE('0.15.1'), 'c.yml': COMPOSE('0.15.1') }
    )
    const capped = await changedImages(r.cwd, r.base, r.heads[0]!, { maxFiles: 2 })
    expect(capped.changes.map((c) => c.file)).toEqual(['a.yml', 'b.yml'])
    expect(capped.notRead).toEqual([
      {
        file: 'c.yml',
        reason: 'past the first 2 changed files, which are all the gate reads (YAML, Dockerfiles and .env files first)'
      }
    ])
    // A clock that has run past the budget once the list is made: nothing is read, nothing is lost.
    let t = 0
    const late = await changedImages(r.cwd, r.base, r.heads[0]!, { budgetMs: 1000, now: () => (t += 600) })
    expect(late.changes).toEqual([])
    expect(late.notRead.map((n) => n.file).sort()).toEqual(['a.yml', 'b.yml', 'c.yml'])
    expect(late.notRead[0]!.reason).toBe("the gate's time budget (1 s) ran out before it was read")
  })

  it('shows no version before when the image changes app: the old one was another app’s', async () => {
    const result = await runCheck(snapshotReader(api), {
      from: [],
      services: [],
      changes: [
        {
          file: 'compose.yml',
          field: 'services.x.image',
          line: 3,
          baseImage: 'prom/prometheus:v3.15.0',
          image: 'gogs/gogs:0.15.1'
        }
      ]
    })
    expect(result.apps).toHaveLength(1)
    expect(result.apps[0]).toMatchObject({ slug: 'gogs', running: null, latest: '0.15.1', safeToUpdate: 'unknown' })
    expect(result.apps[0]!.rationale).toContain('the image was prom/prometheus:v3.15.0')
  })
})
