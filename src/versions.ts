// Version labels as upstream writes them: `v1.2.3`, `1.2.3.4`, `server@1.2.3`,
// `release/1.2`, `2026.5.1`, `v2.0.0-rc.1+build.5`. We never trust one scheme:
// labels we cannot read as numbers stay opaque and are never "newer" by guess.

export interface ParsedVersion {
  /** The label as given. */
  label: string
  /** Numeric components, e.g. [1, 2, 3] or [2026, 5, 1]. */
  numbers: number[]
  /** Prerelease identifiers after `-` (or a bare suffix like `rc1`), empty for a stable release. */
  prerelease: string[]
}

const PRERELEASE_WORDS = /(?:^|[^a-z])(alpha|beta|rc|pre|preview|dev|nightly|canary|snapshot|next|insiders?|test|unstable)(?:[^a-z]|$)/i

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

/**
 * Order two labels; missing numeric components count as 0 (`1.2` == `1.2.0`),
 * a prerelease sorts before its release. Returns null when either label has no
 * number to compare, so callers never order opaque labels by guess.
 */
export function compareVersions(a: string, b: string, tagPrefix?: string): number | null {
  const pa = parseVersion(a, tagPrefix)
  const pb = parseVersion(b, tagPrefix)
  if (!pa || !pb) return null
  const len = Math.max(pa.numbers.length, pb.numbers.length)
  for (let i = 0; i < len; i++) {
    const d = (pa.numbers[i] ?? 0) - (pb.numbers[i] ?? 0)
    if (d !== 0) return Math.sign(d)
  }
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
  if (opts.tagPattern && !new RegExp(opts.tagPattern, 'u').test(tag)) return false
  return true
}
