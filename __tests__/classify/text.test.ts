// The plain-text helpers skip work on the common case; these pin that the answers stay
// those of the plain definitions on the uncommon ones.
import { describe, expect, it } from '@jest/globals'
import { EMPHASIS_CAP, parseUnits } from '../../src/classify/blocks.js'
import { cleanNotes, isBlankNotes, squash } from '../../src/classify/text.js'

describe('squash', () => {
  it.each([
    '',
    ' ',
    'a',
    ' a ',
    'a b',
    'a  b',
    'a\tb',
    'a\nb',
    'a \u00a0b',
    '\u2028a\u3000b\ufeff',
    'already single spaced',
    ' x  y \n z '
  ])('%j', (s) => {
    expect(squash(s)).toBe(s.replace(/\s+/g, ' ').trim())
  })
})

describe('isBlankNotes', () => {
  it.each([
    ['', true],
    [' \n\t', true],
    ['[truncated]', true],
    [' \n[TRUNCATED]\n[truncated] ', true],
    ['x', false],
    ['  x [truncated]', false],
    ['[truncated]x', false],
    ['[trunc[truncated]ated]', false],
    ['[link](url)', false]
  ])('%j → %s', (text, blank) => {
    expect(isBlankNotes(text)).toBe(blank)
  })
})

describe('cleanNotes', () => {
  it('normalises line ends and drops junk characters, lone surrogates only', () => {
    const raw = 'a\r\nb\rc\u0000d\u200e\u202ee\ufeff\ud83d\ude00f\ud83dg\ude00h\n[truncated] \n'
    expect(cleanNotes(raw)).toEqual({ text: 'a\nb\ncd\u200ee\ud83d\ude00fgh\n', cut: false })
    expect(cleanNotes('plain notes\n- item\n')).toEqual({ text: 'plain notes\n- item\n', cut: false })
  })
})

describe('emphasis cap', () => {
  const stars = (n: number) => '*a* '.repeat(n / 2)
  it('leaves notes with up to EMPHASIS_CAP delimiters as Markdown', () => {
    expect(parseUnits(stars(EMPHASIS_CAP))[0]!.text).not.toContain('*')
  })
  it('escapes the delimiters of notes with more', () => {
    expect(parseUnits(`${stars(EMPHASIS_CAP)}_`)[0]!.text).toContain('*a*')
    expect(parseUnits(`${stars(EMPHASIS_CAP)}~`)[0]!.text).toContain('*a*')
  })
})
