import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { escapeUnsafe, noCommands, stripUnsafe, unsafeTextProblem } from '../../src/util/text.js'

// What the red team planted: NUL, BEL, ESC, newline, NEL, RLO, a noncharacter.
const PLANTED = ['\u0000', '\u0007', '\u001b', '\n', '\u0085', '\u202e', '\uffff', '\ufffe', '\u{10ffff}', '\u2066']

describe('text hygiene', () => {
  it('refuses each planted character in one-line text, naming it and where it is', () => {
    for (const ch of PLANTED) expect(unsafeTextProblem(`ab${ch}c`)).toMatch(/: U\+[0-9A-F]{4,6} at character 3$/)
    expect(unsafeTextProblem('Grafana · 日本語 🎉 — fine')).toBeNull()
  })

  it('lets notes keep line ends and tabs, nothing else', () => {
    expect(unsafeTextProblem('a\r\n\tb\n', true)).toBeNull()
    expect(unsafeTextProblem('a\u001b[31mb', true)).toMatch(/U\+001B at character 2/)
  })

  it('strips upstream text and escapes what goes to a terminal', () => {
    expect(stripUnsafe('a\u202eb\uffffc\u0000d\ne', true)).toBe('abcd\ne')
    expect(stripUnsafe('a\nb')).toBe('ab')
    expect(escapeUnsafe('apps/x\u001b[31m\u202e.yml\nnext')).toBe('apps/x\\u{1b}[31m\\u{202e}.yml\nnext')
  })
})

describe('noCommands', () => {
  it('escapes the colon that would start a workflow command on a line, and leaves other colons', () => {
    expect(noCommands('::error::pwned')).toBe('\\u{3a}:error::pwned')
    expect(noCommands('svc  app\n      ::add-mask::x\nok: a::b')).toBe('svc  app\n      \\u{3a}:add-mask::x\nok: a::b')
    expect(noCommands('\t::warning::x')).toBe('\t\\u{3a}:warning::x')
    expect(noCommands('a :: b\n:x')).toBe('a :: b\n:x')
  })

  it('leaves no line that starts, after its spaces, with "::" (as a runner reads it), and changes nothing else', () => {
    const piece = fc.constantFrom('::', ':', ' ', '\t', '\n', '\r\n', 'error', 'x', '\\u{3a}')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const text = parts.join('')
        const out = noCommands(text)
        expect(out.split(/\r?\n/).some((l) => l.trimStart().startsWith('::'))).toBe(false)
        expect(out.replaceAll('\\u{3a}', ':')).toBe(text.replaceAll('\\u{3a}', ':'))
      })
    )
  })
})
