import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  compareVersions,
  isNextVersion,
  isPrerelease,
  isStableVersion,
  isVersionLabel,
  newestStable,
  parseVersion,
  stableBetween,
  tagMatches,
  versionCore,
  versionIdentity
} from '../../src/util/versions.js'

// Labels below are real tags of real projects (Traefik, Vikunja, Healthchecks,
// Synapse, n8n, Home Assistant, Immich) unless the test says otherwise.

describe('versionCore / parseVersion', () => {
  it('strips prefixes, a leading v and build metadata', () => {
    expect(versionCore('v3.7.9')).toBe('3.7.9')
    expect(versionCore('server@1.2.3', 'server@')).toBe('1.2.3')
    expect(versionCore('n8n@1.64.0')).toBe('1.64.0')
    expect(versionCore('release/1.2')).toBe('1.2')
    expect(versionCore('v2.0.0-rc.1+build.5')).toBe('2.0.0-rc.1')
  })

  it('reads numbers and prerelease parts', () => {
    expect(parseVersion('2025.11.3')).toEqual({ label: '2025.11.3', numbers: [2025, 11, 3], prerelease: [] })
    expect(parseVersion('v1.0.0-rc0')?.prerelease).toEqual(['rc0'])
    expect(parseVersion('latest')).toBeNull()
  })
})

describe('compareVersions', () => {
  it('orders by numbers, treats missing parts as 0, and puts prereleases first', () => {
    expect(compareVersions('v3.7.9', 'v3.7.10')).toBe(-1)
    expect(compareVersions('v4.3', 'v4.1.1')).toBe(1)
    expect(compareVersions('v1.2', '1.2.0')).toBe(0)
    expect(compareVersions('v1.0.0-rc0', 'v1.0.0')).toBe(-1)
    expect(compareVersions('nightly', 'v1.0.0')).toBeNull()
  })
})

describe('isVersionLabel', () => {
  it('accepts publishable labels and rejects whitespace, control characters and overlong tags', () => {
    expect(isVersionLabel('v0.107.79')).toBe(true)
    expect(isVersionLabel('v1.0 beta')).toBe(false)
    expect(isVersionLabel('v1.0\u0000')).toBe(false)
    expect(isVersionLabel('v1.0\u202e')).toBe(false)
    expect(isVersionLabel(`v${'1.'.repeat(70)}0`)).toBe(false)
    expect(isVersionLabel('')).toBe(false)
  })
})

describe('isStableVersion', () => {
  it('rejects prerelease labels, opaque tags and tags of other packages', () => {
    expect(isStableVersion('v1.0.0-rc0')).toBe(false)
    expect(isStableVersion('2024.1.0b3')).toBe(false)
    expect(isStableVersion('v1.106.0')).toBe(true)
    expect(isStableVersion('nightly')).toBe(false)
    expect(isStableVersion('server@1.2.3', { tagPrefix: 'server@' })).toBe(true)
    expect(isStableVersion('web@1.2.3', { tagPrefix: 'server@' })).toBe(false)
    expect(isStableVersion('release/1.2', { tagPattern: '^release/\\d' })).toBe(true)
    expect(isStableVersion('feature/1.2', { tagPattern: '^release/\\d' })).toBe(false)
  })
  it('agrees with isPrerelease and tagMatches', () => {
    for (const label of ['v3.7.0', 'v3.7.0-rc.2', 'v2.0.0-beta.1', '1.157.0rc1', 'v4.1.1']) {
      expect(isStableVersion(label)).toBe(!isPrerelease(label))
    }
    expect(tagMatches('server@1.0.0', { tagPrefix: 'server@' })).toBe(true)
  })
})

// Traefik publishes 2.11.x backports after 3.x releases: newest by date is not newest by version.
const traefik = [
  { tag: 'v2.11.50', date: '2026-06-10' },
  { tag: 'v3.7.4', date: '2026-06-05' },
  { tag: 'v3.7.3', date: '2026-06-04' },
  { tag: 'v3.7.2', date: '2026-06-03' },
  { tag: 'v3.7.0', date: '2026-05-05' },
  { tag: 'v3.7.0-rc.2', date: '2026-04-20' },
  { tag: 'v2.11.39', date: '2026-03-06' },
  { tag: 'v3.6.7', date: '2026-01-14' }
]
const tagOf = (r: { tag: string }) => r.tag

describe('newestStable', () => {
  it('picks by version order, not by date', () => {
    expect(newestStable(traefik, tagOf)?.tag).toBe('v3.7.4')
  })
  it('never picks a prerelease label even when it is the newest', () => {
    const withRc = [{ tag: 'v3.8.0-rc.1', date: '2026-07-01' }, ...traefik]
    expect(newestStable(withRc, tagOf)?.tag).toBe('v3.7.4')
  })
  it('honours a tag prefix in a monorepo', () => {
    const n8n = [
      { tag: 'n8n@1.65.0-beta.1' },
      { tag: '@n8n/chat@0.30.0' },
      { tag: 'n8n@1.64.3' },
      { tag: 'n8n@1.64.2' }
    ]
    expect(newestStable(n8n, tagOf, { tagPrefix: 'n8n@' })?.tag).toBe('n8n@1.64.3')
  })
  it('returns null when nothing is stable', () => {
    expect(newestStable([{ tag: 'v1.0.0-rc0' }, { tag: 'nightly' }], tagOf)).toBeNull()
  })
  it('prefers the first (most recent) of equal versions', () => {
    expect(newestStable([{ tag: 'v1.2' }, { tag: '1.2.0' }], tagOf)?.tag).toBe('v1.2')
  })
})

describe('stableBetween', () => {
  const latest = traefik[1]!
  it('lists every stable release above previous up to latest, oldest first', () => {
    expect(stableBetween(traefik, tagOf, 'v3.6.7', latest, 20).map(tagOf)).toEqual([
      'v3.7.0',
      'v3.7.2',
      'v3.7.3',
      'v3.7.4'
    ])
  })
  it('keeps only the newest `max` releases', () => {
    expect(stableBetween(traefik, tagOf, 'v3.6.7', latest, 2).map(tagOf)).toEqual(['v3.7.3', 'v3.7.4'])
  })
  it('is just the latest without a previous version, or when previous is not below it', () => {
    expect(stableBetween(traefik, tagOf, undefined, latest, 20).map(tagOf)).toEqual(['v3.7.4'])
    expect(stableBetween(traefik, tagOf, 'v3.7.4', latest, 20).map(tagOf)).toEqual(['v3.7.4'])
    expect(stableBetween(traefik, tagOf, 'nightly', latest, 20).map(tagOf)).toEqual(['v3.7.4'])
  })
  it('counts backports below latest that are above previous (an admin on 2.11.33 crosses them)', () => {
    expect(stableBetween(traefik, tagOf, 'v2.11.33', latest, 20).map(tagOf)).toEqual([
      'v2.11.39',
      'v2.11.50',
      'v3.6.7',
      'v3.7.0',
      'v3.7.2',
      'v3.7.3',
      'v3.7.4'
    ])
  })
})

describe('isNextVersion', () => {
  it('is a step of one number with every later number 0, in any count of numbers', () => {
    for (const [a, b] of [
      ['2.0.15', '2.0.16'],
      ['v2.0.16', 'v2.1.0'],
      ['2.9.3', '3.0.0'],
      ['1.2', '1.2.1'],
      ['1.2.3', '1.3'],
      ['1.2.3.4', '1.2.3.5'],
      ['server@1.2.3', 'server@1.2.4']
    ] as const)
      expect([a, b, isNextVersion(a, b)]).toEqual([a, b, true])
    for (const [a, b] of [
      ['2.0.15', '2.0.17'],
      ['2.0.15', '2.1.1'],
      ['2.0.15', '3.0.1'],
      ['2.0.15', '2.0.15'],
      ['2.0.16', '2.0.15'],
      ['2026.5.3', '2026.7.0'],
      ['2025.12.1', '2026.1.0'],
      ['1.2.3', '1.2.4-rc.1'],
      ['1.2.3-rc.1', '1.2.3'],
      ['latest', '1.0.0']
    ] as const)
      expect([a, b, isNextVersion(a, b)]).toEqual([a, b, false])
  })

  // A release between a and b (3.1 between 3.0 and 4) is a later release of a's own line, never one of b's level
  // that the step skipped: every number up to the one that stepped is a's.
  it('never skips a release at the level it steps: anything between is on the earlier line', () => {
    const numbers = fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 4 })
    fc.assert(
      fc.property(numbers, numbers, numbers, (a, m, b) => {
        const [va, vm, vb] = [a.join('.'), m.join('.'), b.join('.')]
        const between = (compareVersions(va, vm) ?? 0) < 0 && (compareVersions(vm, vb) ?? 0) < 0
        if (!between || !isNextVersion(va, vb)) return true
        const at = (n: number[], i: number) => n[i] ?? 0
        let k = 0
        while (at(a, k) === at(b, k)) k++
        for (let i = 0; i <= k; i++) if (at(m, i) !== at(a, i)) return false
        return true
      }),
      { numRuns: 2000 }
    )
  })

  it('keys one release by one identity: v1.2 and 1.2.0 share it, a prerelease does not', () => {
    expect(versionIdentity('v1.2')).toBe(versionIdentity('1.2.0'))
    expect(versionIdentity('1.2.0-rc.1')).not.toBe(versionIdentity('1.2.0'))
    expect(versionIdentity('nightly')).not.toBe(versionIdentity('1'))
  })
})
