// The published JSON Schemas: patterns any consumer's engine reads (Python's `re`, ajv 6 without the `u` flag), and
// the portable version-label pattern as strict as ours wherever it can be.
import { describe, expect, it } from '@jest/globals'
import { jsonSchemas, portablePatterns } from '../../src/site/api.js'
import { VERSION_LABEL, VERSION_LABEL_PORTABLE } from '../../src/schema/index.js'

const patternsOf = (json: unknown): string[] =>
  Array.isArray(json)
    ? json.flatMap(patternsOf)
    : json !== null && typeof json === 'object'
      ? Object.entries(json).flatMap(([k, v]) => (k === 'pattern' && typeof v === 'string' ? [v] : patternsOf(v)))
      : []

describe('the published JSON Schemas', () => {
  it('hold only patterns an engine without Unicode property escapes compiles', () => {
    const patterns = [...jsonSchemas('https://example.org/s').values()].flatMap((text) => patternsOf(JSON.parse(text)))
    expect(patterns.length).toBeGreaterThan(20)
    expect(patterns).toContain(VERSION_LABEL_PORTABLE)
    for (const p of patterns) {
      expect(p).not.toMatch(/\\[pP]\{|\\u\{|\(\?<[=!]/)
      expect(() => new RegExp(p)).not.toThrow()
    }
  })

  it('refuses a property escape it has no portable form of', () => {
    expect(() => portablePatterns({ properties: { a: { pattern: '^\\p{L}+$' } } })).toThrow('no portable form')
  })

  it('reads a version label as VERSION_LABEL does on every BMP code point, and never refuses one it accepts', () => {
    const portable = [new RegExp(VERSION_LABEL_PORTABLE), new RegExp(VERSION_LABEL_PORTABLE, 'u')]
    const differ: string[] = []
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue
      const label = `v1${String.fromCharCode(c)}`
      const want = VERSION_LABEL.test(label)
      for (const re of portable) if (re.test(label) !== want) differ.push(c.toString(16))
    }
    expect(differ).toEqual([])
    // Beyond the BMP it is looser, never stricter: every label we publish passes it.
    for (const c of [0x1f600, 0x110bd, 0xe0001, 0x1fffe, 0x10ffff]) {
      const label = `v1${String.fromCodePoint(c)}`
      if (VERSION_LABEL.test(label)) for (const re of portable) expect(re.test(label)).toBe(true)
    }
  })
})
