import { describe, expect, it } from '@jest/globals'
import { didYouMean, editDistance } from '../../src/util/suggest.js'

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(editDistance('repo', 'repos')).toBe(1)
    expect(editDistance('version', 'vesrion')).toBe(1)
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(editDistance('', 'abc')).toBe(3)
    expect(editDistance('same', 'same')).toBe(0)
  })
  it('stops early past the bound, saying only that it is past', () => {
    expect(editDistance('a'.repeat(50), 'b'.repeat(50), 2)).toBe(3)
    expect(editDistance('abc', 'abcdefgh', 2)).toBe(3)
  })
})

describe('didYouMean', () => {
  const KEYS = ['name', 'repo', 'tagPrefix', 'tagPattern', 'archived', 'successor', 'lifecycle', 'override', 'release']
  it('finds the nearest key, or another spelling of it', () => {
    expect(didYouMean('repos', KEYS)).toBe('repo')
    expect(didYouMean('nmae', KEYS)).toBe('name')
    expect(didYouMean('tag-pattern', KEYS)).toBe('tagPattern')
    expect(didYouMean('SUCCESSOR', KEYS)).toBe('successor')
    expect(didYouMean('releases', KEYS)).toBe('release')
  })
  it('suggests nothing for a key that is not close to any', () => {
    expect(didYouMean('colour', KEYS)).toBeNull()
    expect(didYouMean('url', KEYS)).toBeNull()
    expect(didYouMean('x'.repeat(10_000), KEYS)).toBeNull()
  })
})
