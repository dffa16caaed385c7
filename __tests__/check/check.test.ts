// `updatesafe check` end to end: the bundled catalog built three times (--previous chains, the
// refresh answered by a stand-in for two repositories and failing for the rest), the last snapshot
// served over HTTP on loopback, and Compose files of real images from the catalog's `images:`.
import { afterAll, beforeAll, expect } from '@jest/globals'
import { describe, it } from '../support/needs-shared-data.js'
import { spawnSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { main } from '../../src/commands.js'
import { createSiteHandler } from '../../src/output/serve.js'
import type { Logger } from '../../src/util/types.js'
import { BREAKING, builder, FIX, release, upstreamOf } from '../support/demo-chain.js'
import { RELEASE_NOTES } from '../support/shared-data.js'
import { tempDir } from '../support/tmp.js'
import { copyJudgedCatalog } from '../support/catalog.js'

// An urgent security fix: the classifier calls it breaking, kind "urgent".
const URGENT =
  '## Security\n\nThis release fixes a critical remote code execution vulnerability (CVE-2026-1234). All users must upgrade immediately.'

let dir: string
let cleanup: () => Promise<void>
let server: http.Server
let origin: string
const quiet: Logger = { info: () => {}, warning: () => {}, error: () => {} }

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-check-'))
  server = http.createServer(createSiteHandler(path.join(dir, 's3')))
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // The judged part of the bundled catalog and a sample of the rest: a size that does not grow with the catalog.
  await copyJudgedCatalog(path.join(dir, 'catalog'), RELEASE_NOTES)
  const at = builder(dir, origin, quiet, RELEASE_NOTES)
  const prom = (v: string, notes: string, date: string) => release(v, notes, date, 'prometheus/prometheus')
  const gogs = (v: string, notes: string, date: string) => release(v, notes, date, 'gogs/gogs')
  const day2 = {
    'prometheus/prometheus': [prom('v3.15.0', URGENT, '2026-11-28')],
    'gogs/gogs': [gogs('v0.15.0', BREAKING, '2026-11-28')]
  }
  const day3 = {
    'prometheus/prometheus': [...day2['prometheus/prometheus'], prom('v3.16.0', FIX, '2026-12-04')],
    'gogs/gogs': [...day2['gogs/gogs'], gogs('v0.15.1', FIX, '2026-12-04')]
  }
  await at('s1', '2026-11-21T12:00:00.000Z')
  await at('s2', '2026-11-28T12:00:00.000Z', 's1', upstreamOf(day2, '2026-11-28'))
  await at('s3', '2026-12-05T12:00:00.000Z', 's2', upstreamOf(day3, '2026-12-05'))
}, 120_000)

afterAll(async () => {
  await new Promise((ok) => server.close(ok))
  await cleanup()
})

async function compose(name: string, text: string): Promise<string> {
  const file = path.join(dir, 'compose', name)
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, text)
  return file
}

async function checkIn(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ status: number; stdout: string; stderr: string }> {
  const err: string[] = []
  const out: string[] = []
  const log: Logger = { info: (m) => err.push(m), warning: (m) => err.push(m), error: (m) => err.push(m) }
  const status = await main(['check', ...args], log, env, (t) => out.push(t))
  return { status, stdout: out.join(''), stderr: err.join('\n') }
}
const check = (...args: string[]) => checkIn({}, ...args)

/** Five real images, as the upstream projects' own release notes name them. */
const FIVE = (prometheus: string, gogs: string) => `services:
  prometheus:
    image: prom/prometheus:${prometheus}
  rss:
    image: docker.io/freshrss/freshrss:1.24.3-alpine
  git:
    image: gogs/gogs:${gogs}
  buildmaster:
    image: quay.io/buildbot/buildbot-master:v4.3.0
  worker:
    image: quay.io/buildbot/buildbot-worker:4.3.0
  search:
    image: jmalloc/echo-server:v0.3.7
  web:
    build: ./web
`

interface JsonApp {
  slug: string
  running: string | null
  latest: string
  safeToUpdate: string
  rationale: string
  decidedBy: { version: string; quote: string | null; breakingKind: string | null } | null
  crossed: { version: string; safeToUpdate: string }[]
  urgentOnly: boolean
}

describe('updatesafe check --compose over HTTP', () => {
  it('maps five real images to their apps, judges each from the running version, and exits 0 when nothing crossed is breaking', async () => {
    const file = await compose('current.yml', FIVE('v3.16.0', '0.15.1'))
    const r = await check('--api', origin, '--compose', file, '--json')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    const doc = JSON.parse(r.stdout) as {
      apps: JsonApp[]
      untracked: { service: string; image: string | null; reason: string }[]
    }
    expect(doc.apps.map((a) => [a.slug, a.running, a.latest])).toEqual([
      ['prometheus', 'v3.16.0', 'v3.16.0'],
      ['freshrss', '1.24.3', '1.24.3'],
      ['gogs', '0.15.1', 'v0.15.1'],
      ['buildbot', 'v4.3.0', '4.3.0'],
      ['buildbot', '4.3.0', '4.3.0']
    ])
    expect(doc.apps.every((a) => a.safeToUpdate === 'safe' && a.crossed.length === 0)).toBe(true)
    expect(doc.untracked).toEqual([
      expect.objectContaining({
        service: 'search',
        image: 'jmalloc/echo-server:v0.3.7',
        reason: expect.stringContaining('not tracked by this catalog')
      }),
      expect.objectContaining({ service: 'web', image: null })
    ])
  })

  it('exits 1 when a running version sits before a breaking release, naming the release and its words', async () => {
    const file = await compose('behind.yml', FIVE('v3.16.0', '0.14.3'))
    const r = await check('--api', origin, '--compose', file, '--json')
    expect(r.status).toBe(1)
    const gogs = (JSON.parse(r.stdout) as { apps: JsonApp[] }).apps.find((a) => a.slug === 'gogs')!
    expect(gogs.safeToUpdate).toBe('breaking')
    expect(gogs.decidedBy).toMatchObject({ version: 'v0.15.0', breakingKind: 'required' })
    expect(gogs.decidedBy!.quote).toContain('LEGACY_AUTH')
    expect(gogs.crossed.map((c) => c.version)).toEqual(['v0.15.1', 'v0.15.0'])
    // The same, as a table for a terminal.
    const table = await check('--api', origin, '--compose', file)
    expect(table.status).toBe(1)
    expect(table.stdout).toMatch(/^SERVICE\s+APP\s+RUNNING\s+LATEST\s+VERDICT\s+WORST CROSSED\s+WHY$/m)
    expect(table.stdout).toMatch(
      /^git\s+gogs\s+0\.14\.3\s+v0\.15\.1\s+breaking\s+breaking \(v0\.15\.0\)\s+The `?LEGACY_AUTH/m
    )
    expect(table.stdout).toMatch(/search \(jmalloc\/echo-server:v0\.3\.7\): not tracked by this catalog/)
  })

  it('finds the app of an unmapped ghcr.io package named like its repository under the owner’s account, offline', async () => {
    // The catalog maps quay.io/prometheus/prometheus and prom/prometheus; GitHub's registry gives the prometheus
    // account alone the ghcr.io/prometheus namespace. Another account's package, another name or a deeper path is
    // not guessed at.
    const file = await compose(
      'ghcr.yml',
      [
        'services:',
        '  own:',
        '    image: ghcr.io/prometheus/prometheus:v3.16.0',
        '  other-owner:',
        '    image: ghcr.io/someone/prometheus:v3.16.0',
        '  other-name:',
        '    image: ghcr.io/prometheus/prometheus-tools:v3.16.0',
        '  deeper:',
        '    image: ghcr.io/prometheus/prometheus/nightly:v3.16.0',
        ''
      ].join('\n')
    )
    const r = await check('--api', origin, '--compose', file, '--json')
    const doc = JSON.parse(r.stdout) as {
      apps: (JsonApp & { source: { service: string; resolvedFrom?: string; resolvedBy?: string } })[]
      untracked: { service: string; reason: string }[]
    }
    expect(
      doc.apps.map((a) => [a.source.service, a.slug, a.running, a.source.resolvedBy, a.source.resolvedFrom])
    ).toEqual([['own', 'prometheus', 'v3.16.0', 'registry-namespace', 'https://github.com/prometheus/prometheus']])
    expect(doc.untracked.map((u) => u.service)).toEqual(['other-owner', 'other-name', 'deeper'])
    expect(doc.untracked[0]!.reason).toContain('its app "prometheus" maps only prom/prometheus')
  })

  it('gives an image its current app alone when an archived app it replaced maps it too', async () => {
    // The bundled catalog maps matrixdotorg/synapse to element-hq/synapse and to the archived matrix-org/synapse,
    // whose successor it is: one service, one row.
    const file = await compose('synapse.yml', 'services:\n  matrix:\n    image: matrixdotorg/synapse:v1.98.0\n')
    const r = await check('--api', origin, '--compose', file, '--json')
    const apps = (JSON.parse(r.stdout) as { apps: JsonApp[] }).apps
    expect(apps.map((a) => a.slug)).toEqual(['synapse'])
  })

  it('lets a path whose only breaking releases are urgent fixes pass with --allow-urgent, and no other', async () => {
    const urgent = await compose('urgent.yml', FIVE('v3.14.0', '0.15.1'))
    const r = await check('--api', origin, '--compose', urgent, '--json')
    expect(r.status).toBe(1)
    const prom = (JSON.parse(r.stdout) as { apps: JsonApp[] }).apps.find((a) => a.slug === 'prometheus')!
    expect(prom).toMatchObject({
      safeToUpdate: 'breaking',
      urgentOnly: true,
      decidedBy: { version: 'v3.15.0', breakingKind: 'urgent' }
    })
    expect((await check('--api', origin, '--compose', urgent, '--allow-urgent')).status).toBe(0)
    const both = await compose('both.yml', FIVE('v3.14.0', '0.14.3'))
    expect((await check('--api', origin, '--compose', both, '--allow-urgent')).status).toBe(1)
  })

  it('reports latest, digests and versions it cannot place as unknown, never safe', async () => {
    const file = await compose(
      'floating.yml',
      `services:\n  a:\n    image: prom/prometheus:latest\n  b:\n    image: gogs/gogs@sha256:${'ab'.repeat(32)}\n  c:\n    image: freshrss/freshrss\n`
    )
    const r = await check('--api', origin, '--compose', file, '--json', '--from', 'prometheus=1.0.0')
    // 1.0.0 is older than the history reaches: unknown; but the breaking v3.15.0 judged on its path still fails the gate.
    expect(r.status).toBe(1)
    const apps = (JSON.parse(r.stdout) as { apps: JsonApp[] }).apps
    expect(apps.map((a) => [a.slug, a.running, a.safeToUpdate])).toEqual([
      ['prometheus', '1.0.0', 'unknown'],
      ['prometheus', 'latest', 'unknown'],
      ['gogs', null, 'unknown'],
      ['freshrss', null, 'unknown']
    ])
    expect(apps[0]!.rationale).toContain('older than the releases judged')
    // Every judged release is crossed: the two refreshed ones and the history the notes file gave.
    const crossed = apps[0]!.crossed.map((c) => c.version)
    expect(crossed.slice(0, 3)).toEqual(['v3.16.0', 'v3.15.0', '3.14.0'])
    expect(crossed).toContain('3.0.0')
    expect((await check('--api', origin, '--compose', file)).status).toBe(0)
    expect(apps[1]!.rationale).toContain('"latest" names no version')
    expect(apps[2]!.rationale).toContain('digest')
  })

  it('sees the image a merge key, extends: or a ${VAR:-default} gives a service, and exits 1 across the breaking release', async () => {
    // The red-team reproduction: the image written once in a fragment, merged into the service.
    const merged = await compose(
      'merged.yml',
      'x-app: &app\n  image: gogs/gogs:0.14.3\n  restart: always\nservices:\n  git:\n    <<: *app\n'
    )
    const r = await check('--api', origin, '--compose', merged, '--json')
    expect(r.status).toBe(1)
    expect((JSON.parse(r.stdout) as { apps: JsonApp[] }).apps).toEqual([
      expect.objectContaining({ slug: 'gogs', running: '0.14.3', safeToUpdate: 'breaking' })
    ])
    await compose('base/git.yml', 'services:\n  gogs:\n    image: gogs/gogs:${GOGS_TAG:-0.14.3}\n')
    const extended = await compose(
      'extended.yml',
      'services:\n  git:\n    extends:\n      file: base/git.yml\n      service: gogs\n'
    )
    expect((await check('--api', origin, '--compose', extended)).status).toBe(1)
    // The environment check is given decides, and an up-to-date tag passes.
    expect((await checkIn({ GOGS_TAG: '0.15.1' }, '--api', origin, '--compose', extended)).status).toBe(0)
  })

  it('reads a snapshot from a folder the same way', async () => {
    const r = await check('--api', path.join(dir, 's3'), '--from', 'gogs=0.14.3', '--json')
    expect(r.status).toBe(1)
    expect((JSON.parse(r.stdout) as { apps: JsonApp[] }).apps[0]).toMatchObject({
      slug: 'gogs',
      safeToUpdate: 'breaking'
    })
  })
})

/** A Flux HelmRelease of the app-template chart, as home-operations repositories write one (tag and digest). */
const HELM_RELEASE = (tag: string) => `---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: gogs
spec:
  interval: 1h
  chartRef:
    kind: OCIRepository
    name: app-template
  values:
    controllers:
      gogs:
        containers:
          app:
            image:
              repository: gogs/gogs
              tag: ${tag}@sha256:${'ab'.repeat(32)}
            env:
              TZ: Europe/Berlin
`

describe('updatesafe check --manifest', () => {
  async function tree(files: Record<string, string>): Promise<string> {
    const root = path.join(dir, 'manifests', String(Object.keys(files).length) + Math.random().toString(36).slice(2))
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true })
      await writeFile(path.join(root, name), text)
    }
    return root
  }

  it('reads a Kubernetes folder whole: a HelmRelease behind a breaking release fails, what it cannot read is named', async () => {
    const root = await tree({
      'apps/git/app/helmrelease.yaml': HELM_RELEASE('0.14.3'),
      'apps/prom/deployment.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: prometheus\nspec:\n  template:\n    spec:\n      containers:\n        - name: prometheus\n          image: prom/prometheus:v3.16.0\n',
      'apps/tool/kustomization.yaml':
        'resources:\n  - deployment.yaml\nimages:\n  - name: tool\n    newName: ghcr.io/someone/tool\n    newTag: "1.0"\n',
      'apps/chart/values.yaml': 'image:\n  tag: 1.2.3\n',
      'apps/chart/templates/deployment.yaml': '{{- if .Values.enabled }}\nkind: Deployment\n  image: [\n{{- end }}\n',
      'apps/rss/Dockerfile':
        'FROM docker.io/freshrss/freshrss:1.24.3-alpine\nCOPY extensions /var/www/FreshRSS/extensions\n',
      'apps/rss/README.md': 'image: gogs/gogs:0.1.0\n',
      '.github/workflows/ci.yaml': 'jobs:\n  a:\n    container:\n      image: gogs/gogs:0.1.0\n'
    })
    const r = await check('--api', origin, '--manifest', root, '--json')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(1)
    const doc = JSON.parse(r.stdout) as {
      apps: (JsonApp & { source: { from: string; file: string; line: number; service: string } })[]
      untracked: { file: string; line: number; image: string | null; reason: string }[]
    }
    // In name order, hidden folders and files of no manifest kind left out.
    expect(doc.apps.map((a) => [a.slug, a.running, a.safeToUpdate])).toEqual([
      ['gogs', '0.14.3', 'breaking'],
      ['prometheus', 'v3.16.0', 'safe'],
      ['freshrss', '1.24.3', 'safe']
    ])
    expect(doc.apps[0]!.source).toMatchObject({
      from: 'manifest',
      file: path.join(root, 'apps/git/app/helmrelease.yaml'),
      line: 18,
      service: 'HelmRelease/gogs:spec.values.controllers.gogs.containers.app.image.repository'
    })
    expect(doc.apps[0]!.decidedBy).toMatchObject({ version: 'v0.15.0', breakingKind: 'required' })
    expect(doc.untracked).toEqual([
      expect.objectContaining({
        file: path.join(root, 'apps/chart/templates/deployment.yaml'),
        line: 0,
        reason: expect.stringMatching(/^not read: it is not YAML: line \d+/)
      }),
      expect.objectContaining({
        line: 2,
        image: null,
        reason: expect.stringContaining('only the tag (1.2.3) is here')
      }),
      expect.objectContaining({
        image: 'ghcr.io/someone/tool:1.0',
        reason: expect.stringContaining('not tracked by this catalog')
      })
    ])
    // Counted as not known to be safe: --fail-on unknown fails on them alone.
    const table = await check('--api', origin, '--manifest', root, '--fail-on', 'never')
    expect(table.status).toBe(0)
    expect(table.stdout).toMatch(
      /^…\S*git\/app\/helmrelease\.yaml:18\s+gogs\s+0\.14\.3\s+v0\.15\.1\s+breaking\s+breaking \(v0\.15\.0\)/m
    )
    expect(table.stdout).toMatch(/templates\/deployment\.yaml: not read: it is not YAML/)
    expect(table.stdout).toMatch(/3 checked, worst breaking; 3 not checked\./)
  })

  it('judges the version a file names, alone or beside Compose files, and up to date passes --fail-on unknown', async () => {
    const root = await tree({ 'helmrelease.yaml': HELM_RELEASE('0.15.1') })
    const file = path.join(root, 'helmrelease.yaml')
    const r = await check(
      '--api',
      origin,
      '--manifest',
      file,
      '--compose',
      await compose('one.yml', FIVE('v3.16.0', '0.15.1')),
      '--json',
      '--fail-on',
      'caution'
    )
    expect(r.status).toBe(0)
    const apps = (JSON.parse(r.stdout) as { apps: (JsonApp & { source: { from: string } })[] }).apps
    expect(apps.map((a) => [a.slug, a.source.from])).toEqual([
      ['prometheus', 'compose'],
      ['freshrss', 'compose'],
      ['gogs', 'compose'],
      ['buildbot', 'compose'],
      ['buildbot', 'compose'],
      ['gogs', 'manifest']
    ])
    expect((await check('--api', origin, '--manifest', file, '--fail-on', 'unknown')).status).toBe(0)
  })

  it('refuses a file named that it cannot read, with its line, and a path that is not there', async () => {
    const root = await tree({ 'values.yaml': 'image:\n  repository: gogs/gogs\n  tag: [\n' })
    const r = await check('--api', origin, '--manifest', path.join(root, 'values.yaml'))
    expect(r.status).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/values\.yaml: is not YAML: line \d+/)
    const gone = await check('--api', origin, '--manifest', path.join(root, 'nothing-here'))
    expect(gone.status).toBe(2)
    expect(gone.stderr).toMatch(/nothing-here: cannot be read \(ENOENT\)/)
  })
})

describe('updatesafe check: bad input exits 2 with a clear message and prints no result', () => {
  const bad = async (args: string[], message: RegExp) => {
    const r = await check(...args)
    expect(r.status).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(message)
  }

  it('a Compose file that is not YAML, has no services, or leaves an image to interpolation', async () => {
    const notYaml = await compose('broken.yml', 'services:\n  a:\n    image: "unterminated\n  b: [\n')
    await bad(
      ['--api', origin, '--compose', notYaml],
      new RegExp(`${notYaml.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+: is not YAML`)
    )
    const two = await compose('two.yml', 'services:\n  a:\n    image: gogs/gogs:0.15.1\n---\nservices: {}\n')
    await bad(['--api', origin, '--compose', two], /two\.yml:4:1: holds more than one YAML document/)
    const none = await compose('none.yml', 'version: "3.8"\nvolumes:\n  data: {}\n')
    await bad(['--api', origin, '--compose', none], /none\.yml:1: has no services/)
    const helm = await compose(
      'helmrelease.yaml',
      'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nspec:\n  values:\n    image:\n      repository: gogs/gogs\n      tag: 0.15.1\n'
    )
    await bad(
      ['--api', origin, '--compose', helm],
      /helmrelease\.yaml:1: has no services: .*this looks like a Kubernetes or Helm file: read it with --manifest/
    )
    const vars = await compose(
      'vars.yml',
      'services:\n  ok:\n    image: gogs/gogs:0.15.1\n  app:\n    image: prom/prometheus:${PROM_VERSION}\n'
    )
    await bad(
      ['--api', origin, '--compose', vars],
      /vars\.yml:5: services\.app\.image: "prom\/prometheus:\$\{PROM_VERSION\}": uses \$\{PROM_VERSION\}, which is not set/
    )
    await bad(
      ['--api', origin, '--compose', path.join(dir, 'compose', 'missing.yml')],
      /missing\.yml: cannot be read \(ENOENT\)/
    )
    const bare = await compose(
      'bare.yml',
      'services:\n  ok:\n    image: gogs/gogs:0.15.1\n  app:\n    restart: always\n'
    )
    await bad(['--api', origin, '--compose', bare], /bare\.yml:4: services\.app: has neither image: nor build:/)
  })

  it('a Compose path that is a FIFO, a device or a folder, refused before anything is read', async () => {
    const fifo = path.join(dir, 'compose', 'pipe.yml')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    await bad(['--api', origin, '--compose', fifo], /pipe\.yml: is not a regular file/)
    await bad(['--api', origin, '--compose', '/dev/zero'], /\/dev\/zero: is not a regular file/)
    await bad(['--api', origin, '--compose', path.join(dir, 'compose')], /compose: is not a regular file/)
  })

  it('a snapshot address that answers 404 or something that is not JSON', async () => {
    await bad(['--api', `${origin}/nowhere`, '--from', 'gogs=0.14.3'], /nowhere\/api\/v1\/apps\.json: not found \(404/)
    const text = http.createServer((_, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>')
    )
    await new Promise<void>((ok) => text.listen(0, '127.0.0.1', ok))
    try {
      const url = `http://127.0.0.1:${(text.address() as AddressInfo).port}`
      await bad(['--api', url, '--from', 'gogs=0.14.3'], /apps\.json: is not JSON/)
    } finally {
      await new Promise((ok) => text.close(ok))
    }
  })

  it('flags it cannot use', async () => {
    await bad(['--from', 'gogs=0.14.3'], /check needs --api/)
    await bad(['--api', origin], /check needs --from APP=VERSION, --compose FILE or --manifest PATH/)
    await bad(['--api', origin, '--from', 'gogs'], /is not APP=VERSION/)
    await bad(['--api', origin, '--from', 'Gogs=0.14.3'], /names no app slug before "=" .*did you mean gogs\?/)
    await bad(['--api', origin, '--from', 'gogs='], /"gogs=" names no version after "="/)
    await bad(['--api', origin, '--from', 'no-such-app=1.0.0'], /no app "no-such-app" in the snapshot at [^(]*$/)
    // A slug written short, as the image names it (postgres for postgresql): the slugs that begin with it.
    await bad(
      ['--api', origin, '--from', 'prometh=3.0.0'],
      /no app "prometh" in the snapshot at .*\(did you mean "prometheus"/
    )
  })
})

describe('updatesafe check: the gate (--fail-on) and what the table says', () => {
  it('fails an update that is unknown overall but crosses a breaking release, and the table says which and why', async () => {
    // 1.0.0 is older than the judged history: the verdict is unknown, but breaking releases lie on the path. The
    // weightiest is quoted: the major 3.0.0, a required step, before the urgent fix v3.15.0.
    const r = await check('--api', origin, '--from', 'prometheus=1.0.0')
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(/^\(--from\)\s+prometheus\s+1\.0\.0\s+v3\.16\.0\s+unknown\s+breaking \(3\.0\.0\)\s+\S/m)
    expect(r.stdout).toContain('deprecated feature flags')
    const json = JSON.parse((await check('--api', origin, '--from', 'prometheus=1.0.0', '--json')).stdout) as {
      apps: { safeToUpdate: string; worst: { safeToUpdate: string; version: string } }[]
    }
    expect(json.apps[0]).toMatchObject({
      safeToUpdate: 'unknown',
      worst: { safeToUpdate: 'breaking', version: '3.0.0' }
    })
    // --allow-urgent counts a path of urgent fixes only as caution: it passes the default gate, not --fail-on caution.
    const urgent = ['--api', origin, '--from', 'prometheus=3.14.0', '--allow-urgent']
    expect((await check(...urgent)).status).toBe(0)
    const allowed = await check(...urgent, '--fail-on', 'caution')
    expect(allowed.status).toBe(1)
    expect(allowed.stdout).toMatch(/caution \(v3\.15\.0\) urgent fix, allowed/)
  })

  it('counts an image the catalog does not know, or a version it cannot place, as unknown: failing only --fail-on unknown', async () => {
    const file = await compose(
      'gate.yml',
      'services:\n  git:\n    image: gogs/gogs:0.15.1\n  db:\n    image: postgres:16.4\n  web:\n    build: .\n'
    )
    // postgres 16.4 to the latest changes the major version, which the catalog cannot judge: breaking by default.
    const major = await check('--api', origin, '--compose', file)
    expect(major.status).toBe(1)
    expect(major.stdout).toMatch(/^db\s+postgresql\s+16\.4\s+\S+\s+unknown\s+breaking unjudged major/m)
    const allowed = ['--api', origin, '--compose', file, '--allow-unjudged-major']
    expect((await check(...allowed)).status).toBe(0)
    expect((await check(...allowed, '--fail-on', 'caution')).status).toBe(0)
    expect((await check(...allowed, '--fail-on', 'unknown')).status).toBe(1)
    // Built from source only: nothing to update, not unknown.
    const built = await compose('built.yml', 'services:\n  git:\n    image: gogs/gogs:0.15.1\n  web:\n    build: .\n')
    expect((await check('--api', origin, '--compose', built, '--fail-on', 'unknown')).status).toBe(0)
    const latest = await compose('latest.yml', 'services:\n  git:\n    image: gogs/gogs:latest\n')
    expect((await check('--api', origin, '--compose', latest)).status).toBe(0)
    expect((await check('--api', origin, '--compose', latest, '--fail-on', 'unknown')).status).toBe(1)
  })

  it('prints no line a GitHub runner would read as a workflow command, whatever a service is named', async () => {
    const file = await compose('commands.yml', 'services:\n  "::warning::planted":\n    image: gogs/gogs:0.14.3\n')
    const r = await check('--api', origin, '--compose', file)
    expect(r.status).toBe(1)
    expect(r.stdout).toMatch(/^\\u\{3a\}:warning::planted\s+gogs\s+0\.14\.3/m)
    expect(r.stdout.split('\n').filter((l) => l.trimStart().startsWith('::'))).toEqual([])
  })

  it('says of an app whose releases the catalog has not read that it has not read them, with no made-up version', async () => {
    const apps = JSON.parse(await readFile(path.join(dir, 's3', 'api/v1/apps.json'), 'utf8')) as {
      apps: { slug: string; latestVersion: string }[]
    }
    const unread = apps.apps.find((a) => a.latestVersion === 'not-read-yet')!
    expect(unread).toBeDefined()
    const r = await check('--api', origin, '--from', `${unread.slug}=1.0.0`)
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(
      new RegExp(`^\\(--from\\)\\s+${unread.slug}\\s+1\\.0\\.0\\s+\\(not read\\)\\s+unknown`, 'm')
    )
    expect(r.stdout).toContain(`has not read a release of ${unread.slug} yet`)
    expect(r.stdout).not.toContain('not-read-yet')
  })

  it('--fail-on never always exits 0; a level it does not know is a usage error', async () => {
    expect((await check('--api', origin, '--from', 'gogs=0.14.3', '--fail-on', 'never')).status).toBe(0)
    expect((await check('--api', origin, '--from', 'gogs=0.14.3', '--fail-on', 'Breaking')).status).toBe(1)
    const r = await check('--api', origin, '--from', 'gogs=0.14.3', '--fail-on', 'sometimes')
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/--fail-on "sometimes" is not one of breaking, caution, unknown, never/)
  })

  it('wraps the deciding words under their column instead of cutting them', async () => {
    const { checkTable } = await import('../../src/check/table.js')
    const json = await check('--api', origin, '--from', 'gogs=0.14.3', '--json')
    expect(json.status).toBe(1)
    const { runCheck } = await import('../../src/check/report.js')
    const { snapshotReader } = await import('../../src/check/snapshot.js')
    const result = await runCheck(snapshotReader(origin), { from: [{ slug: 'gogs', version: '0.14.3' }], services: [] })
    const printed = checkTable(result, { columns: 80 }).trimEnd().split('\n')
    // The table, then a blank line, the legend and the summary line, those within the width.
    expect(printed.slice(printed.indexOf('')).every((l) => l.length <= 80)).toBe(true)
    expect(printed.at(-1)).toBe('1 checked, worst breaking; 0 not checked.')
    const narrow = printed.slice(0, printed.indexOf(''))
    const indent = narrow[0]!.indexOf('WHY')
    expect(narrow.length).toBeGreaterThan(2)
    expect(narrow.every((l) => l.length <= Math.max(80, indent + 30))).toBe(true)
    expect(narrow.slice(2).every((l) => l.startsWith(' '.repeat(indent)) && l[indent] !== ' ')).toBe(true)
    // Every word of the decision is there, in order, across the lines.
    const words = narrow
      .map((l, i) => (i === 0 ? '' : l.slice(indent)))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim()
    const quote = result.apps[0]!.decidedBy!.quote!.replace(/\s+/g, ' ').trim()
    expect(words).toBe(quote)
  })
})

describe('updatesafe help and version', () => {
  it('prints one command’s own help with examples, and the version from package.json', async () => {
    const help = await check('--help')
    expect(help.status).toBe(0)
    expect(help.stdout).toMatch(/^updatesafe check \[options\]/)
    expect(help.stdout).toContain('--fail-on breaking|caution|unknown|never')
    expect(help.stdout).toMatch(/Examples:\n\s+updatesafe check --api/)
    expect(help.stdout).not.toContain('  build ')
    const out: string[] = []
    expect(await main(['--version'], quiet, {}, (t) => out.push(t))).toBe(0)
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string }
    expect(out.join('')).toBe(`${version}\n`)
  })
})

describe('updatesafe check --resolve-images', () => {
  it('finds an unmapped image’s app by its source label, read from a registry with an anonymous token', async () => {
    const seen: { path: string; auth: string | undefined; accept: string | undefined }[] = []
    const digest = (s: string) => `sha256:${s.repeat(64).slice(0, 64)}`
    let registryUrl = ''
    // A stand-in for an OCI registry: a token endpoint, an image index, a manifest and a config blob.
    const registry = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x')
      seen.push({ path: u.pathname + u.search, auth: req.headers.authorization, accept: req.headers.accept })
      const send = (status: number, doc: unknown, type = 'application/json', headers = {}) =>
        res.writeHead(status, { 'content-type': type, ...headers }).end(JSON.stringify(doc))
      if (u.pathname === '/token') return send(200, { token: 'anon-token', expires_in: 300 })
      if (req.headers.authorization !== 'Bearer anon-token')
        return send(401, { errors: [{ code: 'UNAUTHORIZED' }] }, 'application/json', {
          'www-authenticate': `Bearer realm="${registryUrl}/token",service="registry.test",scope="repository:${u.pathname.split('/').slice(2, 4).join('/')}:pull"`
        })
      const m = /^\/v2\/(mirror\/\w+)\/(manifests|blobs)\/(.+)$/.exec(u.pathname)
      if (!m) return send(404, { errors: [{ code: 'NAME_UNKNOWN' }] })
      const [, repo, kind, ref] = m
      const labelled = repo === 'mirror/gogs'
      if (kind === 'manifests' && ref === '0.14.3')
        return send(
          200,
          {
            schemaVersion: 2,
            mediaType: 'application/vnd.oci.image.index.v1+json',
            manifests: [
              { digest: digest('b'), platform: { os: 'linux', architecture: 'arm64' } },
              { digest: digest('a'), platform: { os: 'linux', architecture: 'amd64' } }
            ]
          },
          'application/vnd.oci.image.index.v1+json'
        )
      if (kind === 'manifests' && ref === digest('a'))
        return send(
          200,
          { schemaVersion: 2, config: { digest: digest('c') } },
          'application/vnd.oci.image.manifest.v1+json'
        )
      if (kind === 'blobs' && ref === digest('c'))
        return send(200, {
          architecture: 'amd64',
          config: { Labels: labelled ? { 'org.opencontainers.image.source': 'https://github.com/gogs/gogs' } : null }
        })
      return send(404, { errors: [{ code: 'MANIFEST_UNKNOWN' }] })
    })
    await new Promise<void>((ok) => registry.listen(0, '127.0.0.1', ok))
    registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`
    try {
      const host = registryUrl.slice('http://'.length)
      const file = await compose(
        'mirrored.yml',
        `services:\n  git:\n    image: ${host}/mirror/gogs:0.14.3\n  other:\n    image: ${host}/mirror/other:0.14.3\n`
      )
      const off = await check('--api', origin, '--compose', file, '--json')
      expect(off.status).toBe(0)
      expect(seen).toEqual([]) // off by default: no request at all
      const r = await check('--api', origin, '--compose', file, '--json', '--resolve-images')
      expect(r.status).toBe(1)
      const doc = JSON.parse(r.stdout) as {
        apps: (JsonApp & { source: { resolvedFrom?: string; resolvedBy?: string } })[]
        untracked: { service: string; reason: string }[]
      }
      expect(
        doc.apps.map((a) => [a.slug, a.running, a.safeToUpdate, a.source.resolvedFrom, a.source.resolvedBy])
      ).toEqual([['gogs', '0.14.3', 'breaking', 'https://github.com/gogs/gogs', 'source-label']])
      expect(doc.untracked).toEqual([
        expect.objectContaining({
          service: 'other',
          reason: expect.stringContaining('--resolve-images: the image has no org.opencontainers.image.source label')
        })
      ])
      // The token was asked for anonymously, for pull access to that repository only.
      const tokenAsks = seen.filter((s) => s.path.startsWith('/token'))
      expect(tokenAsks.every((s) => s.auth === undefined)).toBe(true)
      expect(tokenAsks[0]!.path).toBe('/token?service=registry.test&scope=repository%3Amirror%2Fgogs%3Apull')
      expect(seen.find((s) => s.path === '/v2/mirror/gogs/manifests/0.14.3')?.accept).toContain(
        'application/vnd.oci.image.index.v1+json'
      )
    } finally {
      await new Promise((ok) => registry.close(ok))
    }
  })
})
