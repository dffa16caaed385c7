// "I run 2.1.3: is it safe to go to the latest?" The one answer, used by the app page and by
// `updatesafe check`: the most severe class across every judged release after the running
// version up to the latest. A version the history cannot place is unknown, never safe.
import { LIMITS, type Classification, type HistoryEntry } from '../schema/index.js'
import { gapLabel, lineWords, placeLabel, placeWords, spanOf, type Place } from '../check/placement.js'
import { compareVersions, parseVersion, sameVersion } from '../util/versions.js'
import { clip, safeLabel } from './text.js'

/** Severity order of the classes; the same order the classifier uses across releases. */
export const SEVERITY: Record<Classification, number> = {
  safe: 1,
  unknown: 2,
  caution: 3,
  breaking: 4,
  unmaintained: 5
}

export interface UpgradeVerdict {
  running: string
  latest: string
  safeToUpdate: Classification
  rationale: string
  /** The release that decided, null when none did (nothing crossed, or the version could not be placed). */
  decidedBy: HistoryEntry | null
  /** The judged releases crossed, newest first. */
  crossed: HistoryEntry[]
  /** Every breaking release crossed is an urgent fix (there is at least one): a gate may let it through. */
  urgentOnly: boolean
}

export interface UpgradeOptions {
  /** The app's latest version (the record's latestVersion); default: the newest judged release. */
  latest?: string
  tagPrefix?: string
  /** Spans of releases never read (releases.json `gaps`): an update across one is unknown, never safe. */
  gaps?: readonly ReleaseGap[]
}

/** Releases above `after` and below `before` were never read. */
export interface ReleaseGap {
  after: string
  before: string
}

/** The gaps an update from `running` to `latest` crosses; one it cannot place against counts as crossed. */
export function gapsCrossed(
  gaps: readonly ReleaseGap[],
  running: string,
  latest: string,
  tagPrefix?: string
): ReleaseGap[] {
  return gaps.filter(
    (g) =>
      (compareVersions(running, g.before, tagPrefix) ?? -1) < 0 &&
      (compareVersions(latest, g.after, tagPrefix) ?? 1) > 0
  )
}

/** "the releases after 1.0 and before 1.9 were not read", for each gap. */
export function unreadWords(gaps: readonly ReleaseGap[]): string {
  const spans = gaps.map((g) => `after ${safeLabel(g.after)} and before ${safeLabel(g.before)}`)
  return `the releases ${spans.join(', and those ')} were never read`
}

const CLASS_WORD: Record<Classification, string> = {
  safe: 'safe',
  caution: 'caution',
  breaking: 'breaking',
  unknown: 'unknown',
  unmaintained: 'unmaintained'
}

/** `history` newest first (as releases.json publishes it); `running` and `latest` are labels, placed exactly. */
export function verdictFrom(
  history: readonly HistoryEntry[],
  running: string,
  opts: UpgradeOptions = {}
): UpgradeVerdict {
  const latest = opts.latest ?? history[0]?.version ?? running
  const prefix = opts.tagPrefix === undefined ? {} : { tagPrefix: opts.tagPrefix }
  return verdictOver(history, placeLabel(history, running, prefix), placeLabel(history, latest, prefix), {
    ...opts,
    running,
    latest
  })
}

/** A place as words: a floating tag names the release it stands for. */
function named(p: Place, shown: string): string {
  if (p.floating === null) return safeLabel(shown)
  // `postgres:16.4` reads as a line, but one whose newest release is 16.4 itself needs no words about it.
  if (p.at === 'release' && sameVersion(p.entry.version, shown)) return safeLabel(shown)
  const line = lineWords(p.floating)
  return p.at === 'release'
    ? `${safeLabel(shown)} (the newest judged release of the ${line} line, ${safeLabel(placeWords(p))})`
    : p.line === null
      ? `${safeLabel(shown)} (the ${line} line, whose newest release ${safeLabel(p.label)} is not judged)`
      : `${safeLabel(shown)} (the ${line} line, of which no release is judged)`
}

/**
 * The verdict of an update between two places in `history` (placement.ts places them): `running` and `latest` are
 * what the update is shown as (an image's tags, or labels).
 */
export function verdictOver(
  history: readonly HistoryEntry[],
  from: Place,
  to: Place,
  opts: UpgradeOptions & { running: string; latest: string }
): UpgradeVerdict {
  const { running, latest } = opts
  const shown = { running: named(from, running), latest: named(to, latest) }
  const none = (rationale: string, crossed: HistoryEntry[] = []): UpgradeVerdict => ({
    running,
    latest,
    safeToUpdate: 'unknown',
    rationale: clip(rationale, LIMITS.rationale),
    decidedBy: null,
    crossed,
    urgentOnly: false
  })
  if (history.length === 0)
    return none(
      // Running the catalog's latest is no update, but its releases are not read: a newer one may exist.
      sameVersion(running, latest, opts.tagPrefix)
        ? `No release of this app is judged yet: ${shown.running} is the latest release the catalog knows, but its releases are not read, so whether a newer one exists, and is safe, is not known.`
        : `No release of this app is judged yet: the update from ${shown.running} to ${shown.latest} is not judged.`
    )
  const span = spanOf(history, from, to, opts.tagPrefix)
  if (span.order === 'same')
    return {
      ...none(
        sameVersion(running, latest, opts.tagPrefix)
          ? `${shown.running} is the latest release: there is nothing to update.`
          : `${shown.running} and ${shown.latest} name the same release: there is nothing to update.`
      ),
      safeToUpdate: 'safe'
    }
  if (span.order === 'unplaced')
    return none(
      `${shown.running} cannot be placed among the releases of this app (${span.why}): the update to ${shown.latest} is not judged.`
    )
  if (span.order === 'down')
    return none(`${shown.running} is newer than the latest release ${shown.latest}: the update is not judged.`)
  const crossed = span.crossed
  const decided = weightiest(crossed)
  const urgentOnly =
    crossed.some((e) => e.safeToUpdate === 'breaking') &&
    crossed.every((e) => e.safeToUpdate !== 'breaking' || e.breakingKind === 'urgent')
  const among = (what: string) =>
    decided
      ? ` Among ${what}, the most severe is ${CLASS_WORD[decided.safeToUpdate]} (${safeLabel(decided.version)}).`
      : ''
  const unknownWith = (rationale: string) => ({ ...none(rationale, crossed), decidedBy: decided, urgentOnly })
  if (!span.reaches) {
    const oldest = history[history.length - 1]!
    return unknownWith(
      to.at === 'release' && to.entry === oldest
        ? `${shown.running} is older than every judged release but ${shown.latest} itself: the releases in between are not known.`
        : `${shown.running} is older than the releases judged for this app (the oldest is ${safeLabel(oldest.version)}): the releases in between are not known.${among('those judged')}`
    )
  }
  const unread = gapsCrossed(opts.gaps ?? [], gapLabel(from), gapLabel(to), opts.tagPrefix)
  if (unread.length > 0)
    return unknownWith(
      `Updating from ${shown.running} to ${shown.latest} is not known to be safe: ${unreadWords(unread)}, so they are not judged.${among('the releases judged')}`
    )
  if (to.at !== 'release')
    return unknownWith(
      `The latest release ${shown.latest} has not been judged yet, so the update from ${shown.running} is not known to be safe.${among('the releases judged')}`
    )
  if (!decided) return none(`No judged release lies between ${shown.running} and ${shown.latest}.`)
  const count = crossed.length === 1 ? 'one release' : `${crossed.length} releases`
  return {
    running,
    latest,
    safeToUpdate: decided.safeToUpdate,
    rationale: clip(
      `Updating from ${shown.running} to ${shown.latest} crosses ${count}; the most severe decides, ${safeLabel(decided.version)}: ${decided.rationale}`,
      LIMITS.rationale
    ),
    decidedBy: decided,
    crossed,
    urgentOnly
  }
}

/** Required steps weigh more than urgent fixes. */
const KIND: Record<string, number> = { required: 2, urgent: 1 }

/**
 * How big a step a release is by its numbers: 0 for a major (3.0.0), 1 for a minor (3.14.0, or 0.15.0), 2 for a
 * patch; a prerelease or a label that reads as no version weighs least.
 */
function stepOf(e: HistoryEntry): number {
  const p = parseVersion(e.version) ?? parseVersion(e.tag)
  if (!p || p.prerelease.length > 0) return Infinity
  let last = 0
  p.numbers.forEach((n, i) => {
    if (n !== 0) last = i
  })
  return last
}

/**
 * The release a user most needs to read among those crossed: the most severe; among those, a required step before
 * an urgent fix, then a major before a minor before a patch (2.54.1 → 3.14.0 quotes 3.0.0, not a small
 * change in 3.14.0); among equals the newest (history is newest first).
 */
export function weightiest(entries: readonly HistoryEntry[]): HistoryEntry | null {
  let best: HistoryEntry | null = null
  const key = (e: HistoryEntry) => [SEVERITY[e.safeToUpdate], KIND[e.breakingKind ?? ''] ?? 0, -stepOf(e)]
  for (const e of entries) {
    if (!best) {
      best = e
      continue
    }
    const a = key(e)
    const b = key(best)
    const i = a.findIndex((x, j) => x !== b[j])
    if (i >= 0 && a[i]! > b[i]!) best = e
  }
  return best
}
