// Version labels as upstream writes them: `v1.2.3`, `1.2.3.4`, `server@1.2.3`,
// `release/1.2`, `2026.5.1`, `v2.0.0-rc.1+build.5`. We never trust one scheme:
// labels we cannot read as numbers stay opaque and are never "newer" by guess.
import { tagPatternMatches } from './tag-pattern.js'

export interface ParsedVersion {
  /** The label as given. */
  label: string
  /** Numeric components, e.g. [1, 2, 3] or [2026, 5, 1]. */
  numbers: number[]
  /** Prerelease identifiers after `-` (or a bare suffix like `rc1`), empty for a stable release. */
  prerelease: string[]
}

const PRERELEASE_WORDS =
  /(?:^|[^a-z])(alpha|beta|rc|pre|preview|dev|nightly|canary|snapshot|next|insiders?|test|unstable)(?:[^a-z]|$)/i

/**
 * Strip what is not the version: a configured tag prefix, any `name@` or `path/`
 * prefix, a leading `v`, and build metadata after `+`.
 */
export function versionCore(label: string, tagPrefix?: string): string {
  let s = label.trim()
  if (tagPrefix && s.startsWith(tagPrefix)) s = s.slice(tagPrefix.length)
  const at = s.lastIndexOf('@')
  if (at >= 0) s = s.slice(at + 1)
  const slash = s.lastIndexOf('/')
  if (slash >= 0) s = s.slice(slash + 1)
  s = s.replace(/^[vV](?=\d)/, '')
  const plus = s.indexOf('+')
  if (plus >= 0) s = s.slice(0, plus)
  return s
}

/** Parse a label into numbers and prerelease parts; null when it has no leading number. */
export function parseVersion(label: string, tagPrefix?: string): ParsedVersion | null {
  const core = versionCore(label, tagPrefix)
  const m = /^(\d+(?:\.\d+)*)(.*)$/.exec(core)
  if (!m) return null
  const numbers = m[1]!.split('.').map((n) => Number.parseInt(n, 10))
  if (numbers.some((n) => !Number.isSafeInteger(n))) return null
  const rest = m[2]!.replace(/^[-._]/, '')
  const prerelease = rest === '' ? [] : rest.split(/[.-]/).filter((p) => p !== '')
  return { label, numbers, prerelease }
}

/**
 * A label names a prerelease when it carries a prerelease part (`-rc.1`, `b2`,
 * `.dev0`) or a prerelease word anywhere (`nightly`, `preview`).
 */
export function isPrerelease(label: string, tagPrefix?: string): boolean {
  const core = versionCore(label, tagPrefix)
  const parsed = parseVersion(label, tagPrefix)
  if (parsed && parsed.prerelease.length > 0) return true
  return PRERELEASE_WORDS.test(core)
}

function compareIdentifiers(a: string, b: string): number {
  const an = /^\d+$/.test(a)
  const bn = /^\d+$/.test(b)
  if (an && bn) return Number(a) - Number(b)
  if (an) return -1
  if (bn) return 1
  return a < b ? -1 : a > b ? 1 : 0
}

/** Order two lists of version numbers over their first `len` (missing numbers count as 0): -1, 0 or 1. */
export function compareNumbers(a: readonly number[], b: readonly number[], len = Math.max(a.length, b.length)): number {
  for (let i = 0; i < len; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return Math.sign(d)
  }
  return 0
}

/**
 * Order two labels; missing numeric components count as 0 (`1.2` == `1.2.0`),
 * a prerelease sorts before its release. Returns null when either label has no
 * number to compare, so callers never order opaque labels by guess.
 */
export function compareVersions(a: string, b: string, tagPrefix?: string): number | null {
  const pa = parseVersion(a, tagPrefix)
  const pb = parseVersion(b, tagPrefix)
  if (!pa || !pb) return null
  const d = compareNumbers(pa.numbers, pb.numbers)
  if (d !== 0) return d
  if (pa.prerelease.length === 0 && pb.prerelease.length === 0) return 0
  if (pa.prerelease.length === 0) return 1
  if (pb.prerelease.length === 0) return -1
  const plen = Math.max(pa.prerelease.length, pb.prerelease.length)
  for (let i = 0; i < plen; i++) {
    const x = pa.prerelease[i]
    const y = pb.prerelease[i]
    if (x === undefined) return -1
    if (y === undefined) return 1
    const d = compareIdentifiers(x, y)
    if (d !== 0) return Math.sign(d)
  }
  return 0
}

/** Does a tag belong to an app, given its optional tagPrefix / tagPattern? */
export function tagMatches(tag: string, opts: { tagPrefix?: string; tagPattern?: string }): boolean {
  if (opts.tagPrefix && !tag.startsWith(opts.tagPrefix)) return false
  if (opts.tagPattern && !tagPatternMatches(opts.tagPattern, tag)) return false
  return true
}

/** Which tags belong to an app (a monorepo tags several apps in one repository). */
export interface TagFilter {
  tagPrefix?: string
  tagPattern?: string
}

// Same rule as the published `latestVersion` (src/schema): one word, no control
// characters, bounded. A tag that breaks it can never be published, so it never wins.
const LABEL_MAX = 128
const LABEL_SHAPE = /^[^\p{Cc}\p{Cf}\p{Noncharacter_Code_Point}\s]+$/u

/** Can this tag be published as a version label at all? */
export function isVersionLabel(label: string): boolean {
  return label.length > 0 && label.length <= LABEL_MAX && LABEL_SHAPE.test(label)
}

/**
 * A tag is a stable version of the app when it belongs to the app, reads as a
 * version number, and names no prerelease. Opaque tags (`latest`, `nightly`) never are.
 */
export function isStableVersion(label: string, filter: TagFilter = {}): boolean {
  if (!isVersionLabel(label) || !tagMatches(label, filter)) return false
  if (parseVersion(label, filter.tagPrefix) === null) return false
  return !isPrerelease(label, filter.tagPrefix)
}

/**
 * The newest stable item by version order (not by date: a 2.11.x backport
 * published after 3.6.0 is not the latest). `items` should come newest-first
 * by date, so among equal versions (`v1.2` vs `1.2.0`) the most recent wins.
 */
export function newestStable<T>(items: readonly T[], labelOf: (item: T) => string, filter: TagFilter = {}): T | null {
  let best: T | null = null
  for (const item of items) {
    const label = labelOf(item)
    if (!isStableVersion(label, filter)) continue
    if (best === null || (compareVersions(label, labelOf(best), filter.tagPrefix) ?? 0) > 0) best = item
  }
  return best
}

/**
 * The stable items an admin crosses when updating from `previous` to `latest`:
 * every stable item above `previous` up to and including `latest`, oldest first,
 * at most `max` (the newest ones are kept). Without a usable `previous`, or when
 * `previous` is not below `latest`, just `[latest]`.
 */
export function stableBetween<T>(
  items: readonly T[],
  labelOf: (item: T) => string,
  previous: string | undefined,
  latest: T,
  max: number,
  filter: TagFilter = {}
): T[] {
  const latestLabel = labelOf(latest)
  const prefix = filter.tagPrefix
  const above = previous === undefined ? null : compareVersions(latestLabel, previous, prefix)
  if (above === null || above <= 0) return [latest]
  const seen = new Set<string>()
  const picked: T[] = []
  for (const item of items) {
    const label = labelOf(item)
    if (!isStableVersion(label, filter)) continue
    const key = versionKey(label, prefix)
    if (seen.has(key)) continue
    if ((compareVersions(label, previous!, prefix) ?? 0) <= 0) continue
    if ((compareVersions(label, latestLabel, prefix) ?? 1) > 0) continue
    seen.add(key)
    picked.push(item)
  }
  picked.sort((a, b) => compareVersions(labelOf(a), labelOf(b), prefix) ?? 0)
  return picked.slice(Math.max(0, picked.length - Math.max(1, max)))
}

// `v1.2` and `1.2.0` are one version: key on the numbers with trailing zeros dropped.
function versionKey(label: string, tagPrefix?: string): string {
  const p = parseVersion(label, tagPrefix)
  if (!p) return label
  const n = [...p.numbers]
  while (n.length > 1 && n[n.length - 1] === 0) n.pop()
  return n.join('.')
}

/** Two labels name the same release: equal as versions (`v1.2` and `1.2.0`), or the same label. */
export function sameVersion(a: string, b: string, tagPrefix?: string): boolean {
  return a === b || compareVersions(a, b, tagPrefix) === 0
}

/**
 * One order for every label upstream writes, newest first: by version where both read as numbers
 * (`v1.2.3`, `2026.5.1`, `server@1.2.3`, `release/1.2`, `1.2.3.4`), else by date (newest first,
 * undated last), and the label itself breaks ties so the order never depends on the input's.
 */
export function newestFirst(
  a: { version: string; date: string | null },
  b: { version: string; date: string | null },
  tagPrefix?: string
): number {
  const byVersion = compareVersions(a.version, b.version, tagPrefix)
  if (byVersion !== null && byVersion !== 0) return -byVersion
  if (byVersion === null && a.date !== b.date) {
    if (a.date === null) return 1
    if (b.date === null) return -1
    return a.date < b.date ? 1 : -1
  }
  return a.version < b.version ? -1 : a.version > b.version ? 1 : 0
}

/**
 * Is `next` the release right after `prev` in their numbering, so that no release can lie between them? One number
 * goes up by one and every number after it is 0: a patch (1.2.3 → 1.2.4), a minor (1.2.3 → 1.3.0) or a major
 * (1.2.3 → 2.0.0) step, and the same for any count of numbers (1.2.3.4 → 1.2.3.5; missing numbers count as 0).
 * Calendar labels follow the same rule, so a month step past a release (2026.5.3 → 2026.7.0) or a year's first
 * month (2025.12.1 → 2026.1.0) is not adjacent: we cannot know no release lay between. Whatever is not read as two
 * stable numbered labels (a prerelease, an opaque label) is never adjacent: unsure means a gap.
 */
export function isNextVersion(prev: string, next: string, tagPrefix?: string): boolean {
  const a = parseVersion(prev, tagPrefix)
  const b = parseVersion(next, tagPrefix)
  if (!a || !b || a.prerelease.length > 0 || b.prerelease.length > 0) return false
  const len = Math.max(a.numbers.length, b.numbers.length)
  for (let i = 0; i < len; i++) {
    const x = a.numbers[i] ?? 0
    const y = b.numbers[i] ?? 0
    if (x === y) continue
    if (y !== x + 1) return false
    for (let j = i + 1; j < len; j++) if ((b.numbers[j] ?? 0) !== 0) return false
    return true
  }
  return false
}

/**
 * One key per release for a version label: `v1.2`, `1.2.0` and `1.2` share it, `1.2.0-rc.1` does not; a label that
 * reads as no version is its own key.
 */
export function versionIdentity(label: string, tagPrefix?: string): string {
  const p = parseVersion(label, tagPrefix)
  if (!p) return `label:${label}`
  const n = [...p.numbers]
  while (n.length > 1 && n[n.length - 1] === 0) n.pop()
  return `${n.join('.')}${p.prerelease.length > 0 ? `-${p.prerelease.join('.')}` : ''}`
}
