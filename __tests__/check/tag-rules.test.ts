// Community builds' tags read as upstream versions, publisher by publisher. The tags are real ones: the examples
// COMMUNITY.md and community.jsonl give (facts: image tags), and hostile ones no publisher writes.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readTag } from '../../src/check/tag-rules.js'
import { TAG_RULES, type ImageChannel, type TagRule } from '../../src/schema/index.js'
import { readSharedJsonl, sharedPath } from '../support/shared-data.js'

type Case = [rule: TagRule, channel: ImageChannel | undefined, tag: string, version: string | null, read?: ImageChannel]

const CASES: Case[] = [
  // linuxserver: -ls<N>, version-, branch prefixes, upstream's leading v kept, Alpine -r<N>, _v<libtorrent>, ubu<N>.
  ['linuxserver', 'stable', '4.0.19.2979-ls316', '4.0.19.2979', 'stable'],
  ['linuxserver', 'stable', '4.0.14.2939-ls300', '4.0.14.2939', 'stable'],
  ['linuxserver', 'stable', 'version-4.0.19.2979', '4.0.19.2979', 'stable'],
  ['linuxserver', 'stable', 'v1.6.0-ls360', 'v1.6.0', 'stable'],
  ['linuxserver', 'stable', 'version-v1.6.0', 'v1.6.0', 'stable'],
  ['linuxserver', 'stable', 'develop-4.0.18.2976-ls175', '4.0.18.2976', 'develop'],
  ['linuxserver', 'stable', 'develop-4.0.15.2941-ls12', '4.0.15.2941', 'develop'],
  ['linuxserver', 'stable', 'nightly-6.3.0.10498-ls7', '6.3.0.10498', 'nightly'],
  ['linuxserver', 'stable', 'development-v1.6.1-beta.26-ls9', 'v1.6.1-beta.26', 'develop'],
  ['linuxserver', 'stable', 'beta-4.10.0.17-ls447', '4.10.0.17', 'beta'],
  ['linuxserver', 'stable', 'unstable-5.1.0RC1-ls360', '5.1.0RC1', 'develop'],
  ['linuxserver', 'stable', 'next-v4.6.0-pre.1-ls35', 'v4.6.0-pre.1', 'develop'],
  ['linuxserver', 'develop', 'develop-0.4.18.2805-ls157', '0.4.18.2805', 'develop'],
  ['linuxserver', 'stable', '4.1.3-r0-ls352', '4.1.3', 'stable'],
  ['linuxserver', 'stable', '1.0.20250521-r1-ls110', '1.0.20250521', 'stable'],
  ['linuxserver', 'stable', 'version-11.8.8-r0', '11.8.8', 'stable'],
  ['linuxserver', 'stable', '5.2.3_v2.0.13-ls469', '5.2.3', 'stable'],
  ['linuxserver', 'stable', 'libtorrentv1-5.2.3_v1.2.20-ls126', '5.2.3', 'stable'],
  ['linuxserver', 'stable', '10.11.11ubu2604-ls43', '10.11.11', 'stable'],
  ['linuxserver', 'stable', 'version-10.11.11ubu2604', '10.11.11', 'stable'],
  ['linuxserver', 'stable', 'nightly-2026080308ubu2604-ls93', '2026080308', 'nightly'],
  ['linuxserver', 'stable', '1.43.3.10828-00f62d37d-ls315', '1.43.3.10828-00f62d37d', 'stable'],
  ['linuxserver', 'stable', 'v4-4.23.0-ls183', '4.23.0', 'stable'],
  ['linuxserver', 'stable', 'previous-32.0.9-ls94', '32.0.9', 'stable'],
  ['linuxserver', 'stable', 'amd64-4.0.19.2979-ls316', '4.0.19.2979', 'stable'],
  ['linuxserver', 'stable', 'release_3.35.7-ls325', 'release_3.35.7', 'stable'],
  ['linuxserver', 'stable', 'V2.1.2-ls44', 'V2.1.2', 'stable'],
  ['linuxserver', 'stable', '30a549ed-ls283', null],
  ['linuxserver', 'stable', 'develop-98ea135f2d370faba0362d259fccf51d8fd44a16-ls390', null],
  ['linuxserver', 'stable', 'nightly-3cab379d-ls1', null],
  ['linuxserver', 'stable', 'glitch-v4.7.0-ls347', null],
  ['linuxserver', 'stable', 'tftp-2.0.87-ls177', null],
  ['linuxserver', 'stable', 'latest', null],
  ['linuxserver', 'stable', 'develop', null],
  // home-operations: the version, no suffix; X.Y.Z, X.Y and X are also pushed as moving aliases.
  ['home-operations', 'develop', '4.0.19.3001', '4.0.19.3001', 'develop'],
  ['home-operations', 'stable', '1.43.3.10896', '1.43.3.10896', 'stable'],
  ['home-operations', 'stable', 'rolling', null],
  // onedr0p: the version as ci/latest.sh read it, X and X.Y aliases, `rolling`.
  ['onedr0p', 'develop', '4.0.2.1312', '4.0.2.1312', 'develop'],
  ['onedr0p', 'stable', '1.40.0.7998-c29d4c0c8', '1.40.0.7998-c29d4c0c8', 'stable'],
  ['onedr0p', 'beta', '1.40.1.8173-3e92df2db', '1.40.1.8173-3e92df2db', 'beta'],
  ['onedr0p', 'stable', 'rolling', null],
  // k8s-at-home: v + version; a commit or a git describe names no release.
  ['k8s-at-home', 'stable', 'v3.0.6.1265', '3.0.6.1265', 'stable'],
  ['k8s-at-home', 'nightly', 'v1.0.0.2255', '1.0.0.2255', 'nightly'],
  ['k8s-at-home', 'stable', 'v5d2965f', null],
  ['k8s-at-home', 'stable', 'v2.7.4-2479-g86a32237', null],
  ['k8s-at-home', 'stable', 'latest', null],
  // bjw-s (both namespaces).
  ['bjw-s', 'stable', '6.18.14', '6.18.14', 'stable'],
  ['bjw-s', 'stable', 'latest', null],
  // hotio: <branch>-<version>; release is stable.
  ['hotio', undefined, 'release-4.0.16.2944', '4.0.16.2944', 'stable'],
  ['hotio', undefined, 'nightly-4.0.16.2946', '4.0.16.2946', 'nightly'],
  ['hotio', undefined, 'testing-0.4.18.2805', '0.4.18.2805', 'beta'],
  ['hotio', undefined, 'v3-3.2.2-release.109', '3.2.2-release.109', 'stable'],
  ['hotio', undefined, 'release-1.42.2.10156-f737b826c', '1.42.2.10156-f737b826c', 'stable'],
  ['hotio', undefined, 'release-f737b82', null],
  ['hotio', undefined, 'release', null],
  ['hotio', undefined, 'latest', null],
  ['hotio', undefined, '4.0.16.2944', null],
  // binhex: <version>-<pkgrel>-<NN>; the X / X.Y aliases name no release.
  ['binhex', 'stable', '5.2.0-1-05', '5.2.0', 'stable'],
  ['binhex', 'develop', '4.0.16.2944-1-02', '4.0.16.2944', 'develop'],
  ['binhex', 'stable', '5.2', null],
  ['binhex', 'stable', 'latest', null],
  // as-is, revision, own.
  ['as-is', 'stable', 'v10.1.84', 'v10.1.84', 'stable'],
  ['revision', 'stable', '3.7.5.0', '3.7.5', 'stable'],
  ['revision', 'stable', '3.7', null],
  ['own', 'stable', 'v26.07.2', null]
]

describe('readTag', () => {
  it('reads the real tags of each publisher', () => {
    const wrong = CASES.filter(([rule, channel, tag, version, read]) => {
      const r = readTag(rule, channel, tag)
      return version === null ? !('unknown' in r) : !('version' in r) || r.version !== version || r.channel !== read
    })
    expect(wrong).toEqual([])
  })

  it('says why a tag names no version', () => {
    expect(readTag('linuxserver', 'stable', '30a549ed-ls283')).toEqual({
      unknown: 'the tag "30a549ed-ls283" names a commit (30a549ed), not a release'
    })
    expect(readTag('home-operations', 'stable', 'rolling')).toEqual({ unknown: 'the tag "rolling" names no version' })
    expect(readTag('own', 'stable', 'v26.07.2')).toEqual({
      unknown: 'the tag "v26.07.2" is the publisher\'s own numbering, not the upstream version'
    })
  })

  it('marks the shapes a publisher also pushes as moving aliases', () => {
    expect(readTag('home-operations', 'stable', '1.6.0')).toEqual({ version: '1.6.0', channel: 'stable', alias: true })
    expect(readTag('home-operations', 'stable', 'v1.6')).toEqual({ version: '1.6', channel: 'stable', alias: true })
    expect(readTag('home-operations', 'stable', '4.0.15.2941')).not.toHaveProperty('alias')
    expect(readTag('onedr0p', 'stable', '16.2')).toEqual({ version: '16.2', channel: 'stable', alias: true })
    expect(readTag('onedr0p', 'stable', '4.6.3')).not.toHaveProperty('alias')
    expect(readTag('hotio', undefined, 'release-v1.5')).toEqual({ version: '1.5', channel: 'stable', alias: true })
    expect(readTag('linuxserver', 'stable', '26.2-ls3')).not.toHaveProperty('alias')
  })

  it('refuses hostile tags: huge, control characters, paths, `..`, workflow commands', () => {
    for (const rule of TAG_RULES) {
      for (const tag of [
        `1.${'9'.repeat(5000)}`,
        '1.2.3\u0000',
        '1.2.3\n::error::x',
        '\u001b[31m1.2.3',
        '../../1.2.3',
        '1..2',
        'version-1..2-ls3',
        '::error::1.2.3',
        '1.2.3\u202e',
        ''
      ])
        expect(readTag(rule, 'stable', tag)).toHaveProperty('unknown')
    }
    const long = readTag('linuxserver', 'stable', 'x'.repeat(200))
    expect('unknown' in long && long.unknown.length).toBeLessThan(120)
  })

  it('reads every linuxserver example of the data set the same under -ls<N> and version-', () => {
    const records = readSharedJsonl<{ image: string; publisher: string; tags: string; channel: string | null }>(
      sharedPath('images/community.jsonl')
    )
    let seen = 0
    for (const r of records) {
      if (r.publisher !== 'linuxserver') continue
      // The example of the default branch, and the version- tag beside it ("… 4.0.19.2979-ls316 (also 'version-…").
      const m = /: (\S+-ls\d+) \(also 'version-([^']+)'/.exec(r.tags)
      if (!m) continue
      seen++
      const channel = (r.channel ?? undefined) as ImageChannel | undefined
      const a = readTag('linuxserver', channel, m[1]!)
      const b = readTag('linuxserver', channel, `version-${m[2]!}`)
      if ('version' in a) expect(b).toEqual(a)
      else expect(b).toHaveProperty('unknown')
    }
    if (records.length > 0) expect(seen).toBeGreaterThan(250)
  })
})

describe('no version from a tag without one (property)', () => {
  it('a tag with no digit is unknown under every rule and channel', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TAG_RULES),
        fc.constantFrom<ImageChannel | undefined>('stable', 'develop', 'nightly', 'beta', undefined),
        fc.stringMatching(/^[A-Za-z_][A-Za-z_.-]{0,40}$/),
        (rule, channel, tag) => {
          expect(readTag(rule, channel, tag)).toHaveProperty('unknown')
        }
      ),
      { numRuns: 2000 }
    )
  })

  it('any version read is a bounded part of the tag, with a number in it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TAG_RULES),
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.stringMatching(/^(?:[a-z]{1,12}-)?v?\d{1,4}(?:\.[0-9a-f]{1,5}){0,4}(?:[-_.][a-z0-9]{1,8}){0,3}$/)
        ),
        (rule, tag) => {
          const r = readTag(rule, 'stable', tag)
          if ('version' in r) {
            expect(tag).toContain(r.version)
            expect(r.version).toMatch(/\d/)
            expect(r.version.length).toBeLessThanOrEqual(128)
            expect(r.version).not.toMatch(/[\s\p{Cc}]/u)
          }
        }
      ),
      { numRuns: 3000 }
    )
  })
})
