// Never "safe" across what was not read (issue 48, item 1): 45 releases came out since the published version, one
// of them breaking and far beyond the first page GitHub answers. The refresh pages back to the published version
// and judges it; with a cap below the span, the span it could not read becomes a gap in the history, and every
// verdict across it (the record, `check --from`, the page's "Upgrading from" row) is unknown, naming it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { main } from '../../src/commands.js'
import type { BuildDeps } from '../../src/pipeline/pipeline.js'
import { releasesDocSchema, type AppDoc, type ReleasesDoc } from '../../src/schema/index.js'
import { refreshFromGitHub, type RefreshStats } from '../../src/upstream/github/refresh.js'
import type { Logger } from '../../src/util/types.js'
import { builder, writeDemoCatalog } from '../support/demo-chain.js'
import { startFakeGitHub, type FakeGitHub, type FakeRelease } from '../support/fake-github.js'
import { tempDir } from '../support/tmp.js'

const TOKEN = 'ghs_historygaptesttoken0123456789'
const BASE = 'https://example.org/catalog'
// Made-up notes: a bug fix the classifier calls safe, and a removed setting it calls breaking.
const FIX = (n: number) => `## Bug fixes\n\n- The feed list keeps its sort order after a reload (made-up note ${n})`
const BREAKING =
  '## Breaking changes\n\n- The `DEMO_LISTEN` setting was removed. You must set `DEMO_PORT` instead before upgrading.'
/** The breaking one: with 20 releases a page, the 39th newest, on the second page. */
const BREAKING_AT = 7

let dir: string
let cleanup: () => Promise<void>
let fake: FakeGitHub
const lines: string[] = []
const log: Logger = {
  info: (m) => lines.push(m),
  warning: (m) => lines.push(`warning: ${m}`),
  error: (m) => lines.push(`error: ${m}`)
}

/** v1.0.0 (the published one, 2026-10-01), then v1.1.0 … v1.45.0, a day apart; v1.7.0 breaking. */
function releases(): FakeRelease[] {
  const list: FakeRelease[] = [{ tagName: 'v1.0.0', createdAt: '2026-10-01T12:00:00Z', body: FIX(0) }]
  for (let i = 1; i <= 45; i++) {
    const at = new Date(Date.UTC(2026, 9, 1 + i, 12)).toISOString()
    list.push({ tagName: `v1.${i}.0`, createdAt: at, body: i === BREAKING_AT ? BREAKING : FIX(i) })
  }
  return list
}

function refresh(stats: RefreshStats[], maxReleasesRead?: number): BuildDeps['refresh'] {
  return async (targets) => {
    const r = await refreshFromGitHub(targets, {
      token: TOKEN,
      apiUrl: fake.apiUrl,
      graphqlUrl: fake.graphqlUrl,
      now: new Date('2026-11-16T06:00:00.000Z'),
      log,
      retry: { retries: 0 },
      ...(maxReleasesRead ? { maxReleasesRead } : {})
    })
    stats.push(r.stats)
    return r
  }
}

async function check(api: string, ...from: string[]): Promise<{ status: number; doc: CheckDoc }> {
  const out: string[] = []
  const status = await main(['check', '--api', api, ...from.flatMap((f) => ['--from', f]), '--json'], log, {}, (t) =>
    out.push(t)
  )
  return { status, doc: JSON.parse(out.join('')) as CheckDoc }
}

interface CheckDoc {
  apps: {
    running: string
    safeToUpdate: string
    rationale: string
    breaking: boolean
    decidedBy: { version: string } | null
  }[]
}

async function published(out: string): Promise<{ record: AppDoc; history: ReleasesDoc; page: string }> {
  const read = (p: string) => readFile(path.join(dir, out, p), 'utf8')
  return {
    record: JSON.parse(await read('api/v1/apps/demo.json')) as AppDoc,
    history: releasesDocSchema.parse(JSON.parse(await read('api/v1/apps/demo/releases.json'))),
    page: await read('apps/demo/index.html')
  }
}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir())
  await writeDemoCatalog(dir)
  fake = await startFakeGitHub({ token: TOKEN, repos: [{ owner: 'demo-org', name: 'demo', releases: releases() }] })
  // Published before: v1.0.0, from the catalog's seed.
  await builder(dir, BASE, log)('s1', '2026-11-01T12:00:00.000Z')
})
afterAll(async () => {
  await fake.close()
  await cleanup()
})

describe('a refresh 45 releases behind', () => {
  it('pages back to the published version, judges the breaking release on the second page, and check --from exits 1', async () => {
    const stats: RefreshStats[] = []
    const before = fake.counts.graphql
    await builder(dir, BASE, log)('s2', '2026-11-16T06:00:00.000Z', 's1', refresh(stats))
    // One batch and one page of older releases: 2 requests, 70 releases read.
    expect(fake.counts.graphql - before).toBe(2)
    expect(stats[0]).toMatchObject({ requests: 2, olderPages: 1, pagedApps: 1, gaps: 0 })
    expect(fake.invalid).toEqual([])
    expect(fake.queries.at(-1)).toContain('after: $c0')

    const { record, history } = await published('s2')
    expect(record.latestVersion).toBe('v1.45.0')
    expect(record.safeToUpdate).toBe('breaking')
    expect(record.rationale).toContain('v1.7.0')
    expect(history.gaps).toBeUndefined()
    expect(history.releases).toHaveLength(46)
    expect(history.releases.find((e) => e.version === 'v1.7.0')?.safeToUpdate).toBe('breaking')

    const from = await check(path.join(dir, 's2'), 'demo=v1.0.0')
    expect(from.status).toBe(1)
    expect(from.doc.apps[0]).toMatchObject({ safeToUpdate: 'breaking', decidedBy: { version: 'v1.7.0' } })
    // Above the breaking release, only fixes are crossed.
    expect((await check(path.join(dir, 's2'), 'demo=v1.8.0')).doc.apps[0]!.safeToUpdate).toBe('safe')
  })

  it('with a cap below the span, records the span it could not read as a gap, and no verdict across it is safe', async () => {
    const stats: RefreshStats[] = []
    // 30 releases at most: the first page (20) and 10 older, v1.16.0 … v1.45.0; v1.1.0 … v1.15.0 are not read.
    await builder(dir, BASE, log)('s3', '2026-11-16T06:00:00.000Z', 's1', refresh(stats, 30))
    expect(stats[0]).toMatchObject({ olderPages: 1, gaps: 1 })
    expect(fake.invalid).toEqual([])

    const { record, history, page } = await published('s3')
    expect(history.gaps).toEqual([{ after: 'v1.0.0', before: 'v1.16.0', found: '2026-11-16' }])
    expect(history.releases.map((e) => e.version)).not.toContain('v1.7.0')
    // Every release read is a fix: without the gap this would be safe.
    expect(history.releases.filter((e) => e.version !== 'v1.0.0').every((e) => e.safeToUpdate === 'safe')).toBe(true)
    expect(record.safeToUpdate).toBe('unknown')
    expect(record.rationale).toContain('the releases after v1.0.0 and before v1.16.0 were never read')
    expect(lines).toContainEqual(expect.stringMatching(/^warning: GitHub: 1 apps published more releases .*\(demo\)/))

    const api = path.join(dir, 's3')
    const across = await check(api, 'demo=v1.0.0')
    expect(across.doc.apps[0]).toMatchObject({ safeToUpdate: 'unknown', breaking: false })
    expect(across.doc.apps[0]!.rationale).toContain('after v1.0.0 and before v1.16.0 were never read')
    // A version inside the span, not in the history, crosses it too.
    expect((await check(api, 'demo=v1.9.0')).doc.apps[0]!.safeToUpdate).toBe('unknown')
    // From the oldest release read on, everything crossed was read.
    expect((await check(api, 'demo=v1.16.0')).doc.apps[0]!.safeToUpdate).toBe('safe')

    // The page says so above its "Upgrading from" table, and in the row for v1.0.0.
    expect(page).toContain(
      '<p class="notice" role="note">Not judged: the releases after v1.0.0 and before v1.16.0 were never read. Updating across them is unknown, never safe.'
    )
    const row = /<tr data-v="v1\.0\.0">[\s\S]*?<\/tr>/.exec(page)?.[0] ?? ''
    expect(row).toContain('Unknown')
    expect(row).toContain('never read')
    expect(row).not.toMatch(/k-safe">Safe<\/span> <small>decided/)
  })

  it('carries the gap to the next refresh, where an update from below it is still unknown', async () => {
    const stats: RefreshStats[] = []
    await builder(dir, BASE, log)('s4', '2026-11-17T06:00:00.000Z', 's3', refresh(stats, 30))
    expect(stats[0]).toMatchObject({ olderPages: 0, gaps: 0 })
    const { history } = await published('s4')
    expect(history.gaps).toEqual([{ after: 'v1.0.0', before: 'v1.16.0', found: '2026-11-16' }])
    expect((await check(path.join(dir, 's4'), 'demo=v1.0.0')).doc.apps[0]!.safeToUpdate).toBe('unknown')
  })
})

describe('the REST fallback, 45 releases behind', () => {
  it('pages back by number to the published version, and judges the breaking release', async () => {
    const slow = await startFakeGitHub({
      token: TOKEN,
      repos: [{ owner: 'demo-org', name: 'demo', releases: releases(), graphqlTimeout: true }]
    })
    try {
      const { outcomes, stats } = await refreshFromGitHub(
        [{ slug: 'demo', repo: 'demo-org/demo', previousVersion: 'v1.0.0' }],
        {
          token: TOKEN,
          apiUrl: slow.apiUrl,
          graphqlUrl: slow.graphqlUrl,
          now: new Date('2026-11-16T06:00:00.000Z'),
          log,
          retry: { retries: 0 }
        }
      )
      const o = outcomes.get('demo')
      if (o?.status !== 'fresh') throw new Error(`expected fresh, got ${o?.status}`)
      expect(o.facts.crossed).toHaveLength(45)
      expect(o.facts.crossed.map((c) => c.version)).toContain('v1.7.0')
      expect(o.facts).not.toHaveProperty('gap')
      // The repository, then three pages of 20 releases: v1.0.0 is the 46th.
      expect(slow.requests.filter((r) => r.api === 'rest').map((r) => r.path)).toEqual([
        '/repos/demo-org/demo',
        '/repos/demo-org/demo/releases',
        '/repos/demo-org/demo/releases',
        '/repos/demo-org/demo/releases'
      ])
      expect(stats.restFallbacks).toBe(1)
    } finally {
      await slow.close()
    }
  })
})

describe('the cost of paging back', () => {
  it('pages the apps of every batch back together, and apps up to date never page', async () => {
    const repos = ['a', 'b', 'c'].map((name) => ({ owner: 'demo-org', name, releases: releases() }))
    const many = await startFakeGitHub({ token: TOKEN, repos })
    try {
      const { outcomes, stats } = await refreshFromGitHub(
        [
          { slug: 'a', repo: 'demo-org/a', previousVersion: 'v1.0.0' },
          { slug: 'b', repo: 'demo-org/b', previousVersion: 'v1.0.0' },
          { slug: 'c', repo: 'demo-org/c', previousVersion: 'v1.45.0' }
        ],
        {
          token: TOKEN,
          apiUrl: many.apiUrl,
          graphqlUrl: many.graphqlUrl,
          now: new Date('2026-11-16T06:00:00.000Z'),
          log,
          batchSize: 1
        }
      )
      // Three batches of one app, then one page of older releases for a and b together.
      expect(stats).toMatchObject({ batches: 3, olderPages: 1, pagedApps: 2, requests: 4 })
      for (const slug of ['a', 'b']) {
        const o = outcomes.get(slug)
        expect(o?.status === 'fresh' && o.facts.crossed.length).toBe(45)
      }
      expect(many.invalid).toEqual([])
    } finally {
      await many.close()
    }
  })
})

describe('a page of older releases that fails', () => {
  it('is read over REST instead, never recorded as a gap; with the budget spent the app keeps last-known-good', async () => {
    // The second GraphQL request (the older page) answers 502, and the client does not retry it.
    const faulty = await startFakeGitHub({
      token: TOKEN,
      repos: [{ owner: 'demo-org', name: 'demo', releases: releases() }],
      fault: (info) => (info.api === 'graphql' && info.n === 2 ? { kind: 'status', status: 502 } : null)
    })
    const poor = await startFakeGitHub({
      token: TOKEN,
      repos: [{ owner: 'demo-org', name: 'demo', releases: releases() }],
      rateLimit: { remaining: 51 }
    })
    try {
      const ask = (github: FakeGitHub) =>
        refreshFromGitHub([{ slug: 'demo', repo: 'demo-org/demo', previousVersion: 'v1.0.0' }], {
          token: TOKEN,
          apiUrl: github.apiUrl,
          graphqlUrl: github.graphqlUrl,
          now: new Date('2026-11-16T06:00:00.000Z'),
          log,
          retry: { retries: 0 }
        })
      const failed = await ask(faulty)
      const o = failed.outcomes.get('demo')
      expect(o?.status === 'fresh' && o.facts.crossed.length).toBe(45)
      expect(o?.status === 'fresh' && 'gap' in o.facts).toBe(false)
      expect(failed.stats).toMatchObject({ olderPages: 1, restFallbacks: 1, gaps: 0 })
      // 51 points, 50 kept in reserve: the first batch is asked (1 point), the page would dip below the reserve.
      const spent = await ask(poor)
      expect(spent.outcomes.get('demo')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('budget') })
      expect(spent.stats).toMatchObject({ olderPages: 0, gaps: 0 })
    } finally {
      await faulty.close()
      await poor.close()
    }
  })
})
