// What a heading announces. Changelogs are written under headings, and the heading
// says more about an item than any word in it: a line under "Breaking changes" is
// breaking whatever it says, a line under "Documentation" changes no deployment.

import { wordsPattern } from './detectors.js'

export const S = {
  breaking: 1,
  upgrade: 2,
  removed: 4,
  deprecated: 8,
  security: 16,
  changed: 32,
  config: 64,
  important: 128,
  /** Documentation, tests, CI, dependencies, thanks: nothing an admin runs changes. */
  housekeeping: 256,
  fixes: 512,
  features: 1024,
  knownIssues: 2048
} as const

export type HeadingKind = keyof typeof S

/** Every phrase of a word of `firsts` then a word of `seconds` ("upgrade" and "notes": "upgrade notes"). */
function both(firsts: readonly string[], seconds: readonly string[]): string[] {
  return firsts.flatMap((a) => seconds.map((b) => `${a} ${b}`))
}

/** A heading with one of `anywhere` in it, or opening with one of `atStart` (case-insensitive). */
function headingWords(anywhere: readonly string[], atStart: readonly string[] = []): RegExp {
  const parts = [wordsPattern(anywhere).source, ...(atStart.length > 0 ? [`^${wordsPattern(atStart).source}`] : [])]
  return new RegExp(parts.join('|'), 'i')
}

/** Each kind of heading: its bit, what a line under it is, in plain words, and its pattern. */
export const HEADINGS: readonly { name: keyof typeof S; means: string; re: RegExp }[] = [
  {
    name: 'breaking',
    means: 'listed under a breaking-changes heading',
    re: /\bbreaking\b|\bbackwards?[- ]incompatib|\bincompatible changes?\b|💥/i
  },
  {
    name: 'upgrade',
    means: 'listed under an upgrade or migration heading',
    re: headingWords(
      [
        ...both(
          ['upgrade', 'upgrading'],
          ['note', 'notes', 'instruction', 'instructions', 'guide', 'step', 'steps', 'consideration', 'considerations']
        ),
        ...both(['upgrade', 'upgrading'], ['information', 'warning', 'warnings', 'path']),
        ...both(['before', 'before you'], ['upgrad*', 'updat*']),
        ...both(['how to'], ['upgrade', 'update', 'migrate']),
        ...both(['migration'], ['note', 'notes', 'guide', 'step', 'steps', 'instruction', 'instructions', 'required']),
        ...both(['action'], ['required', 'needed']),
        ...both(['manual'], ['step', 'steps', 'action', 'actions', 'intervention', 'migration']),
        ...both(['required'], ['action', 'actions', 'step', 'steps'])
      ],
      ['upgrade', 'upgrading', 'migration', 'migrations', 'migrating']
    )
  },
  {
    name: 'removed',
    means: 'listed under a "Removed" heading',
    re: headingWords(
      both(['removed'], ['feature', 'features', 'setting', 'settings', 'option', 'options', 'support']),
      ['removed', 'removal', 'removals', 'dropped', 'deleted']
    )
  },
  { name: 'deprecated', means: 'listed under a deprecations heading', re: /deprecat/i },
  { name: 'security', means: 'listed under a security heading', re: /\bsecurity\b|\bvulnerabilit|🔒|\bcve\b/i },
  {
    name: 'changed',
    means: 'listed under a "Changed" heading',
    re: /^(?:changed|changes in behaviou?r|behaviou?r(?:al)? changes?|changed behaviou?r)$/i
  },
  {
    name: 'config',
    means: 'listed under a configuration-changes heading',
    re: /\b(?:config(?:uration)?|settings?) changes?\b/i
  },
  {
    name: 'important',
    means: 'listed under an "Important" or warning heading',
    re: /\bimportant\b|\battention\b|\bwarnings?\b|\bnotice\b|⚠/i
  },
  {
    name: 'housekeeping',
    means: 'listed under a documentation, tests or dependencies heading',
    re: headingWords([
      ...['doc', 'docs', 'documentation', 'test', 'tests', 'testing', 'ci', 'chore', 'chores', 'internal'],
      ...['misc', 'miscellaneous', 'misc tasks', 'miscellaneous tasks', 'refactor', 'refactors', 'refactoring'],
      ...['refactorings', 'dependency', 'dependencies', 'deps', 'translation', 'translations', 'i18n', 'l10n'],
      ...['localisation', 'localization', 'thanks', 'contributors', 'all changes', 'all app changes', 'all commits'],
      ...['maintenance', 'development', 'tooling', 'code quality', 'build system']
    ])
  },
  { name: 'fixes', means: 'listed under a bug-fixes heading', re: /\bfix(?:es|ed)?\b|\bbugs?\b/i },
  {
    name: 'features',
    means: 'listed under a features heading',
    re: /\bfeatures?\b|\benhancements?\b|\badded\b|\bnew\b|\bimprovements?\b/i
  },
  { name: 'knownIssues', means: 'listed under a known-issues heading', re: /\bknown issues?\b/i }
]

/** Anything but letters and digits before a heading's words, and anything but those and closing brackets after them. */
const DECORATION_START = /^[^\p{L}\p{N}]+/u
const DECORATION_END = /[^\p{L}\p{N})\]]+$/u

const NOT_BREAKING = /\b(?:no|non|not|without|zero)[- ](?:\w+[- ])?breaking\b/i

/** The kinds a heading's text announces, as a bit set of `S`. */
export function headingKinds(title: string): number {
  const t = title.replace(/[:.]+$/, '').trim()
  // The words without what decorates them ("💥 Breaking changes", "🗑️ Removed", "-- Changed --"): the patterns
  // that must match the whole title or its start read these; an emoji that is itself a kind (💥) stays in t.
  const words = t.replace(DECORATION_START, '').replace(DECORATION_END, '')
  let k = 0
  for (const h of HEADINGS) if (h.re.test(words) || (words !== t && h.re.test(t))) k |= S[h.name]
  // "No breaking changes", "Non-breaking changes": the heading says the opposite.
  if (NOT_BREAKING.test(t)) k &= ~S.breaking
  // "Breaking changes" also matches the changed/features words; the stronger meaning wins.
  if (k & S.breaking) k &= ~(S.housekeeping | S.features)
  return k
}

/**
 * Is this short text a label that introduces a list (a pseudo-heading such as
 * `**Bug fixes:**` or a list item `SECURITY` with sub-items)?
 */
export function looksLikeLabel(text: string): boolean {
  if (text.length === 0 || text.length > 60) return false
  const words = text.split(/\s+/).length
  return words <= 6 && !/[.!?]\s*$/.test(text.replace(/:$/, ''))
}
