// The detectors: each defined once (name, plain words, pattern from a word list), general,
// guarded exactly, and bounded on hostile text.
// Lines are made up in the shapes of real ones (the same detectors find the same in them); real notes are
// read from the data set.
import { expect, it } from '@jest/globals'
import { describe } from '../support/needs-shared-data.js'
import { detect, DETECTOR, DETECTORS, MODIFIERS } from '../../src/classify/detectors.js'
import { cleanNotes } from '../../src/classify/text.js'
import { parseUnits } from '../../src/classify/blocks.js'
import { NOTES } from './fixtures.js'

const names = (text: string) => detect(text).map((h) => h.detector.name)

describe('detectors', () => {
  it('each has a unique name, plain words for the rationale and a reason', () => {
    const seen = new Set<string>()
    for (const d of DETECTORS) {
      expect(seen.has(d.name)).toBe(false)
      seen.add(d.name)
      expect(d.means).toMatch(/^[a-z][\w ,'-]+[a-zI)]$/)
      expect(['required', 'urgent', 'security', 'note', 'routine']).toContain(d.why)
    }
    for (const m of MODIFIERS) expect(seen.has(m)).toBe(true)
  })

  it.each(['removalLine', 'fixLine', 'choreLine', 'bangMarker', 'breakingMarker'])(
    '%s reads past what may open a line: an issue reference, an author, a commit, a tag',
    (name) => {
      const lines = [
        'Remove the legacy exporter',
        'Fixed a crash on start',
        '[bugfix] a crash on start',
        'BUG/MINOR: mux: a crash on start',
        'docs: a typo',
        'chore(deps): bump x',
        'feat(api)!: drop the v1 endpoints',
        'Breaking change: the v1 endpoints are gone'
      ]
      const hits = (line: string) => DETECTOR[name]!.re.test(line)
      expect(lines.some(hits)).toBe(true)
      for (const line of lines)
        for (const opening of [
          '#1234: ',
          'GH-12 ',
          '@alice: ',
          '1a2b3c4 ',
          '[core] ',
          '#77 [web] ',
          // A tool's reference before the project's own, and a tag before a reference.
          '#1003: #10423 ',
          '@alice: #12 ',
          '[core] #12: '
        ])
          expect([opening + line, hits(opening + line)]).toEqual([opening + line, hits(line)])
      // Not a word inside the line.
      expect(hits('See the notes: remove nothing, fixed nothing, docs: none')).toBe(false)
    }
  )

  it.each([
    ['Drop support for Python 3.8', 'removedSupport'],
    ['The Demo build server now requires Python 3.11 or newer.', 'requirementAfter'],
    ['The minimum supported PostgreSQL version is now PostgreSQL 14', 'raisedRequirement'],
    ['The `LEGACY_AUTH` option has been removed', 'settingRemoved'],
    ['Remove the deprecated v1 API endpoints', 'removedInterface'],
    ['Remove basic_smb_lm_auth helpers', 'removalLine'],
    ['You need to run the migration manually after upgrading', 'manualStep'],
    ['Please read the upgrade guide before updating', 'guide'],
    ['Critical security release, please update immediately', 'urgent'],
    ['Critical security release, please update immediately', 'criticalFix'],
    ['Users are strongly encouraged to update to this Demo release', 'urgent'],
    ['This release does not require a newer Go toolchain', 'negated'],
    ['[Fix] Lua: handle require returning two values', 'fixLine'],
    ['Currently Linux only, and must be enabled in local.conf', 'optIn'],
    ['Fix XSS in the comment form (CVE-2025-1234)', 'securityWord'],
    ['Require view permission for the more-like search', 'accessControl'],
    ['Avoid enabling a non-validated OTP for two-factor login', 'accessControl'],
    ['The `--legacy` flag is deprecated', 'deprecation'],
    ['Change the default log level to warn', 'defaultChange'],
    ['feat(api)!: drop the old route', 'bangMarker'],
    ['Feat(api)!: drop the old route', 'bangMarker'],
    ['No breaking changes in this release', 'negated'],
    ['This will be removed in a future release', 'future'],
    ['Require CMake 3.17 to build from source', 'buildContext']
  ])('%j → %s', (text, name) => {
    expect(names(text)).toContain(name)
  })

  it('reads a Conventional Commits "!" in lower case or capitalised, not a shout', () => {
    expect(names('Fix(nvme)!: report the demo drive temperature in kelvin')).toContain('bangMarker')
    expect(names('WARNING!: the demo drive is hot')).not.toContain('bangMarker')
  })

  it('hears urgency only about updating, and a manual step only when the reader is told', () => {
    const urgent = (t: string) => names(t).filter((n) => DETECTOR[n]!.why === 'urgent')
    expect(urgent('Redirect immediately after sign-in to avoid a blank page')).toEqual([])
    expect(urgent('Thanks to everyone who contributed; all users benefit')).toEqual([])
    expect(urgent('Upgrading is highly recommended for all users')).toEqual(['urgent'])
    expect(names('Ensure that the viewer refreshes when re-running queries')).not.toContain('manualStep')
    expect(names('Make sure you run the migration after upgrading')).toContain('manualStep')
    expect(names('Preselect manual sort mode in the Demo board form')).not.toContain('manualStep')
    // A pointer to the changelog for details is not an upgrade guide; the documentation of a change may be one.
    expect(names('For the details, read the whole changelog and its milestone.')).not.toContain('guide')
    expect(names('Please read the release notes of 2.0 for the details')).not.toContain('guide')
    expect(names('Please see the Demo API documentation for details and examples.')).toContain('guide')
  })

  it('does not read an issue number or a name as a version', () => {
    expect(names("Don't split the language list if not required [#9007]")).not.toContain('requiredVersion')
    expect(names('Require UTF-8 filenames in .torrent files')).not.toContain('requiredVersion')
    expect(names('Requires at least version 2.4.1 of libfoo')).toContain('requiredVersion')
    // "At least" alone bounds a number; it requires nothing.
    expect(names('Support at least 1000 tags per Demo board')).not.toContain('requiredVersion')
    expect(names('This bug affects Demo releases at least back to 0.9.2')).not.toContain('requiredVersion')
  })

  it('reads words, not parts of words', () => {
    expect(names('Improve the removability of widgets')).not.toContain('removalLine')
    // The tail of a hyphenated word is not the word: a non-breaking space breaks nothing.
    expect(names('Fix Demo exports to never use non-breaking spaces')).not.toContain('breakingWord')
    expect(names('Kept To-Dos from closed projects browsable')).not.toContain('securityWord')
    expect(names('Fix DoS via crafted RTF')).toContain('securityWord')
    expect(names('This is a breaking change')).toContain('breakingWord')
    expect(names('Fix typo in README')).not.toContain('securityWord')
    expect(names('Fix a memory leak in the parser')).not.toContain('securityWord')
    expect(names("Didn't check Demo packet lengths, potentially reading past the end")).toContain('securityWord')
  })

  it('a guard never hides a match: on every line of the real notes, a match implies a key (and one of `also`)', () => {
    const lines = NOTES.flatMap((n) => parseUnits(cleanNotes(n.notes).text).map((u) => u.text))
    for (const d of DETECTORS) {
      for (const line of lines) {
        const m = d.re.exec(d.lower ? line.toLowerCase() : line)
        const has = (keys: string[]) => keys.length === 0 || keys.some((k) => line.toLowerCase().includes(k))
        if (m) expect([d.name, line, has(d.keys), has(d.also)]).toEqual([d.name, line, true, true])
      }
    }
    // Every detector is guarded.
    expect(DETECTORS.filter((d) => d.keys.length === 0).map((d) => d.name)).toEqual([])
  })

  it('guards a phrase by the phrase, which units allow: their words are one plain space apart', () => {
    const migration = DETECTOR['migration']!
    // "db upgrade": the phrase, not "upgrade", which a line of every third release holds.
    expect(migration.keys).toContain('db upgrade')
    expect(migration.keys).not.toContain('upgrade')
    expect(names('Run the DB upgrade after installing')).toContain('migration')
    // A key spelled with one space matches the pattern's any run of white space only in squashed text: units are.
    const hostile =
      'Run the db \t upgrade\u00a0 script  now\n\n- db\u2003upgrade  \n  script\n\n| a  b |\n|--|\n| db \t upgrade |'
    const texts = [...NOTES.map((n) => n.notes), hostile].flatMap((t) =>
      parseUnits(cleanNotes(t).text).map((u) => u.text)
    )
    expect(texts.filter((t) => /\s\s|[^\S ]/.test(t))).toEqual([])
    expect(names(parseUnits(cleanNotes(hostile).text)[0]!.text)).toContain('migration')
  })

  it('stays fast on hostile lines (no catastrophic backtracking)', () => {
    const hostile = [
      'remove '.repeat(600),
      `${'a'.repeat(4000)}!`,
      'must '.repeat(800),
      `python ${'1.'.repeat(2000)}`,
      `${'support for '.repeat(300)}x`,
      `[${'x'.repeat(3990)}`
    ]
    for (const h of hostile) {
      const t = process.hrtime.bigint()
      detect(h)
      expect(Number(process.hrtime.bigint() - t) / 1e6).toBeLessThan(200)
    }
  })
})
