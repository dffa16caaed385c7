import { expect, it } from '@jest/globals'
import { describe } from '../../support/needs-shared-data.js'
import { LIMITS } from '../../../src/schema/index.js'
import {
  capNotes,
  capReason,
  factsFromSnapshot,
  tagPage,
  wantsOlder,
  type RepoSnapshot
} from '../../../src/upstream/github/facts.js'
import { safeHttpUrl } from '../../../src/util/http-url.js'
import { realReleaseSeries } from '../../support/fake-github.js'

const series = realReleaseSeries()
const now = new Date('2026-11-21T23:30:00Z')

function snapshotOf(repo: string, extra: Partial<RepoSnapshot> = {}): RepoSnapshot {
  const list = series.get(repo)!
  return {
    nameWithOwner: repo,
    url: `https://github.com/${repo}`,
    archived: false,
    releases: [...list]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((r) => ({
        tag: r.tag,
        url: `https://github.com/${repo}/releases/tag/${r.tag}`,
        draft: false,
        prerelease: r.tag.includes('-'),
        createdAt: r.createdAt,
        publishedAt: r.createdAt,
        notes: r.notes
      })),
    tags: [],
    ...extra
  }
}

describe('factsFromSnapshot', () => {
  it('takes the newest stable release by version, with its notes, page, date and the run day', () => {
    const r = factsFromSnapshot(snapshotOf('traefik/traefik'), { repo: 'traefik/traefik' }, { now, maxCrossed: 20 })
    expect(r.kind).toBe('facts')
    if (r.kind !== 'facts') return
    expect(r.facts.version).toBe('v3.7.9')
    expect(r.facts.url).toBe('https://github.com/traefik/traefik/releases/tag/v3.7.9')
    expect(r.facts.date).toBe('2026-07-24')
    expect(r.facts.checked).toBe('2026-11-21')
    expect(r.facts.notes).toBe(series.get('traefik/traefik')!.find((x) => x.tag === 'v3.7.9')!.notes)
    expect(r.facts.crossed.map((c) => c.version)).toEqual(['v3.7.9'])
  })

  it('lists the crossed releases from the previous version, oldest first, with their notes', () => {
    const r = factsFromSnapshot(
      snapshotOf('go-vikunja/vikunja'),
      { repo: 'go-vikunja/vikunja', previousVersion: 'v0.24.6' },
      { now, maxCrossed: 20 }
    )
    if (r.kind !== 'facts') throw new Error('expected facts')
    // v1.0.0-rc0 is a prerelease and is never crossed.
    expect(r.facts.crossed.map((c) => c.version)).toEqual(['v1.0.0', 'v1.1.0', 'v2.0.0', 'v2.2.1', 'v2.2.2', 'v2.5.0'])
    const v2 = series.get('go-vikunja/vikunja')!.find((x) => x.tag === 'v2.0.0')!
    expect(r.facts.crossed[2]!.notes).toBe(v2.notes)
  })

  it('gives again the older releases a later model judged, when the read holds them, for the first model', () => {
    const r = factsFromSnapshot(
      snapshotOf('go-vikunja/vikunja'),
      // v2.2.1 is crossed already; v9.9.9 is not among the releases read.
      { repo: 'go-vikunja/vikunja', previousVersion: 'v2.2.0', again: ['v2.0.0', 'v1.0.0', 'v2.2.1', 'v9.9.9'] },
      { now, maxCrossed: 20 }
    )
    if (r.kind !== 'facts') throw new Error('expected facts')
    expect(r.facts.crossed.map((c) => c.version)).toEqual(['v2.2.1', 'v2.2.2', 'v2.5.0'])
    // Oldest first, with their notes, page and date, as the history holds them.
    expect(r.facts.again!.map((c) => c.version)).toEqual(['v1.0.0', 'v2.0.0'])
    const v2 = series.get('go-vikunja/vikunja')!.find((x) => x.tag === 'v2.0.0')!
    expect(r.facts.again![1]).toMatchObject({
      notes: v2.notes,
      url: 'https://github.com/go-vikunja/vikunja/releases/tag/v2.0.0',
      date: v2.createdAt.slice(0, 10)
    })
    const none = factsFromSnapshot(
      snapshotOf('go-vikunja/vikunja'),
      { repo: 'go-vikunja/vikunja', previousVersion: 'v2.2.0' },
      { now, maxCrossed: 20 }
    )
    if (none.kind !== 'facts') throw new Error('expected facts')
    expect(none.facts.again).toBeUndefined()
  })

  it('never takes a draft or a release flagged prerelease, whatever its label', () => {
    const snap = snapshotOf('sissbruecker/linkding')
    snap.releases.unshift(
      {
        tag: 'v1.47.0',
        url: null,
        draft: true,
        prerelease: false,
        createdAt: '2026-09-01T00:00:00Z',
        publishedAt: null,
        notes: 'draft'
      },
      {
        tag: 'v1.46.3',
        url: null,
        draft: false,
        prerelease: true,
        createdAt: '2026-08-30T00:00:00Z',
        publishedAt: null,
        notes: 'flagged'
      }
    )
    const r = factsFromSnapshot(snap, { repo: 'sissbruecker/linkding' }, { now, maxCrossed: 20 })
    if (r.kind !== 'facts') throw new Error('expected facts')
    expect(r.facts.version).toBe('v1.46.2')
  })

  it('falls back to the newest stable tag when there are no releases', () => {
    const snap: RepoSnapshot = {
      ...snapshotOf('miniflux/v2'),
      releases: [],
      tags: series.get('miniflux/v2')!.map((r) => ({ name: r.tag, date: r.createdAt }))
    }
    const r = factsFromSnapshot(snap, { repo: 'miniflux/v2' }, { now, maxCrossed: 20 })
    if (r.kind !== 'facts') throw new Error('expected facts')
    expect(r.facts).toMatchObject({
      version: '2.2.11',
      url: 'https://github.com/miniflux/v2/tree/2.2.11',
      notes: '',
      fromTags: true,
      date: '2025-07-26'
    })
  })

  it('keeps the slash of a `release/x.y` tag in the tree page and encodes the rest', () => {
    const snap: RepoSnapshot = {
      nameWithOwner: 'o/r',
      url: 'https://github.com/o/r',
      archived: false,
      releases: [],
      tags: [
        { name: 'release/1.2', date: null },
        { name: 'release/1.10', date: null },
        { name: 'feature/9.9', date: null }
      ]
    }
    const r = factsFromSnapshot(snap, { repo: 'o/r', tagPattern: '^release/' }, { now, maxCrossed: 20 })
    if (r.kind !== 'facts') throw new Error('expected facts')
    expect(r.facts.version).toBe('release/1.10')
    expect(r.facts.url).toBe('https://github.com/o/r/tree/release/1.10')
  })

  it('says why when only prereleases exist', () => {
    const snap = snapshotOf('go-vikunja/vikunja')
    snap.releases = snap.releases.filter((x) => x.tag === 'v1.0.0-rc0')
    const r = factsFromSnapshot(snap, { repo: 'go-vikunja/vikunja' }, { now, maxCrossed: 20 })
    expect(r).toEqual({
      kind: 'none',
      reason: 'no stable release or stable version tag among the 1 most recent releases (1 prerelease, 0 draft)'
    })
  })

  it('replaces a release URL that is not http(s)', () => {
    const snap = snapshotOf('kimai/kimai')
    snap.releases[0]!.url = 'javascript:alert(1)'
    const r = factsFromSnapshot(snap, { repo: 'kimai/kimai' }, { now, maxCrossed: 20 })
    if (r.kind !== 'facts') throw new Error('expected facts')
    expect(r.facts.url).toBe(`https://github.com/kimai/kimai/releases/tag/${r.facts.version}`)
  })

  it('marks archived repositories', () => {
    const r = factsFromSnapshot(
      snapshotOf('healthchecks/healthchecks', { archived: true }),
      { repo: 'healthchecks/healthchecks' },
      { now, maxCrossed: 20 }
    )
    if (r.kind !== 'facts') throw new Error('expected facts')
    expect(r.facts.archived).toBe(true)
    expect(r.facts.version).toBe('v4.3')
  })
})

describe('caps on upstream text', () => {
  it('caps notes at LIMITS.notes without splitting a surrogate pair, and normalises line ends', () => {
    const real = series.get('element-hq/synapse')![0]!.notes
    const long = `${'🎉'.repeat(10)}\r\n${real}\r\n`.repeat(Math.ceil((LIMITS.notes * 1.5) / real.length))
    const capped = capNotes(long)
    expect(capped.length).toBeLessThanOrEqual(LIMITS.notes)
    expect(capped.length).toBeGreaterThan(LIMITS.notes - 2)
    expect(capped).not.toContain('\r')
    expect(/[\ud800-\udbff]$/.test(capped)).toBe(false)
  })
  it('removes controls, bidi controls and noncharacters from notes, keeping line ends and tabs', () => {
    expect(capNotes('## Fixes\r\n\n* a\u0000b\u001b[2Jc\u0085\u202ed\tx\ufffe\uffff\u{10ffff}')).toBe(
      '## Fixes\n\n* ab[2Jcd\tx'
    )
  })
  it('caps reasons and strips control characters and noncharacters', () => {
    expect(capReason('a\u0000b\u202ec\uffffd')).toBe('a b c d')
    expect(capReason('x'.repeat(2000)).length).toBe(LIMITS.reason)
  })
  it('accepts only absolute http(s) URLs', () => {
    expect(safeHttpUrl('https://github.com/o/r')).toBe('https://github.com/o/r')
    expect(safeHttpUrl('data:text/html,hi')).toBeNull()
    expect(safeHttpUrl('/relative')).toBeNull()
  })
})

describe('releases not read since the published version', () => {
  // Made-up releases v1.1.0 … v1.30.0, newest first; the published version v1.0.0 is not among them.
  const made = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => {
      const n = to - i
      return {
        tag: `v1.${n}.0`,
        url: null,
        draft: false,
        prerelease: false,
        createdAt: `2026-10-${String(n).padStart(2, '0')}T12:00:00Z`,
        publishedAt: null,
        notes: `fix ${n}`
      }
    })
  const snap = (extra: Partial<RepoSnapshot>): RepoSnapshot => ({
    nameWithOwner: 'o/r',
    url: 'https://github.com/o/r',
    archived: false,
    releases: made(11, 30),
    tags: [],
    ...extra
  })
  const target = { repo: 'o/r', previousVersion: 'v1.0.0' }

  it('wants older releases only while the published version is not met and GitHub has more', () => {
    expect(wantsOlder(snap({ releasesAfter: 'c' }), target)).toBe(true)
    expect(wantsOlder(snap({}), target)).toBe(false)
    expect(wantsOlder(snap({ releasesAfter: 'c', releases: [...made(11, 30), ...made(0, 0)] }), target)).toBe(false)
    // Up to date, or never published: nothing to page for.
    expect(wantsOlder(snap({ releasesAfter: 'c' }), { repo: 'o/r', previousVersion: 'v1.30.0' })).toBe(false)
    expect(wantsOlder(snap({ releasesAfter: 'c' }), { repo: 'o/r' })).toBe(false)
  })

  it('records the span not read as a gap, from the published version to the oldest release read', () => {
    const r = factsFromSnapshot(snap({ releasesAfter: null }), target, { now, maxCrossed: 200 })
    if (r.kind !== 'facts') throw new Error('expected facts')
    expect(r.facts.gap).toEqual({ after: 'v1.0.0', before: 'v1.11.0' })
    expect(r.facts.crossed).toHaveLength(20)
  })

  it('records no gap when the list is whole, or it reached the published version', () => {
    const whole = factsFromSnapshot(snap({}), target, { now, maxCrossed: 200 })
    const reached = factsFromSnapshot(
      snap({ releasesAfter: 'c', releases: [...made(11, 30), ...made(0, 0)] }),
      target,
      {
        now,
        maxCrossed: 200
      }
    )
    expect(whole).toMatchObject({ kind: 'facts' })
    expect(reached).toMatchObject({ kind: 'facts' })
    expect(whole.kind === 'facts' && 'gap' in whole.facts).toBe(false)
    expect(reached.kind === 'facts' && 'gap' in reached.facts).toBe(false)
  })

  it('records a gap when more releases lie between than are kept, and for tags that did not reach back', () => {
    const kept = factsFromSnapshot(snap({}), target, { now, maxCrossed: 5 })
    if (kept.kind !== 'facts') throw new Error('expected facts')
    expect(kept.facts.gap).toEqual({ after: 'v1.0.0', before: 'v1.26.0' })
    const tags = factsFromSnapshot(
      snap({ releases: [], tags: made(11, 30).map((r) => ({ name: r.tag, date: r.createdAt })), moreTags: true }),
      target,
      { now, maxCrossed: 200 }
    )
    if (tags.kind !== 'facts') throw new Error('expected facts')
    expect(tags.facts.gap).toEqual({ after: 'v1.0.0', before: 'v1.11.0' })
  })

  it('records a release flagged as prerelease but labelled stable between the published and the latest as unread', () => {
    const list = made(1, 5).map((r) => (r.tag === 'v1.3.0' || r.tag === 'v1.4.0' ? { ...r, prerelease: true } : r))
    // Labelled as a prerelease, it is one: no span. Above the latest or below the published: not crossed.
    const extra = [
      { ...list[0]!, tag: 'v1.3.1-rc.1', prerelease: true },
      { ...list[0]!, tag: 'v9.0.0', prerelease: true },
      { ...list[0]!, tag: 'v0.9.0', prerelease: true }
    ]
    const r = factsFromSnapshot(snap({ releases: [...extra, ...list] }), target, { now, maxCrossed: 200 })
    if (r.kind !== 'facts') throw new Error('expected facts')
    expect(r.facts.version).toBe('v1.5.0')
    expect(r.facts.crossed.map((c) => c.version)).toEqual(['v1.1.0', 'v1.2.0', 'v1.5.0'])
    expect(r.facts.gap).toBeUndefined()
    expect(r.facts.unread).toEqual([
      {
        after: 'v1.2.0',
        before: 'v1.5.0',
        crossed: true,
        why: '"v1.4.0", "v1.3.0" flagged as prerelease but labelled as a stable version'
      }
    ])
    // Never published before: nothing is crossed, the history starts with what is read.
    const fresh = factsFromSnapshot(snap({ releases: list }), { repo: 'o/r' }, { now, maxCrossed: 200 })
    if (fresh.kind !== 'facts') throw new Error('expected facts')
    expect(fresh.facts.unread).toBeUndefined()
  })

  it('never lets a tag pick a page outside the repository', () => {
    expect(tagPage('https://github.com/o/r', 'release/1.2')).toBe('https://github.com/o/r/releases/tag/release/1.2')
    expect(tagPage('https://github.com/o/r', 'v1?x#y')).toBe('https://github.com/o/r/releases/tag/v1%3Fx%23y')
    for (const tag of ['../../../evil/repo', 'a/../../x', './v1', 'v1/', '/v1', '..'])
      expect(tagPage('https://github.com/o/r', tag)).toBeNull()
    const list = made(1, 2).map((r) => (r.tag === 'v1.2.0' ? { ...r, tag: '../../../evil/r/releases/tag/v1.2.0' } : r))
    const r = factsFromSnapshot(snap({ releases: list }), { repo: 'o/r' }, { now, maxCrossed: 200 })
    if (r.kind !== 'facts') throw new Error('expected facts')
    for (const url of [r.facts.url, ...r.facts.crossed.map((c) => c.url)])
      expect(url).toMatch(/^https:\/\/github\.com\/o\/r\//)
  })
})
