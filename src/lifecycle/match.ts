// Which endoflife.date release cycle a version label belongs to. A wrong cycle
// is worse than none, so anything ambiguous or unreadable gives null.
import { parseVersion } from '../util/versions.js'

/** Cycles we can compare: dotted numbers such as `34`, `3.7`, `2026.5`. */
const NUMERIC_CYCLE = /^\d{1,9}(?:\.\d{1,9}){0,5}$/

/** Anything with a cycle name; endoflife.date calls the cycle label `name`. */
export interface CycleLike {
  name: string
}

/**
 * The most specific cycle whose numbers are a prefix of the version's numbers
 * (`34.0.3` → `34`; `9.6.24` → `9.6` even where `9` would also be listed;
 * `2026.05.1` → `2026.5`). Labels are normalised by src/versions.ts (prefix, `v`,
 * `name@`, `path/`, build metadata). Non-numeric cycles are never matched, and
 * two cycles that are numerically the same (`9.0`, `9.00`) give null.
 */
export function matchCycle(
  latestVersion: string,
  releases: readonly CycleLike[],
  opts: { tagPrefix?: string } = {}
): string | null {
  const parsed = parseVersion(latestVersion, opts.tagPrefix)
  if (!parsed) return null
  const version = parsed.numbers
  let best: { name: string; length: number } | null = null
  let tie = false
  for (const release of releases) {
    if (!NUMERIC_CYCLE.test(release.name)) continue
    const cycle = release.name.split('.').map(Number)
    if (cycle.length > version.length) continue
    if (!cycle.every((n, i) => n === version[i])) continue
    if (!best || cycle.length > best.length) {
      best = { name: release.name, length: cycle.length }
      tie = false
    } else if (cycle.length === best.length) {
      tie = true
    }
  }
  return best && !tie ? best.name : null
}
