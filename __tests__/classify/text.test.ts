// The plain-text helpers skip work on the common case; these pin that the answers stay
// those of the plain definitions on the uncommon ones.
import { describe, expect, it } from '@jest/globals'
import { parseUnits } from '../../src/classify/blocks.js'
import { cleanNotes, clip, isBlankNotes, squash } from '../../src/classify/text.js'

/** The units of `notes` as cleaned, as [kind, text]. */
const brief = (notes: string) => parseUnits(cleanNotes(notes).text).map((u) => [u.kind, u.text])

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
    ' x  y \n z ',
    'a \tb c\t d  e',
    'single spaced but\u00a0one'
  ])('%j', (s) => {
    expect(squash(s)).toBe(s.replace(/\s+/g, ' ').trim())
  })
})

describe('clip', () => {
  it('cuts at a word boundary with one ellipsis, also where the text already ended in one', () => {
    expect(clip('one two three four', 16)).toBe('one two three…')
    // An item clipped before, then clipped again with the summary it ends: "a……" was published.
    expect(clip(`abc…${'d'.repeat(10)}`, 5)).toBe('abc…')
    expect(clip('one two… three', 9)).toBe('one two…')
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
    // A truncation marker is dropped wherever it stands on a line of its own, not only at the end.
    expect(cleanNotes('- item\n[truncated]\n\n**Full Changelog**: x\n').text).toBe(
      '- item\n\n\n**Full Changelog**: x\n'
    )
  })
})

describe('reStructuredText links', () => {
  const units = (notes: string) => parseUnits(cleanNotes(notes).text).map((u) => u.text)
  it('read as their text, as Markdown links do (pgAdmin writes every item so)', () => {
    expect(
      units(
        '  | `Issue #9001 <https://git.example/demo/issues/9001>`_ -  Add a close button to each Demo tab.\n' +
          '  | See `the guide <https://example.org/guide>`__ first.\n'
      )
    ).toEqual(['Issue #9001 - Add a close button to each Demo tab.', 'See the guide first.'])
  })
  it('leave other backquoted text alone', () => {
    expect(units('Run `a <b>` then `c`_')).toEqual(['Run a <b> then c_'])
    expect(cleanNotes('`a <b c>`_ and `<d>`_').text).toBe('`a <b c>`_ and `<d>`_')
  })
})

describe('indentation the whole notes share', () => {
  it('is removed, with tabs after spaces counted as spaces, so a tab-indented list indented again stays a list', () => {
    // Dovecot writes tab-indented items with one line indented by spaces; indented again as a whole it was code.
    const notes = '\t* auth: Remove proxy_always field.\n\t  continued\n          nested text\n\t* second\n'
    const expected = [
      ['item', 'auth: Remove proxy_always field. continued nested text'],
      ['item', 'second']
    ]
    expect(brief(notes)).toEqual(expected)
    expect(brief(notes.replace(/^/gm, '  '))).toEqual(expected)
    expect(brief(notes.replace(/^/gm, ' '))).toEqual(expected)
  })
  it('is removed from a list pasted indented when a few lines flush with the margin come before or after it', () => {
    // GitHub appends "**Full Changelog**: <link>" flush with the margin under notes pasted indented (qBittorrent).
    const list = '    - BUGFIX: Fix a crash\n    - FEATURE: Drop support for Qt5\n'
    expect(brief(`${list}\n**Full Changelog**: https://github.com/o/r/compare/a...b\n`)).toEqual([
      ['item', 'BUGFIX: Fix a crash'],
      ['item', 'FEATURE: Drop support for Qt5'],
      ['paragraph', 'Full Changelog: https://github.com/o/r/compare/a...b']
    ])
    // A title before it too, as GitHub's generated notes put one.
    expect(brief(`## What's Changed\n\n${list}`)).toEqual([
      ['heading', "What's Changed"],
      ['item', 'BUGFIX: Fix a crash'],
      ['item', 'FEATURE: Drop support for Qt5']
    ])
    // Indented lines after a flush one stay: a nested list's items, and code after the line that introduces it.
    expect(brief('* decoder\n  - ffmpeg: handle opus files\n  - opus: fix seeking\n')).toEqual([
      ['heading', 'decoder'],
      ['item', 'ffmpeg: handle opus files'],
      ['item', 'opus: fix seeking']
    ])
    expect(brief('Upgrade with:\n\n    - docker compose pull\n    - docker compose up -d\n')).toEqual([
      ['paragraph', 'Upgrade with:'],
      ['code', '- docker compose pull - docker compose up -d']
    ])
  })
  it('is removed from a list that opens with indented labels, with only headings or HTML flush before it', () => {
    // Labels, then items, every line indented by a tab or spaces (FreeRADIUS, phpIPAM); GitHub's line after them
    // left it code, and the release unknown.
    const tail = '\n\n**Full Changelog**: https://github.com/o/r/compare/a...b\n'
    expect(brief(`\tBug fixes\n\t* Fix a crash in the detail reader.${tail}`)).toEqual([
      ['paragraph', 'Bug fixes'],
      ['item', 'Fix a crash in the detail reader.'],
      ['paragraph', 'Full Changelog: https://github.com/o/r/compare/a...b']
    ])
    expect(brief(`    Bugfixes:\n    ---------\n    + Fix the rack image;\n${tail}`)).toEqual([
      ['heading', 'Bugfixes:'],
      ['item', 'Fix the rack image;'],
      ['paragraph', 'Full Changelog: https://github.com/o/r/compare/a...b']
    ])
    // A heading or HTML before them introduces no code; nor does a reStructuredText changelog indented as a whole.
    expect(brief(`## 1.2.3\n\n    Bugfixes:\n    + Fix the rack image;${tail}`)).toEqual([
      ['heading', '1.2.3'],
      ['heading', 'Bugfixes'],
      ['item', 'Fix the rack image;'],
      ['paragraph', 'Full Changelog: https://github.com/o/r/compare/a...b']
    ])
    expect(
      brief(`  This is release 1.2.3.\n\n  .. change::\n    :tags: Bug Fixes\n\n    Fix a crash${tail}`)[0]
    ).toEqual(['paragraph', 'This is release 1.2.3.'])
    // A flush line before them may introduce code: it stays code.
    expect(brief('Run this\n\n    docker compose pull\n    - then restart\n')).toEqual([
      ['paragraph', 'Run this'],
      ['code', 'docker compose pull - then restart']
    ])
  })
})

describe('format rules checked once per text (most notes need none of them)', () => {
  it('still apply to a single line that needs one, among plain ones', () => {
    expect(brief('Intro\n\nFixes\n=====\n\n- one\n')).toEqual([
      ['paragraph', 'Intro'],
      ['heading', 'Fixes'],
      ['item', 'one']
    ])
    expect(brief('Intro\n\n| a line of a block\n')).toEqual([
      ['paragraph', 'Intro'],
      ['item', 'a line of a block']
    ])
    expect(brief('Intro\n\n■ a bullet\n')).toEqual([
      ['paragraph', 'Intro'],
      ['item', 'a bullet']
    ])
  })
  it('read a line of white space other than spaces and tabs as blank, not as a line flush with the margin', () => {
    // Flush lines among indented ones would keep the indentation (code); a no-break space line is no such line.
    expect(brief('    - Fix a crash\n\u00a0\n    - Fix a leak\n')).toEqual([
      ['item', 'Fix a crash'],
      ['item', 'Fix a leak']
    ])
  })
})

describe('typographic bullets', () => {
  it('mark list items, nested as their indentation says', () => {
    expect(
      parseUnits(cleanNotes('• Fixed a crash.\n  ◦ It happened on start\n• Removed the v1 API\n').text).map((u) => [
        u.text,
        u.depth
      ])
    ).toEqual([
      ['Fixed a crash.', 1],
      ['It happened on start', 2],
      ['Removed the v1 API', 1]
    ])
  })
})

describe('notes quoted as a whole', () => {
  const units = (notes: string) => parseUnits(cleanNotes(notes).text).map((u) => [u.kind, u.text, u.alert])
  it('are read as the notes they quote, indentation and all', () => {
    const notes = '## Fixes\n\n    - Fix a crash\n    - Fix a leak\n'
    expect(units(notes.replace(/^/gm, '> '))).toEqual(units(notes))
    expect(units(notes)).toContainEqual(['item', 'Fix a crash', ''])
  })
  it('stay quotes when only some lines are quoted, or the quote is an admonition', () => {
    expect(units('Intro\n\n> a quoted remark\n')).toContainEqual(['quote', 'a quoted remark', 'QUOTE'])
    expect(units('> [!WARNING]\n> Back up first\n')).toEqual([['quote', 'Back up first', 'WARNING']])
  })
})
