// The key-word scanner the rules use as a guard must say exactly what `includes` says.
import { describe, expect, it } from '@jest/globals'
import { groupScanner } from '../../src/classify/keywords.js'

const naive = (groups: string[][], text: string): number[] => {
  const words = new Array<number>(Math.max(1, Math.ceil(groups.length / 31))).fill(0)
  groups.forEach((keys, g) => {
    if (keys.some((k) => text.includes(k))) words[Math.floor(g / 31)]! |= 1 << (g % 31)
  })
  return words
}

describe('groupScanner', () => {
  it('finds overlapping keys, keys inside keys and keys at the ends', () => {
    const groups = [
      ['break', 'no '],
      ['breaking'],
      ['king', 'in'],
      ['no longer', 'longer'],
      [','],
      ['!:', '[change'],
      ['g']
    ]
    const scan = groupScanner(groups)
    for (const text of [
      '',
      'breaking',
      'xbreakin',
      'no longer',
      'nolonger',
      'feat(x)!: a, b',
      '[changed]',
      'ng',
      'İ kelvin \u212A g'
    ]) {
      expect(scan(text)).toEqual(naive(groups, text))
    }
  })

  it('covers any number of groups, 31 to a word', () => {
    for (const n of [31, 32, 62, 63, 70, 93, 94, 130]) {
      const groups = Array.from({ length: n }, (_, g) => [`k${g}x`])
      const scan = groupScanner(groups)
      for (const text of ['', 'k0x', 'k30x k31x', `k${n - 1}x and k32x`, groups.flat().join(' ')])
        expect(scan(text)).toEqual(naive(groups, text))
    }
  })

  it('agrees with includes on random texts', () => {
    let seed = 1
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    const alphabet = 'abno ,!:-[é'
    const word = (max: number) => Array.from({ length: 1 + rand(max) }, () => alphabet[rand(alphabet.length)]).join('')
    for (let round = 0; round < 200; round++) {
      const groups = Array.from({ length: 1 + rand(8) }, () =>
        Array.from({ length: 1 + rand(4) }, () => word(4).replace(/é/g, 'e'))
      )
      const scan = groupScanner(groups)
      for (let i = 0; i < 50; i++) {
        const text = word(40)
        expect(scan(text)).toEqual(naive(groups, text))
      }
    }
  })

  it('refuses keys it cannot scan for', () => {
    expect(() => groupScanner([['']])).toThrow()
    expect(() => groupScanner([['é']])).toThrow()
  })
})
