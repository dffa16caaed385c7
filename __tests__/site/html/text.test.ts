import { describe, expect, test } from '@jest/globals'
import { cleanText, escapeMarkup, formatTimestamp, text } from '../../../src/site/html/text.js'
import { safeHttpUrl } from '../../../src/util/http-url.js'
import { TEN_MB } from '../fixtures.js'

describe('cleanText', () => {
  test('removes bidi overrides, isolates and control characters but keeps ordinary text', () => {
    const s = cleanText('a\u202Eb\u2066c\u2069d\u0000e\u0007f\u001Bg\u009Bh\u200Fi', 100)
    expect(s).toBe('abcdefghi')
  })
  test('single-line mode folds newlines and tabs; multiline keeps paragraphs', () => {
    expect(cleanText('one\n\ttwo\r\nthree', 100)).toBe('one two three')
    expect(cleanText('one\r\ntwo\n\n\n\nthree  four', 100, { multiline: true })).toBe('one\ntwo\n\nthree four')
  })
  test('replaces lone surrogates, keeps real astral characters', () => {
    expect(cleanText('a\uD800b\uDC00c😀', 100)).toBe('a\uFFFDb\uFFFDc😀')
  })
  test('bounds length in code points and marks the cut', () => {
    const s = cleanText('😀'.repeat(50), 10)
    expect(Array.from(s)).toHaveLength(10)
    expect(s.endsWith('…')).toBe(true)
    expect(cleanText('short', 10)).toBe('short')
  })
  test('a 10 MB string yields a bounded result', () => {
    const s = cleanText(TEN_MB, 1000, { multiline: true })
    expect(Array.from(s).length).toBeLessThanOrEqual(1000)
    expect(s.startsWith('A<script>')).toBe(true)
  })
  test('non-strings become empty text', () => {
    expect(cleanText(undefined, 10)).toBe('')
    expect(cleanText(42, 10)).toBe('')
  })
})

describe('escapeMarkup', () => {
  test('escapes the five markup characters for text and attributes', () => {
    expect(escapeMarkup(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;'
    )
  })
  test('text() cleans, bounds and escapes in one step', () => {
    expect(text('<b>\u202Ehi</b>', 100)).toBe('&lt;b&gt;hi&lt;/b&gt;')
  })
})

describe('safeHttpUrl', () => {
  test.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'java\nscript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '//evil.example/x',
    '/relative',
    'not a url',
    'https://user:pw@example.com/'
  ])('rejects %j', (u) => {
    expect(safeHttpUrl(u)).toBeNull()
  })
  test('accepts and normalises http(s)', () => {
    expect(safeHttpUrl('https://github.com/a/b/releases/tag/v1')).toBe('https://github.com/a/b/releases/tag/v1')
    expect(safeHttpUrl('http://EXAMPLE.com/a b"<')).toBe('http://example.com/a%20b%22%3C')
  })
})

test('formatTimestamp shows minutes in UTC and cleans anything else', () => {
  expect(formatTimestamp('2026-11-21T03:04:05.000Z')).toBe('2026-11-21 03:04 UTC')
  expect(formatTimestamp('<script>\u202E')).toBe('<script>')
})
