// fast-check arbitraries for what upstream may send: text of any length and content (controls, lone surrogates,
// bidi marks, Markdown, long words), version labels as a refresh or a notes file passes them on, and releases.
// Every word here is made up.
import fc from 'fast-check'
import type { ReleaseNotes } from '../../src/util/types.js'
import { isStableVersion, isVersionLabel } from '../../src/util/versions.js'

/** One UTF-16 code unit of any value: lone surrogates, controls and noncharacters included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n))

/** Pieces of Markdown and of the prose the classifier looks for, so the notes reach its rules and the summary. */
const piece = fc.constantFrom(
  '## Breaking changes\n',
  '### Bug fixes\n',
  '## Features\n',
  '- ',
  '* ',
  '\n',
  '\n\n',
  '`code`',
  '**bold** ',
  'removed the setting ',
  'you must migrate the database before upgrading ',
  'fixed a crash in the panel ',
  'security fix for the login form ',
  'deprecated ',
  'requires Go 1.23 ',
  '[link](https://example.org/x) ',
  '#1234 ',
  '@someone ',
  '<b>tag</b> ',
  '\u202Ebidi\u202C ',
  '\u0000\u0007 ',
  '…',
  ' '
)

/** Text of any content: arbitrary code units, printable graphemes, and Markdown-like pieces mixed. */
export function anyText(maxLength = 400): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: anyUnit, maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({
      unit: fc.oneof(piece, fc.string({ unit: 'grapheme-ascii', maxLength: 12 })),
      maxLength: Math.ceil(maxLength / 8)
    })
  )
}

/** Text that may be far longer than any bound: a word or piece repeated up to `max` characters. */
export function longText(max = 6000): fc.Arbitrary<string> {
  return fc
    .tuple(anyText(60), fc.integer({ min: 1, max }))
    .map(([t, n]) => (t.length === 0 ? 'x'.repeat(n) : t.repeat(Math.ceil(n / t.length)).slice(0, n)))
}

/** Notes of any content or length. */
export function anyNotes(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 4, arbitrary: anyText(600) }, { weight: 1, arbitrary: longText(6000) })
}

/** A version label as upstream passes it on: stable, publishable (util/versions.ts), of any length up to the bound. */
export const stableVersion: fc.Arbitrary<string> = fc
  .oneof(
    fc
      .tuple(
        fc.constantFrom('', 'v', 'V', 'release-', 'server@', 'app/'),
        fc.array(fc.nat({ max: 99999 }), { minLength: 1, maxLength: 5 })
      )
      .map(([prefix, nums]) => `${prefix}${nums.join('.')}`),
    // Long labels: many components, up to the 128-character bound.
    fc.array(fc.nat({ max: 9_999_999 }), { minLength: 10, maxLength: 40 }).map((nums) => nums.join('.').slice(0, 128))
  )
  .map((v) => v.replace(/\.$/, ''))
  .filter((v) => isVersionLabel(v) && isStableVersion(v))

/** Any label at all, publishable or not (for what the build must survive, not publish). */
export const anyVersion: fc.Arbitrary<string> = fc.oneof(
  stableVersion,
  anyText(200).filter((s) => s.length > 0)
)

/** A release page as the refresh builds it from a tag. */
export const pageOf = (version: string) =>
  `https://github.com/acme/tool/releases/tag/${version.split('/').map(encodeURIComponent).join('/')}`

/** Releases oldest first, with distinct increasing stable versions, each with notes of any content. */
export function releasesOf(min = 1, max = 4): fc.Arbitrary<ReleaseNotes[]> {
  return fc
    .tuple(
      fc.constantFrom('', 'v'),
      fc.array(fc.tuple(anyNotes(), fc.option(fc.constant('2026-11-01'), { nil: null })), {
        minLength: min,
        maxLength: max
      })
    )
    .map(([prefix, list]) =>
      list.map(([notes, date], i) => {
        const version = `${prefix}1.${i}.0`
        return { version, notes, url: pageOf(version), date }
      })
    )
}
