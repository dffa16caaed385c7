// The refresh against the local fake GitHub (127.0.0.1): every GraphQL query the
// client sends is validated by the fake against GitHub's published schema.
import { afterEach, expect, it } from '@jest/globals'
import { describe } from '../../support/needs-shared-data.js'
import { LIMITS } from '../../../src/schema/index.js'
import { recorder } from '../../support/log.js'
import { githubEndpoints } from '../../../src/upstream/github/endpoints.js'
import {
  refreshFromGitHub,
  type RefreshOptions,
  type RefreshOutcome,
  type RefreshTarget
} from '../../../src/upstream/github/refresh.js'
import {
  realReleaseSeries,
  repoFromSeries,
  startFakeGitHub,
  type FakeGitHub,
  type FakeGitHubOptions,
  type FakeRepo,
  type FakeTag
} from '../../support/fake-github.js'

const TOKEN = 'ghs_testtoken0123456789'
const now = new Date('2026-11-21T08:00:00Z')
const series = realReleaseSeries()
// Newest stable tag of each real series (read off the changelogs in the fixture).
const NEWEST: Record<string, string> = {
  'traefik/traefik': 'v3.7.9',
  'go-vikunja/vikunja': 'v2.5.0',
  'healthchecks/healthchecks': 'v4.3',
  'element-hq/synapse': 'v1.157.1',
  'miniflux/v2': '2.2.11',
  'sissbruecker/linkding': 'v1.46.2',
  'kimai/kimai': '2.66.0'
}

let fake: FakeGitHub | null = null
afterEach(async () => {
  await fake?.close()
  fake = null
})

async function start(options: FakeGitHubOptions): Promise<FakeGitHub> {
  fake = await startFakeGitHub({ token: TOKEN, ...options })
  return fake
}

function refresh(f: FakeGitHub, targets: RefreshTarget[], extra: Partial<RefreshOptions> = {}) {
  return refreshFromGitHub(targets, {
    token: TOKEN,
    apiUrl: f.apiUrl,
    graphqlUrl: f.graphqlUrl,
    now,
    log: recorder().log,
    retry: { baseMs: 1 },
    throttle: { baseMs: 1 },
    ...extra
  })
}

function real(nwo: string, extra: Partial<FakeRepo> = {}): FakeRepo {
  return repoFromSeries(nwo, series.get(nwo)!, extra)
}

function version(o: RefreshOutcome | undefined): string | null {
  return o && (o.status === 'fresh' || o.status === 'moved') ? (o.facts?.version ?? null) : null
}

describe('refreshFromGitHub: answers', () => {
  it('reads a batch in one request: latest stable release, its notes and page, crossed releases, the run day', async () => {
    const f = await start({
      repos: [real('traefik/traefik'), real('go-vikunja/vikunja'), real('sissbruecker/linkding')]
    })
    const { log, lines } = recorder()
    const { outcomes, stats } = await refresh(
      f,
      [
        { slug: 'traefik', repo: 'traefik/traefik' },
        { slug: 'vikunja', repo: 'go-vikunja/vikunja', previousVersion: 'v1.1.0' },
        { slug: 'linkding', repo: 'sissbruecker/linkding', previousVersion: 'v1.46.2' }
      ],
      { log }
    )
    const traefik = outcomes.get('traefik')
    expect(traefik).toEqual({
      status: 'fresh',
      facts: {
        version: 'v3.7.9',
        url: 'https://github.com/traefik/traefik/releases/tag/v3.7.9',
        date: '2026-07-24',
        notes: series.get('traefik/traefik')!.find((r) => r.tag === 'v3.7.9')!.notes,
        checked: '2026-11-21',
        archived: false,
        crossed: [
          {
            version: 'v3.7.9',
            notes: series.get('traefik/traefik')!.find((r) => r.tag === 'v3.7.9')!.notes,
            url: 'https://github.com/traefik/traefik/releases/tag/v3.7.9',
            date: '2026-07-24'
          }
        ],
        // Never published before: the answer's releases below the latest start its history.
        earlier: expect.any(Array)
      }
    })
    expect(traefik?.status === 'fresh' && traefik.facts.earlier!.map((r) => r.version)).toEqual([
      'v3.7.2',
      'v3.7.3',
      'v3.7.4',
      'v3.7.6',
      'v3.7.8'
    ])
    const vikunja = outcomes.get('vikunja')
    expect(vikunja?.status === 'fresh' && vikunja.facts.crossed.map((c) => c.version)).toEqual([
      'v2.0.0',
      'v2.2.1',
      'v2.2.2',
      'v2.5.0'
    ])
    expect(version(outcomes.get('linkding'))).toBe('v1.46.2')
    expect(stats).toMatchObject({ requests: 1, batches: 1, graphqlPoints: 1, remaining: 4999 })
    expect(f.counts).toMatchObject({ total: 1, graphql: 1, rest: 0 })
    expect(f.invalid).toEqual([])
    expect(lines.join('\n')).not.toContain(TOKEN)
    expect(lines.some((l) => l.includes('3 apps, 1 requests'))).toBe(true)
  })

  it('never takes a draft or a prerelease, by flag or by label', async () => {
    const repo = real('go-vikunja/vikunja')
    repo.releases!.push(
      { tagName: 'v2.6.0', createdAt: '2026-10-01T00:00:00Z', draft: true, body: 'draft' },
      { tagName: 'v2.6.0-rc.1', createdAt: '2026-10-02T00:00:00Z', prerelease: true, body: 'flagged' },
      { tagName: 'v2.7.0-beta.1', createdAt: '2026-10-03T00:00:00Z', body: 'not flagged, but a beta label' }
    )
    const f = await start({ repos: [repo] })
    const { outcomes } = await refresh(f, [{ slug: 'vikunja', repo: 'go-vikunja/vikunja', previousVersion: 'v2.2.2' }])
    const o = outcomes.get('vikunja')
    expect(version(o)).toBe('v2.5.0')
    expect(o?.status === 'fresh' && o.facts.crossed.map((c) => c.version)).toEqual(['v2.5.0'])
  })

  it('honours tagPrefix and tagPattern in monorepos (two apps of one repository in one request)', async () => {
    const f = await start({
      repos: [
        {
          owner: 'n8n-io',
          name: 'n8n',
          releases: [
            { tagName: 'n8n@1.64.2', createdAt: '2024-10-20T10:00:00Z', body: 'n8n 1.64.2' },
            { tagName: '@n8n/chat@0.30.0', createdAt: '2024-10-21T10:00:00Z', body: 'chat' },
            { tagName: 'n8n@1.64.3', createdAt: '2024-10-22T10:00:00Z', body: 'n8n 1.64.3' },
            { tagName: 'n8n@1.65.0-beta.1', createdAt: '2024-10-23T10:00:00Z', body: 'beta', prerelease: true },
            { tagName: '@n8n/chat@0.31.0', createdAt: '2024-10-24T10:00:00Z', body: 'chat 0.31' }
          ]
        },
        {
          owner: 'acme',
          name: 'server',
          releases: [
            { tagName: 'release/1.9', createdAt: '2025-01-01T00:00:00Z', body: '1.9' },
            { tagName: 'release/1.10', createdAt: '2025-02-01T00:00:00Z', body: '1.10' },
            { tagName: 'nightly/2025.03.01', createdAt: '2025-03-01T00:00:00Z', body: 'nightly' }
          ]
        }
      ]
    })
    const { outcomes, stats } = await refresh(f, [
      { slug: 'n8n', repo: 'n8n-io/n8n', tagPrefix: 'n8n@', previousVersion: 'n8n@1.64.2' },
      { slug: 'n8n-chat', repo: 'n8n-io/n8n', tagPrefix: '@n8n/chat@' },
      { slug: 'acme', repo: 'acme/server', tagPattern: '^release/\\d+\\.\\d+$' }
    ])
    const n8n = outcomes.get('n8n')
    expect(n8n?.status === 'fresh' && n8n.facts).toMatchObject({
      version: 'n8n@1.64.3',
      notes: 'n8n 1.64.3',
      url: 'https://github.com/n8n-io/n8n/releases/tag/n8n@1.64.3',
      crossed: [{ version: 'n8n@1.64.3', notes: 'n8n 1.64.3' }]
    })
    expect(version(outcomes.get('n8n-chat'))).toBe('@n8n/chat@0.31.0')
    expect(version(outcomes.get('acme'))).toBe('release/1.10')
    expect(stats.requests).toBe(1)
    expect(f.invalid).toEqual([])
  })

  it('falls back to the newest stable tag (by version, not date) when a repository has no releases', async () => {
    const tags: FakeTag[] = series
      .get('miniflux/v2')!
      .map((r, i) => ({ name: r.tag, date: r.createdAt, annotated: i % 2 === 0 }))
    // A re-tagged old version with the newest commit date must not win.
    tags.push(
      { name: '2.0.43', date: '2026-11-01T00:00:00Z', annotated: false },
      { name: '2.3.0-rc1', date: '2026-11-02T00:00:00Z' }
    )
    const f = await start({ repos: [{ owner: 'miniflux', name: 'v2', tags }] })
    const { outcomes } = await refresh(f, [{ slug: 'miniflux', repo: 'miniflux/v2', previousVersion: '2.2.9' }])
    expect(outcomes.get('miniflux')).toEqual({
      status: 'fresh',
      facts: {
        version: '2.2.11',
        url: 'https://github.com/miniflux/v2/tree/2.2.11',
        date: '2025-07-26',
        notes: '',
        checked: '2026-11-21',
        archived: false,
        crossed: [
          { version: '2.2.10', notes: '', url: 'https://github.com/miniflux/v2/tree/2.2.10', date: '2025-06-23' },
          { version: '2.2.11', notes: '', url: 'https://github.com/miniflux/v2/tree/2.2.11', date: '2025-07-26' }
        ],
        fromTags: true
      }
    })
  })

  it('reports a repository with only prereleases as no-release, and its batch-mates normally', async () => {
    const rcOnly = real('go-vikunja/vikunja')
    rcOnly.releases = rcOnly.releases!.filter((r) => r.tagName === 'v1.0.0-rc0')
    rcOnly.name = 'vikunja-rc'
    const f = await start({ repos: [rcOnly, real('kimai/kimai')] })
    const { outcomes } = await refresh(f, [
      { slug: 'rc', repo: 'go-vikunja/vikunja-rc' },
      { slug: 'kimai', repo: 'kimai/kimai' }
    ])
    expect(outcomes.get('rc')).toEqual({
      status: 'no-release',
      archived: false,
      checked: '2026-11-21',
      reason: 'no stable release or stable version tag among the 1 most recent releases (1 prerelease, 0 draft)'
    })
    expect(version(outcomes.get('kimai'))).toBe('2.66.0')
  })

  it('reports a renamed repository as moved, with the new name and its facts', async () => {
    const f = await start({
      repos: [real('element-hq/synapse')],
      renames: { 'matrix-org/synapse': 'element-hq/synapse' }
    })
    const { outcomes } = await refresh(f, [{ slug: 'synapse', repo: 'matrix-org/synapse' }])
    const o = outcomes.get('synapse')
    expect(o?.status).toBe('moved')
    if (o?.status !== 'moved') return
    expect(o.movedTo).toBe('element-hq/synapse')
    expect(o.facts).toMatchObject({
      version: 'v1.157.1',
      movedTo: 'element-hq/synapse',
      url: 'https://github.com/element-hq/synapse/releases/tag/v1.157.1'
    })
  })

  it('does not call a change of letter case a move', async () => {
    const f = await start({ repos: [real('healthchecks/healthchecks')] })
    const { outcomes } = await refresh(f, [{ slug: 'hc', repo: 'HealthChecks/HealthChecks' }])
    expect(outcomes.get('hc')?.status).toBe('fresh')
  })

  it('marks archived and disabled repositories', async () => {
    const f = await start({
      repos: [
        real('healthchecks/healthchecks', { archived: true }),
        real('kimai/kimai', { disabled: true }),
        real('miniflux/v2')
      ]
    })
    const { outcomes } = await refresh(f, [
      { slug: 'hc', repo: 'healthchecks/healthchecks' },
      { slug: 'kimai', repo: 'kimai/kimai' },
      { slug: 'miniflux', repo: 'miniflux/v2' }
    ])
    const archived = (slug: string) => {
      const o = outcomes.get(slug)
      return o?.status === 'fresh' ? o.facts.archived : null
    }
    expect([archived('hc'), archived('kimai'), archived('miniflux')]).toEqual([true, true, false])
  })

  it('maps NOT_FOUND and FORBIDDEN to that app only, in the same single request', async () => {
    const f = await start({
      repos: [real('traefik/traefik'), real('kimai/kimai', { hidden: true }), real('miniflux/v2', { forbidden: true })]
    })
    const { outcomes, stats } = await refresh(f, [
      { slug: 'traefik', repo: 'traefik/traefik' },
      { slug: 'gone', repo: 'nobody/gone' },
      { slug: 'private', repo: 'kimai/kimai' },
      { slug: 'saml', repo: 'miniflux/v2' }
    ])
    expect(version(outcomes.get('traefik'))).toBe('v3.7.9')
    expect(outcomes.get('gone')).toEqual({
      status: 'not-found',
      reason: "not found: Could not resolve to a Repository with the name 'nobody/gone'."
    })
    expect(outcomes.get('private')?.status).toBe('not-found')
    expect(outcomes.get('saml')).toMatchObject({
      status: 'not-found',
      reason: expect.stringMatching(/^no access: Resource protected by organization SAML/)
    })
    expect(stats.requests).toBe(1)
  })

  it('caps release notes at LIMITS.notes', async () => {
    const notes = series
      .get('element-hq/synapse')!
      .map((r) => r.notes)
      .join('\n\n')
    const huge = notes.repeat(Math.ceil((LIMITS.notes * 2) / notes.length))
    const f = await start({
      repos: [
        {
          owner: 'big',
          name: 'notes',
          releases: [{ tagName: 'v1.0.0', createdAt: '2026-01-01T00:00:00Z', body: huge }]
        }
      ]
    })
    const { outcomes } = await refresh(f, [{ slug: 'big', repo: 'big/notes' }])
    const o = outcomes.get('big')
    if (o?.status !== 'fresh') throw new Error('expected fresh')
    expect(huge.length).toBeGreaterThan(LIMITS.notes)
    expect(o.facts.notes).toBe(huge.slice(0, LIMITS.notes))
    expect(o.facts.crossed[0]!.notes.length).toBe(LIMITS.notes)
  })

  it('sends 50 apps per request and gives every app its own repository answer', async () => {
    const names = [...series.keys()]
    const repos: FakeRepo[] = []
    const targets: RefreshTarget[] = []
    for (let i = 0; i < 120; i++) {
      const nwo = names[i % names.length]!
      const [, name] = nwo.split('/')
      repos.push(repoFromSeries(`owner-${i}/${name}`, series.get(nwo)!))
      targets.push({ slug: `app-${i}`, repo: `owner-${i}/${name}` })
    }
    const f = await start({ repos })
    const { outcomes, stats } = await refresh(f, targets)
    expect(stats).toMatchObject({ requests: 3, batches: 3, graphqlPoints: 3 })
    for (let i = 0; i < 120; i++) expect(version(outcomes.get(`app-${i}`))).toBe(NEWEST[names[i % names.length]!])
    expect(f.queries).toHaveLength(3)
    expect(f.invalid).toEqual([])
  })
})

describe('refreshFromGitHub: faults', () => {
  it('retries 502, 500 and connection resets, counting every attempt', async () => {
    const faults = new Map([
      [1, { kind: 'status', status: 502 } as const],
      [2, { kind: 'status', status: 500 } as const],
      [3, { kind: 'reset' } as const]
    ])
    const f = await start({ repos: [real('traefik/traefik')], fault: (i) => faults.get(i.n) ?? null })
    const { outcomes, stats } = await refresh(f, [{ slug: 'traefik', repo: 'traefik/traefik' }])
    expect(version(outcomes.get('traefik'))).toBe('v3.7.9')
    expect(stats.requests).toBe(4)
    expect(f.requests.map((r) => r.fault)).toEqual(['status', 'status', 'reset', null])
  })

  it('waits at least retry-after on a secondary rate limit (403 and 429)', async () => {
    const base = 25
    const f = await start({
      repos: [real('traefik/traefik')],
      fault: (i) =>
        i.n === 1
          ? { kind: 'secondary', retryAfter: 3 }
          : i.n === 2
            ? { kind: 'secondary', retryAfter: 2, status: 429 }
            : null
    })
    const { outcomes } = await refresh(f, [{ slug: 'traefik', repo: 'traefik/traefik' }], {
      throttle: { baseMs: base },
      retry: { baseMs: 1 }
    })
    expect(version(outcomes.get('traefik'))).toBe('v3.7.9')
    const [a, b, c] = f.requests
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(3 * base)
    expect(c!.at - b!.at).toBeGreaterThanOrEqual(2 * base)
  })

  it('waits for x-ratelimit-reset on a primary rate limit when it is near', async () => {
    const base = 25
    const f = await start({
      repos: [real('traefik/traefik')],
      fault: (i) => (i.n === 1 ? { kind: 'primary', resetInSeconds: 2 } : null)
    })
    const { outcomes } = await refresh(f, [{ slug: 'traefik', repo: 'traefik/traefik' }], {
      throttle: { baseMs: base }
    })
    expect(version(outcomes.get('traefik'))).toBe('v3.7.9')
    expect(f.requests[1]!.at - f.requests[0]!.at).toBeGreaterThanOrEqual(2 * base)
  })

  it('stops asking when the rate limit resets too late, keeping every app as skipped', async () => {
    const f = await start({
      repos: [real('traefik/traefik'), real('kimai/kimai')],
      fault: (i) => (i.n === 1 ? { kind: 'primary', resetInSeconds: 3600 } : null)
    })
    const { log, lines } = recorder()
    const { outcomes, stats } = await refresh(
      f,
      [
        { slug: 'traefik', repo: 'traefik/traefik' },
        { slug: 'kimai', repo: 'kimai/kimai' }
      ],
      { log, batchSize: 1, concurrency: 1 }
    )
    expect(outcomes.get('traefik')).toEqual({ status: 'skipped', reason: 'GitHub rate limit reached' })
    expect(outcomes.get('kimai')).toEqual({ status: 'skipped', reason: 'GitHub rate limit reached' })
    expect(stats.requests).toBe(1)
    // What was done about the limit, and why: not a bare "not waiting".
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^info: GitHub rate limit on POST \S+\/graphql: gave up rather than wait 36\d\d s \(longer than the 60 s a refresh waits\)$/
      )
    )
    expect(lines.some((l) => l.startsWith('warning: GitHub: GitHub rate limit reached; 2 apps were not asked'))).toBe(
      true
    )
  })

  it('splits a batch that keeps failing down to the repository at fault, and reads that one over REST', async () => {
    const names = [...series.keys()]
    const repos = names.map((nwo) => real(nwo, nwo === 'go-vikunja/vikunja' ? { graphqlTimeout: true } : {}))
    repos.push(real('traefik/traefik', { owner: 'traefik2' }))
    const f = await start({ repos })
    const targets = repos.map((r, i) => ({ slug: `app-${i}`, repo: `${r.owner}/${r.name}` }))
    const { log, lines } = recorder()
    const { outcomes, stats } = await refresh(f, targets, { log })
    for (const [i, r] of repos.entries()) {
      const nwo = r.owner === 'traefik2' ? 'traefik/traefik' : `${r.owner}/${r.name}`
      expect(version(outcomes.get(`app-${i}`))).toBe(NEWEST[nwo])
    }
    // 8 → 4 + 4 → 2 + 2 → 1 + 1, then REST for the one GraphQL cannot answer.
    expect(stats.batches).toBe(7)
    expect(stats.restFallbacks).toBe(1)
    expect(f.counts.rest).toBe(2)
    const vikunja = outcomes.get(`app-${names.indexOf('go-vikunja/vikunja')}`)
    expect(vikunja?.status === 'fresh' && vikunja.facts.notes).toBe(series.get('go-vikunja/vikunja')![0]!.notes)
    expect(lines.filter((l) => l.includes('splitting'))).toHaveLength(3)
    expect(f.invalid).toEqual([])
  })

  it('asks again only for the repository whose alias errored', async () => {
    const f = await start({ repos: [real('traefik/traefik'), real('kimai/kimai', { flaky: 1 }), real('miniflux/v2')] })
    const { outcomes, stats } = await refresh(f, [
      { slug: 'traefik', repo: 'traefik/traefik' },
      { slug: 'kimai', repo: 'kimai/kimai' },
      { slug: 'miniflux', repo: 'miniflux/v2' }
    ])
    expect([
      version(outcomes.get('traefik')),
      version(outcomes.get('kimai')),
      version(outcomes.get('miniflux'))
    ]).toEqual(['v3.7.9', '2.66.0', '2.2.11'])
    expect(stats).toMatchObject({ requests: 2, batches: 2 })
    expect(f.queries[1]).toContain('r0: repository')
    expect(f.queries[1]).not.toContain('r1: repository')
  })

  it('two repositories GraphQL cannot answer among 200: the breaker never trips, every app is read', async () => {
    // Each fails every batch that holds it (a "Something went wrong" timeout, which Octokit retries as a 500), so
    // halving down to it fails a request at each level: at the head of a batch, 7 in a row before any half answers.
    const releases = [{ tagName: 'v1.2.0', createdAt: '2026-11-20T10:00:00Z', body: '## Fixes\n- A made-up fix.' }]
    const repos: FakeRepo[] = Array.from({ length: 200 }, (_, i) => ({
      owner: 'fleet',
      name: `app-${i}`,
      releases,
      ...(i === 0 || i === 50 ? { graphqlTimeout: true } : {})
    }))
    const f = await start({ repos })
    const targets = repos.map((r) => ({ slug: r.name, repo: `fleet/${r.name}` }))
    const { log, lines } = recorder()
    const { outcomes, stats } = await refresh(f, targets, { log })
    expect(targets.map((t) => t.slug).filter((s) => version(outcomes.get(s)) !== 'v1.2.0')).toEqual([])
    expect(stats.restFallbacks).toBe(2)
    expect(lines.join('\n')).not.toMatch(/in a row|stopped asking/)
  })

  it('when GitHub is down: every app failed, none lost, and the run stops asking early', async () => {
    const f = await start({ repos: [], fault: () => ({ kind: 'status', status: 502 }) })
    const targets = Array.from({ length: 200 }, (_, i) => ({ slug: `app-${i}`, repo: `owner-${i}/app` }))
    const { log, lines } = recorder()
    const { outcomes, stats } = await refresh(f, targets, { log, concurrency: 1 })
    expect(outcomes.size).toBe(200)
    expect([...outcomes.values()].every((o) => o.status === 'failed')).toBe(true)
    // The first batch (counted), then 5 splits whose two halves both fail: the first half's failure is explained by
    // its parent's, the second's counts; 6 counted in 11 requests, 4 attempts each (1 + 3 retries).
    expect(stats.batches).toBe(11)
    expect(stats.requests).toBe(44)
    expect(lines.some((l) => l.startsWith('warning: GitHub failed 6 times in a row'))).toBe(true)
  })

  it('reads a renamed repository over REST (301) when GraphQL cannot answer, and reports the move', async () => {
    const f = await start({
      repos: [real('element-hq/synapse', { graphqlTimeout: true })],
      renames: { 'matrix-org/synapse': 'element-hq/synapse' }
    })
    const { outcomes, stats } = await refresh(f, [{ slug: 'synapse', repo: 'matrix-org/synapse' }])
    expect(outcomes.get('synapse')).toMatchObject({
      status: 'moved',
      movedTo: 'element-hq/synapse',
      facts: { version: 'v1.157.1' }
    })
    expect(stats.restFallbacks).toBe(1)
    expect(f.requests.filter((r) => r.api === 'rest').map((r) => r.status)).toEqual([301, 200, 200])
  })

  it('rejected token: every app failed, nothing retried, the token never logged', async () => {
    const f = await start({ repos: [real('traefik/traefik')] })
    const { log, lines } = recorder()
    const { outcomes, stats } = await refreshFromGitHub(
      [
        { slug: 'traefik', repo: 'traefik/traefik' },
        { slug: 'kimai', repo: 'kimai/kimai' }
      ],
      {
        token: 'ghs_wrongtoken999',
        apiUrl: f.apiUrl,
        graphqlUrl: f.graphqlUrl,
        now,
        log,
        batchSize: 1,
        concurrency: 1,
        retry: { baseMs: 1 },
        throttle: { baseMs: 1 }
      }
    )
    expect(outcomes.get('traefik')).toMatchObject({ status: 'failed', reason: expect.stringContaining('401') })
    expect(outcomes.get('kimai')?.status).toBe('failed')
    expect(stats.requests).toBe(1)
    const everything = lines.join('\n') + JSON.stringify([...outcomes])
    expect(everything).not.toContain('ghs_wrongtoken999')
  })
})

describe('refreshFromGitHub: budget', () => {
  it('stops asking before the remaining points dip below the reserve, and says so', async () => {
    const names = [...series.keys()]
    const repos = Array.from({ length: 50 }, (_, i) =>
      repoFromSeries(`owner-${i}/app`, series.get(names[i % names.length]!)!)
    )
    const f = await start({ repos, rateLimit: { limit: 1000, remaining: 3 } })
    const { log, lines } = recorder()
    const targets = repos.map((r, i) => ({ slug: `app-${i}`, repo: `${r.owner}/${r.name}` }))
    const { outcomes, stats } = await refresh(f, targets, { log, batchSize: 10, concurrency: 1, minRemaining: 1 })
    const statuses = targets.map((t) => outcomes.get(t.slug)?.status)
    expect(statuses.filter((s) => s === 'fresh')).toHaveLength(20)
    expect(statuses.slice(20).every((s) => s === 'skipped')).toBe(true)
    expect(stats).toMatchObject({ graphqlPoints: 2, remaining: 1, requests: 2 })
    expect(
      lines.some((l) =>
        l.includes('warning: GitHub: GraphQL budget too low (1 points left, 1 kept in reserve); 30 apps were not asked')
      )
    ).toBe(true)
  })

  it('treats a RATE_LIMITED answer as the end of the budget', async () => {
    const f = await start({
      repos: [real('traefik/traefik')],
      rateLimit: { remaining: 0, resetAt: new Date(Date.now() + 3600_000) }
    })
    const { outcomes, stats } = await refresh(f, [{ slug: 'traefik', repo: 'traefik/traefik' }])
    expect(outcomes.get('traefik')).toEqual({ status: 'skipped', reason: 'GitHub rate limit reached' })
    expect(stats.requests).toBe(1)
  })
})

describe('GitHub endpoints', () => {
  it('derives the GraphQL URL like Octokit when GITHUB_GRAPHQL_URL is unset', () => {
    expect(githubEndpoints({})).toEqual({
      apiUrl: 'https://api.github.com',
      graphqlUrl: 'https://api.github.com/graphql'
    })
    expect(githubEndpoints({ GITHUB_API_URL: 'https://ghes.example.com/api/v3' })).toEqual({
      apiUrl: 'https://ghes.example.com/api/v3',
      graphqlUrl: 'https://ghes.example.com/api/graphql'
    })
    expect(
      githubEndpoints({
        GITHUB_API_URL: 'https://ghes.example.com/api/v3/',
        GITHUB_GRAPHQL_URL: 'https://gql.example.com/x'
      })
    ).toEqual({
      apiUrl: 'https://ghes.example.com/api/v3',
      graphqlUrl: 'https://gql.example.com/x'
    })
  })

  it('works with a GHES layout: REST under /api/v3, GraphQL at /api/graphql (REST fallback included)', async () => {
    const f = await start({
      restPrefix: '/api/v3',
      graphqlPath: '/api/graphql',
      repos: [
        real('traefik/traefik'),
        {
          owner: 'miniflux',
          name: 'v2',
          graphqlTimeout: true,
          tags: series.get('miniflux/v2')!.map((r) => ({ name: r.tag, date: r.createdAt }))
        }
      ]
    })
    const { apiUrl, graphqlUrl } = githubEndpoints({ GITHUB_API_URL: f.apiUrl })
    expect(graphqlUrl).toBe(f.graphqlUrl)
    const { outcomes } = await refresh(
      f,
      [
        { slug: 'traefik', repo: 'traefik/traefik' },
        { slug: 'miniflux', repo: 'miniflux/v2' }
      ],
      { apiUrl, graphqlUrl }
    )
    expect(version(outcomes.get('traefik'))).toBe('v3.7.9')
    // Over REST, tags carry no date.
    expect(outcomes.get('miniflux')).toMatchObject({
      status: 'fresh',
      facts: { version: '2.2.11', fromTags: true, date: null }
    })
    expect(f.requests.filter((r) => r.api === 'rest').map((r) => r.path)).toEqual([
      '/api/v3/repos/miniflux/v2',
      '/api/v3/repos/miniflux/v2/releases',
      '/api/v3/repos/miniflux/v2/tags'
    ])
  })

  it('honours a GITHUB_GRAPHQL_URL that is not derived from the API URL', async () => {
    const f = await start({ graphqlPath: '/custom/gql', repos: [real('kimai/kimai')] })
    const { outcomes } = await refresh(
      f,
      [{ slug: 'kimai', repo: 'kimai/kimai' }],
      githubEndpoints({ GITHUB_API_URL: f.apiUrl, GITHUB_GRAPHQL_URL: f.graphqlUrl })
    )
    expect(version(outcomes.get('kimai'))).toBe('2.66.0')
    expect(f.requests.map((r) => r.path)).toEqual(['/custom/gql'])
  })
})
