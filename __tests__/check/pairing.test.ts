// Pairing a pull request's head references with those at its merge base: moved, renamed or bumped
// references of one image are updates (or nothing, when only moved), never additions; several copies
// of one image pair each with the nearest version.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { pairRefs, versionDistance, type FileRefs } from '../../src/check/pairing.js'
import type { FoundRef } from '../../src/check/refs.js'

const ref = (file: string, field: string, image: string | null, line = 1): FoundRef => ({ file, field, image, line })

describe('pairRefs', () => {
  it('pairs several removed and added copies of one image each with its nearest version, the same file first', () => {
    const files: FileRefs[] = [
      {
        file: 'a.yml',
        before: [ref('a.yml', 'x', 'postgres:15.8'), ref('a.yml', 'y', 'postgres:16.4')],
        after: [ref('a.yml', 'p', 'postgres:16.6', 2), ref('a.yml', 'q', 'postgres:15.9', 3)]
      },
      { file: 'b.yml', before: [ref('b.yml', 'x', 'postgres:16.5')], after: null },
      { file: 'c.yml', before: null, after: [ref('c.yml', 'x', 'postgres:16.5', 4)] }
    ]
    const p = pairRefs(files)
    expect(p.changes.map((c) => `${c.baseImage} → ${c.image} at ${c.file}:${c.field}`)).toEqual([
      'postgres:16.4 → postgres:16.6 at a.yml:p',
      'postgres:15.8 → postgres:15.9 at a.yml:q'
    ])
    // b.yml's copy went to c.yml unchanged: no change, and not added.
    expect(p.added).toEqual([])
  })

  it('keeps a reference a template leaves open apart, and an image no earlier reference has as added', () => {
    const p = pairRefs([
      {
        file: 'c.yml',
        before: [ref('c.yml', 'a', 'gogs/gogs:0.14.3')],
        after: [ref('c.yml', 'a', null), ref('c.yml', 'b', 'redis:7.4')]
      }
    ])
    expect(p.unreadable.map((r) => r.field)).toEqual(['a'])
    expect(p.added.map((a) => a.image)).toEqual(['redis:7.4'])
    expect(p.changes).toEqual([])
  })

  it('never reads a moved or bumped reference of an image the base holds as added', () => {
    const image = fc.constantFrom('gogs/gogs', 'docker.io/library/postgres', 'postgres', 'ghcr.io/a/b')
    const refs = fc.array(fc.tuple(image, fc.nat(20), fc.nat(20)), { minLength: 1, maxLength: 12 })
    fc.assert(
      fc.property(refs, fc.boolean(), fc.nat(), (list, bump, seed) => {
        const before = list.map(([n, major, minor], i) => ref(`f${i % 3}.yml`, `k${i}`, `${n}:${major}.${minor}`))
        // The same references, in another order, under other keys and files; bumped or not.
        const after = list
          .map(([n, major, minor], i) => ({ n, major, minor: bump ? minor + 1 : minor, i }))
          .sort((x, y) => ((x.i * 7 + seed) % 13) - ((y.i * 7 + seed) % 13))
          .map((r, j) => ref(`g${j % 2}.yml`, `m${j}`, `${r.n}:${r.major}.${r.minor}`))
        const p = pairRefs([
          ...[0, 1, 2].map((k) => ({
            file: `f${k}.yml`,
            before: before.filter((r) => r.file === `f${k}.yml`),
            after: null
          })),
          ...[0, 1].map((k) => ({
            file: `g${k}.yml`,
            before: null,
            after: after.filter((r) => r.file === `g${k}.yml`)
          }))
        ])
        expect(p.added).toEqual([])
        // Bumped, each copy is a change unless another copy already held its new tag (then it only moved).
        if (!bump) expect(p.changes).toEqual([])
        else expect(p.changes.length).toBeGreaterThan(0)
      })
    )
  })
})

describe('versionDistance', () => {
  it('orders tags by the first number that differs, a digest or suffix apart being nearest', () => {
    expect(versionDistance('a:1.2.3', 'a:1.2.3')).toBe(0)
    expect(versionDistance('a:1.2.3', 'a:1.2.3-alpine')).toBe(1)
    expect(versionDistance('a:1.2.3', 'a:1.2.4')).toBeLessThan(versionDistance('a:1.2.3', 'a:1.3.0'))
    expect(versionDistance('a:1.2.3', 'a:1.3.0')).toBeLessThan(versionDistance('a:1.2.3', 'a:2.0.0'))
    expect(versionDistance('a:latest', 'a:1.0')).toBeGreaterThan(versionDistance('a:1.2.3', 'a:9.0.0'))
  })
})
