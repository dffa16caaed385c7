// countWords is a hand-written pass that must count exactly what its definition, a pattern, finds.
import { describe, expect, it } from '@jest/globals'
import { countWords } from '../../src/classify/words.js'

const WORD = /\p{L}[\p{L}\p{M}'’-]*/gu
const count = (s: string) => {
  const into = { words: 0, common: 0 }
  countWords(s, into)
  return into
}

describe('countWords', () => {
  it.each([
    ['fixed the crash in the api server', 7, 7],
    ["don't re-add the user’s files", 5, 2],
    ['fix: 1.2.3 — the_update, bugs!', 4, 4],
    ['ﬁx café naïve e\u0301 the\u0301', 5, 0],
    ['中文说明 the 𝐀𝐁 changes 😀 and', 5, 3],
    ['The Fix', 2, 0],
    ['lone \ud800 surrogate \udc00 the', 3, 1],
    ['-the- ’the’ the', 3, 1],
    ['', 0, 0]
  ])('%j has %i words, %i of them common', (s, words, common) => {
    expect(count(s)).toEqual({ words, common })
    expect(count(s).words).toBe((s.match(WORD) ?? []).length)
  })

  it('agrees with the pattern on random mixes of letters, marks, surrogates and punctuation', () => {
    const parts = [
      'a',
      'the',
      'fix',
      ' ',
      '-',
      "'",
      '’',
      'é',
      '\u0301',
      '𝐀',
      '中',
      '\ud800',
      '\udc00',
      '1',
      '_',
      'İ',
      'ß',
      '😀'
    ]
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % parts.length
    for (let k = 0; k < 2000; k++) {
      const s = Array.from({ length: 1 + (k % 12) }, () => parts[next()]).join('')
      expect(count(s).words).toBe((s.match(WORD) ?? []).length)
    }
  })
})
