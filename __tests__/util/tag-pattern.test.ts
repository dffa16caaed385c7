import { describe, expect, it } from '@jest/globals'
import { tagPatternError, tagPatternMatches } from '../../src/util/tag-pattern.js'
import { newestStable, tagMatches } from '../../src/util/versions.js'

function timed<T>(f: () => T): { value: T; ms: number } {
  const start = process.hrtime.bigint()
  const value = f()
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 }
}

describe('tagPattern on a linear-time engine', () => {
  const hostilePattern = '^(\\d+\\.?)+$'

  it("answers the red team's pattern and hostile tag at once (a backtracking engine takes seconds at 25, hours at 40)", () => {
    tagPatternMatches(hostilePattern, '1.2.3') // compile once, outside the timing
    for (const n of [25, 40, 127]) {
      const tag = `${'1'.repeat(n)}x`
      const { value, ms } = timed(() => tagMatches(tag, { tagPattern: hostilePattern }))
      expect({ n, value, fast: ms < 50 }).toEqual({ n, value: false, fast: true })
    }
    expect(tagMatches('1.2.3', { tagPattern: hostilePattern })).toBe(true)
  })

  it('costs little over a repository of hostile tags (a backtracking engine: over 10 s)', () => {
    const tags = Array.from({ length: 100 }, (_, i) => `${'1'.repeat(22)}${i}x`).concat(['1.2.3'])
    const { value, ms } = timed(() => newestStable(tags, (t) => t, { tagPattern: hostilePattern }))
    expect(value).toBe('1.2.3')
    expect(ms).toBeLessThan(500)
  })

  it('matches anywhere, as RegExp#test does, unless anchored', () => {
    expect(tagPatternMatches('release/', 'x-release/1.2')).toBe(true)
    expect(tagPatternMatches('^release/', 'x-release/1.2')).toBe(false)
    expect(tagPatternMatches('^v\\d+\\.\\d+\\.\\d+$', 'v1.2.3')).toBe(true)
    expect(tagPatternMatches('^\\d{4}\\.\\d+\\.\\d+$', '2026.5.1')).toBe(true)
  })

  it('names what RE2 cannot run: lookaround and backreferences', () => {
    expect(tagPatternError('^v\\d+$')).toBeNull()
    expect(tagPatternError('^(?=v)v\\d')).toMatch(/\(\?=/)
    expect(tagPatternError('(a)\\1')).toMatch(/\\1/)
    expect(tagPatternError('[')).toMatch(/missing closing \]/)
  })
})
