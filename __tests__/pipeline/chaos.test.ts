// The refresh under hostile upstream conditions, end to end: the real pipeline,
// the real Octokit client, the project's fake GitHub on 127.0.0.1. Whatever
// upstream does, every run completes, publishes the apps it can, keeps every app
// that had a previous record, and leaves out (with a warning) only apps that were
// never published and for which upstream gives nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { build, type BuildResult } from '../../src/pipeline/pipeline.js'
import type { CatalogDoc } from '../../src/schema/index.js'
import { refreshFromGitHub } from '../../src/upstream/github/refresh.js'
import type { Logger } from '../../src/util/types.js'
import { randomFaults, startFakeGitHub, type FakeGitHubOptions, type FakeRepo } from '../support/fake-github.js'
import { fleet, KINDS, longSummaryNotes, lost, runDay, type Day, type Fleet } from '../support/chaos-fleet.js'
import { tempDir } from '../support/tmp.js'

const TOKEN = 'ghs_chaostesttoken0123456789'
const NOW = new Date('2026-12-02T06:00:00.000Z')
let dir: string
let cleanup: () => Promise<void>
beforeAll(async () => ({ dir, cleanup } = await tempDir()))
afterAll(() => cleanup())

interface Run {
  result: BuildResult
  doc: CatalogDoc
  lines: string[]
  ms: number
}

let runs = 0
/**
 * Writes a catalog (slug → `owner/name`, or a whole record when it spans lines), refreshes it against a fake
 * GitHub, and returns what was published.
 */
async function refreshRun(
  records: Record<string, string>,
  fakeOptions: FakeGitHubOptions,
  opts: { previousDir?: string; requestTimeoutMs?: number; deadlineMs?: number; killed?: boolean } = {}
): Promise<Run> {
  const n = ++runs
  const catalog = path.join(dir, `catalog-${n}`)
  await mkdir(path.join(catalog, 'apps'), { recursive: true })
  for (const [slug, text] of Object.entries(records)) {
    const yaml = text.includes('\n') ? text : `name: ${slug}\nrepo: ${text}\n`
    await writeFile(path.join(catalog, 'apps', `${slug}.yml`), yaml)
  }
  const fake = await startFakeGitHub({ token: TOKEN, ...fakeOptions })
  // Killed: the port was GitHub's a moment ago and now refuses connections.
  if (opts.killed) await fake.close()
  const { requestTimeoutMs, deadlineMs, previousDir } = opts
  const lines: string[] = []
  const log: Logger = {
    info: (m) => lines.push(m),
    warning: (m, ref) => lines.push(`warning: ${ref?.file ? `${path.basename(ref.file)}: ` : ''}${m}`),
    error: (m) => lines.push(`error: ${m}`)
  }
  const start = Date.now()
  try {
    const result = await build(
      {
        catalogDir: catalog,
        outDir: path.join(dir, `site-${n}`),
        baseUrl: 'https://example.org',
        now: NOW,
        refresh: true,
        ...(previousDir ? { previousDir } : {})
      },
      {
        log,
        refresh: (targets) =>
          refreshFromGitHub(targets, {
            token: TOKEN,
            apiUrl: fake.apiUrl,
            graphqlUrl: fake.graphqlUrl,
            now: NOW,
            log,
            retry: { baseMs: 1 },
            throttle: { baseMs: 1 },
            ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
            ...(deadlineMs ? { deadline: AbortSignal.timeout(deadlineMs) } : {})
          })
      }
    )
    const doc = JSON.parse(await readFile(path.join(result.outDir, 'api/v1/apps.json'), 'utf8')) as CatalogDoc
    return { result, doc, lines, ms: Date.now() - start }
  } finally {
    if (!opts.killed) await fake.close()
  }
}

const release = (tagName: string, extra: object = {}) => ({
  tagName,
  createdAt: '2026-11-01T12:00:00Z',
  body: '## Bug fixes\n- Fix a crash.',
  ...extra
})

describe('one app never fails a refresh (issue 20, item 1)', () => {
  let run: Run
  beforeAll(async () => {
    const repos: FakeRepo[] = [
      { owner: 'acme', name: 'good', releases: [release('v1.0.0')] },
      { owner: 'acme', name: 'pre', releases: [release('v2.0.0-rc1', { prerelease: true })] },
      { owner: 'acme', name: 'draft', releases: [release('v3.0.0', { draft: true })] },
      {
        owner: 'acme',
        name: 'pretag',
        releases: [release('v2.0.0-rc1', { prerelease: true })],
        tags: [{ name: 'v1.9.0', date: '2026-10-01T00:00:00Z' }]
      },
      { owner: 'acme', name: 'empty', releases: [] },
      // GraphQL cannot answer for it and REST keeps failing.
      { owner: 'acme', name: 'broken', releases: [release('v1.0.0')], graphqlTimeout: true }
    ]
    run = await refreshRun(
      {
        good: 'acme/good',
        pre: 'acme/pre',
        draft: 'acme/draft',
        pretag: 'acme/pretag',
        empty: 'acme/empty',
        gone: 'acme/gone',
        broken: 'acme/broken'
      },
      {
        repos,
        fault: (info) =>
          info.api === 'rest' && info.path.includes('/acme/broken') ? { kind: 'status', status: 502 } : null
      }
    )
  })

  it('publishes the apps it can and succeeds', () => {
    expect(run.doc.apps.map((a) => [a.slug, a.latestVersion])).toEqual([
      ['good', 'v1.0.0'],
      ['pretag', 'v1.9.0']
    ])
  })

  it('takes the newest stable tag where no stable release exists: unknown, saying no release notes were published', () => {
    const pretag = run.doc.apps.find((a) => a.slug === 'pretag')!
    expect(pretag.safeToUpdate).toBe('unknown')
    expect(pretag.rationale).toMatch(/^No release notes were published/)
  })

  it('leaves out, with a warning that says what upstream did, each app with nothing to publish', () => {
    expect(run.result.leftOut.map((l) => l.slug)).toEqual(['broken', 'draft', 'empty', 'gone', 'pre'])
    const warnings = run.lines.filter((l) => l.includes('left out of this snapshot'))
    expect(warnings).toEqual([
      expect.stringMatching(/^warning: broken\.yml: broken left out of this snapshot: GraphQL .*REST 502/),
      expect.stringMatching(
        /^warning: draft\.yml: draft left out .*: no stable release or stable version tag .*1 draft/
      ),
      expect.stringMatching(/^warning: empty\.yml: empty left out .*: no releases and no stable version tag/),
      expect.stringMatching(/^warning: gone\.yml: gone left out .*: not found/),
      expect.stringMatching(
        /^warning: pre\.yml: pre left out .*: no stable release or stable version tag .*1 prerelease/
      )
    ])
    expect(run.lines.join('\n')).not.toContain('build with --refresh')
  })
})

describe('last-known-good is the whole record (issue 20, item 7)', () => {
  it('keeps an archived app with no releases unmaintained while upstream is down', async () => {
    const record = [
      'name: Old Tool',
      'repo: acme/old-tool',
      'successor: acme/new-tool',
      'release:',
      '  version: "2.0"',
      '  url: https://github.com/acme/old-tool/releases/tag/2.0',
      '  checked: 2026-11-21',
      ''
    ].join('\n')
    const up = await refreshRun(
      { 'old-tool': record },
      { repos: [{ owner: 'acme', name: 'old-tool', archived: true }] }
    )
    expect(up.doc.apps[0]).toMatchObject({ latestVersion: '2.0', safeToUpdate: 'unmaintained' })
    // The next day GitHub answers nothing but 502s.
    const down = await refreshRun(
      { 'old-tool': record },
      { repos: [], fault: () => ({ kind: 'status', status: 502 }) },
      { previousDir: up.result.outDir }
    )
    expect(down.result.stale).toEqual(['old-tool'])
    expect(down.doc.apps).toEqual(up.doc.apps)
    expect(down.result.changed).toEqual([])
  })

  it('takes a new fact while keeping the rest: a kept record whose repository is now archived becomes unmaintained', async () => {
    const first = await refreshRun(
      { tool: 'acme/tool' },
      { repos: [{ owner: 'acme', name: 'tool', releases: [release('v1.0.0')] }] }
    )
    // Whatever the classifier makes of the one-line notes, the app is maintained on the first run.
    expect(first.doc.apps[0]).toMatchObject({ latestVersion: 'v1.0.0' })
    expect(first.doc.apps[0]!.safeToUpdate).not.toBe('unmaintained')
    // Archived, and its releases deleted: nothing to read but the archive flag.
    const second = await refreshRun(
      { tool: 'acme/tool' },
      { repos: [{ owner: 'acme', name: 'tool', archived: true }] },
      { previousDir: first.result.outDir }
    )
    expect(second.doc.apps[0]).toMatchObject({ latestVersion: 'v1.0.0', safeToUpdate: 'unmaintained' })
  })
})

/** Name+repo records of `n` apps, `app-000` … */
function manyApps(n: number): { records: Record<string, string>; repos: FakeRepo[] } {
  const records: Record<string, string> = {}
  const repos: FakeRepo[] = []
  for (let i = 0; i < n; i++) {
    const name = `app-${String(i).padStart(3, '0')}`
    records[name] = `acme/${name}`
    repos.push({ owner: 'acme', name, releases: [release(`v1.${i}.0`)] })
  }
  return { records, repos }
}

describe('deadlines (issue 20, item 2)', () => {
  const { records, repos } = manyApps(120)
  let healthy: Run
  beforeAll(async () => {
    healthy = await refreshRun(records, { repos })
  })

  it('a frozen upstream: each request gives up at its timeout, the run finishes from last-known-good', async () => {
    const run = await refreshRun(
      records,
      { repos, frozen: true },
      { previousDir: healthy.result.outDir, requestTimeoutMs: 300 }
    )
    expect(run.doc.apps).toEqual(healthy.doc.apps)
    expect(run.result.stale).toHaveLength(120)
    expect(run.result.changed).toEqual([])
    expect(run.lines.join('\n')).toMatch(/no answer from 127\.0\.0\.1:\d+ within 0\.3 s \(timeout\)/)
    // 4 batches at a time, 300 ms each, and the breaker stops after 6 in a row: about 2 s (bound loose for CI load).
    expect(run.ms).toBeLessThan(10_000)
  })

  it('a killed upstream: refused connections are named as such, not "500", and nothing is lost', async () => {
    const run = await refreshRun(records, { repos }, { previousDir: healthy.result.outDir, killed: true })
    expect(run.doc.apps).toEqual(healthy.doc.apps)
    const text = run.lines.join('\n')
    expect(text).toMatch(/network error: connection refused by 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/)
    expect(text).not.toMatch(/\b500: /)
    expect(run.ms).toBeLessThan(8000)
  })

  it('the refresh deadline stops a slow upstream: every app keeps last-known-good, the run ends at once', async () => {
    const newer = repos.map((r) => ({ ...r, releases: [release(`${r.releases![0]!.tagName}1`)] }))
    const run = await refreshRun(
      records,
      { repos: newer, latencyMs: 10_000 },
      { previousDir: healthy.result.outDir, deadlineMs: 300 }
    )
    expect(run.result.stale).toHaveLength(120)
    expect(run.doc.apps).toEqual(healthy.doc.apps)
    expect(run.lines.join('\n')).toContain('the deadline was reached')
    expect(run.ms).toBeLessThan(8000)
  })
})

describe('faults are charged to the repository that caused them (issue 20, item 4)', () => {
  it('a 10 MB release body among 200 apps: every app is published, that one with its notes capped', async () => {
    const { records, repos } = manyApps(200)
    repos[137]!.releases = [release('v9.0.0', { body: `## Fixes\n- ${'x'.repeat(10 * 1024 * 1024)}` })]
    const run = await refreshRun(records, { repos })
    expect(run.doc.apps).toHaveLength(200)
    expect(run.result.leftOut).toEqual([])
    expect(run.result.stale).toEqual([])
    expect(run.doc.apps[137]).toMatchObject({ slug: 'app-137', latestVersion: 'v9.0.0' })
    expect(run.doc.apps[137]!.changelogSummary!.length).toBeLessThanOrEqual(500)
    expect(run.lines.join('\n')).not.toContain('stopped asking')
  })

  it('an unparsable answer for one repository: only that app keeps last-known-good, the breaker never trips', async () => {
    const { records, repos } = manyApps(200)
    const first = await refreshRun(records, { repos })
    // The next day every app has a new release, and app-010's answers arrive cut off.
    const next = repos.map((r) => ({ ...r, releases: [release(`${r.releases![0]!.tagName}.1`)] }))
    next[10]!.brokenAnswer = true
    const run = await refreshRun(records, { repos: next }, { previousDir: first.result.outDir })
    expect(run.result.stale).toEqual(['app-010'])
    expect(run.doc.apps[10]).toEqual(first.doc.apps[10])
    expect(run.doc.apps.filter((a) => a.latestVersion.endsWith('.1'))).toHaveLength(199)
    expect(run.lines.join('\n')).not.toMatch(/not asking further|stopped asking/)
  })
})

describe('60% of requests failing (5xx, secondary limits, resets)', () => {
  it('completes, loses no app that had a record, and publishes what it could read', async () => {
    const { records, repos } = manyApps(200)
    const first = await refreshRun(records, { repos })
    const next = repos.map((r) => ({ ...r, releases: [release(`${r.releases![0]!.tagName}.1`)] }))
    const run = await refreshRun(
      records,
      { repos: next, fault: randomFaults(0.6, 7) },
      { previousDir: first.result.outDir }
    )
    expect(run.doc.apps.map((a) => a.slug)).toEqual(first.doc.apps.map((a) => a.slug))
    const fresh = run.doc.apps.filter((a) => a.latestVersion.endsWith('.1')).length
    expect(fresh + run.result.stale.length).toBe(200)
    expect(run.result.leftOut).toEqual([])
  })
})

describe('a fault of one app is that app’s problem (issue 56)', () => {
  it('an archived app whose last release has a long summary is published unmaintained, its summary within bounds', async () => {
    const { records, repos } = manyApps(5)
    repos[2] = { ...repos[2]!, archived: true, releases: [release('v1.2.0', { body: longSummaryNotes() })] }
    const run = await refreshRun(records, { repos })
    expect(run.doc.apps).toHaveLength(5)
    const archived = run.doc.apps[2]!
    expect(archived).toMatchObject({ slug: 'app-002', latestVersion: 'v1.2.0', safeToUpdate: 'unmaintained' })
    expect(archived.changelogSummary!.length).toBeLessThanOrEqual(500)
    expect(archived.changelogSummary).toMatch(/^The last release: Features: .*…$/)
    // Cut at a word: the ellipsis follows a whole word.
    expect(archived.changelogSummary).toMatch(/[a-z]…$/)
  })
})

describe('an archived repository the catalog does not mark archived', () => {
  // The refresh that finds the repository archived (no release, a seed) used to publish it unmaintained with the
  // seed's `checked` day; an offline run then preferred the seed (same day, upstream not down): unknown.
  it('stays unmaintained in an offline run after the refresh that found it archived', async () => {
    const record = `name: Old\nrepo: chaos/old\nrelease:\n  version: "1.0"\n  url: https://github.com/chaos/old/releases/tag/1.0\n  checked: 2026-10-01\n`
    const apps: Fleet = {
      records: new Map([['old', record]]),
      kinds: new Map([['old', 'archived-empty']]),
      repos: () => [{ owner: 'chaos', name: 'old', archived: true }],
      renames: {}
    }
    const base = { dir: path.join(dir, 'unmarked') }
    const up = await runDay(apps, {
      ...base,
      name: 'd1',
      now: NOW,
      upstream: { fleet: apps, day: 1, faultRate: 0, seed: 1 }
    })
    expect(up.apps[0]!.safeToUpdate).toBe('unmaintained')
    const offline = await runDay(apps, { ...base, name: 'd2', now: NOW, previous: 'd1' })
    expect(offline.apps[0]!.safeToUpdate).toBe('unmaintained')
  })

  it('stays unmaintained offline when a later refresh finds it archived, after one that republished the seed', async () => {
    const record = `name: Old\nrepo: chaos/old2\nrelease:\n  version: "1.0"\n  url: https://github.com/chaos/old2/releases/tag/1.0\n  checked: 2026-10-01\n`
    const apps: Fleet = {
      records: new Map([['old2', record]]),
      kinds: new Map([['old2', 'archived-empty']]),
      // Day 1: no release yet, not archived (the seed is republished, unknown); day 2: archived.
      repos: (day) => [{ owner: 'chaos', name: 'old2', archived: day > 1 }],
      renames: {}
    }
    const base = { dir: path.join(dir, 'unmarked-later') }
    const at = (d: number) => new Date(Date.UTC(2026, 10, d, 6))
    const upstream = (day: number) => ({ fleet: apps, day, faultRate: 0, seed: 1 })
    const d1 = await runDay(apps, { ...base, name: 'd1', now: at(1), upstream: upstream(1) })
    expect(d1.apps[0]!.safeToUpdate).toBe('unknown')
    const d2 = await runDay(apps, { ...base, name: 'd2', now: at(2), previous: 'd1', upstream: upstream(2) })
    expect(d2.apps[0]!.safeToUpdate).toBe('unmaintained')
    const offline = await runDay(apps, { ...base, name: 'd3', now: at(3), previous: 'd2' })
    expect(offline.apps[0]!.safeToUpdate).toBe('unmaintained')
  })
})

describe('done when (issue 56): every kind of trouble, a faulty, a frozen and no upstream; every run publishes', () => {
  // Two of every kind; bench/chaos.mjs runs 1,000 apps.
  const apps = fleet(KINDS.length * 2, { poisonEvery: KINDS.length })
  const days: Day[] = []
  const at = (d: number) => new Date(Date.UTC(2026, 10, d, 6))
  beforeAll(async () => {
    const base = { dir: path.join(dir, 'fleet') }
    const up = (day: number, seed: number) => ({ fleet: apps, day, faultRate: 0.15, seed })
    days.push(await runDay(apps, { ...base, name: 'd1', now: at(1), upstream: up(1, 11) }))
    // (a) A refresh the next day: every plain app has a new release, 15% of requests fail.
    days.push(await runDay(apps, { ...base, name: 'd2', now: at(2), previous: 'd1', upstream: up(2, 12) }))
    // (b) A frozen upstream: it answers as the day before (other requests fail).
    days.push(await runDay(apps, { ...base, name: 'd3', now: at(3), previous: 'd2', upstream: up(2, 13) }))
    // (c) Offline: no refresh, from the snapshot before.
    days.push(await runDay(apps, { ...base, name: 'd4', now: at(4), previous: 'd3' }))
  })

  it('publishes on every run, with no record at fault', () => {
    for (const day of days) {
      expect(day.apps.length).toBeGreaterThan(0)
      expect(day.result.faults).toEqual([])
      expect(day.status.faults).toBeUndefined()
    }
  })

  it('loses no app that any run before had published', () => {
    const seen = new Map<string, string>()
    for (const day of days) {
      expect(
        lost(
          [...seen.keys()].map((slug) => ({ slug })),
          day.apps
        )
      ).toEqual([])
      for (const a of day.apps) seen.set(a.slug, a.latestVersion)
    }
    // Only the app that never had a release (nor a seed) is missing, and it is named as left out.
    const missing = [...apps.kinds.keys()].filter((slug) => !seen.has(slug))
    expect(missing.map((slug) => apps.kinds.get(slug))).toEqual(['never-released', 'never-released'])
    expect(days[0]!.status.failed).toEqual(expect.arrayContaining(missing))
  })

  it('publishes each kind as it should be', () => {
    const byKind = (day: Day, kind: string) => day.apps.filter((a) => apps.kinds.get(a.slug) === kind)
    for (const day of days) {
      for (const a of byKind(day, 'archived-long')) {
        expect(a.safeToUpdate).toBe('unmaintained')
        expect(a.changelogSummary!.length).toBeLessThanOrEqual(500)
      }
      for (const a of byKind(day, 'archived-empty')) expect(a.safeToUpdate).toBe('unmaintained')
      for (const a of byKind(day, 'release-less')) expect(a.latestVersion).toBe('v0.9.0')
      // Upstream's bidi controls never reach a record; its words are data there, escaped where they are shown.
      for (const a of byKind(day, 'hostile-text')) expect(a.rationale).not.toMatch(/[\u202A-\u202E\u0007]/)
    }
  })

  it('a frozen upstream and an offline run change no record that was published', () => {
    for (const day of days.slice(2)) {
      expect(day.result.changes.filter((c) => c.before !== null)).toEqual([])
    }
  })
})
