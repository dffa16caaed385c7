// "I run 2.1.3: is it safe to go to the latest?" The one answer, used by the app page and by
// `updatesafe check`: the most severe class across every judged release after the running
// version up to the latest. A version the history cannot place is unknown, never safe.
import { LIMITS, type Classification, type HistoryEntry } from '../schema/index.js'
import { compareVersions, sameVersion } from '../util/versions.js'
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

/** `history` newest first (as releases.json publishes it). */
export function verdictFrom(
  history: readonly HistoryEntry[],
  running: string,
  opts: UpgradeOptions = {}
): UpgradeVerdict {
  const prefix = opts.tagPrefix
  const latest = opts.latest ?? history[0]?.version ?? running
  const shown = { running: safeLabel(running), latest: safeLabel(latest) }
  const none = (rationale: string, crossed: HistoryEntry[] = []): UpgradeVerdict => ({
    running,
    latest,
    safeToUpdate: 'unknown',
    rationale: clip(rationale, LIMITS.rationale),
    decidedBy: null,
    crossed,
    urgentOnly: false
  })
  const matches = (e: HistoryEntry, label: string) =>
    sameVersion(e.version, label, prefix) || sameVersion(e.tag, label, prefix)
  const latestEntry = history.find((e) => matches(e, latest))
  if (sameVersion(running, latest, prefix) || (latestEntry !== undefined && matches(latestEntry, running)))
    return { ...none(`${shown.running} is the latest release: there is nothing to update.`), safeToUpdate: 'safe' }
  const toLatest = compareVersions(running, latest, prefix)
  const known = history.find((e) => matches(e, running))
  if (!known && toLatest === null)
    return none(
      `${shown.running} cannot be placed among the releases of this app (its label does not read as a version): the update to ${shown.latest} is not judged.`
    )
  if (toLatest !== null && toLatest > 0)
    return none(`${shown.running} is newer than the latest release ${shown.latest}: the update is not judged.`)
  // The releases after the running one, up to and including the latest.
  const crossed = history.filter((e) => {
    if (matches(e, running)) return false
    const afterRunning = known
      ? compareVersions(e.version, known.version, prefix)
      : (compareVersions(e.version, running, prefix) ?? compareVersions(e.tag, running, prefix))
    const upToLatest = compareVersions(e.version, latest, prefix)
    return afterRunning !== null && afterRunning > 0 && (upToLatest === null || upToLatest <= 0)
  })
  const oldest = history[history.length - 1]
  const reaches =
    known !== undefined || (oldest !== undefined && (compareVersions(running, oldest.version, prefix) ?? -1) >= 0)
  const decided = mostSevere(crossed)
  const urgentOnly =
    crossed.some((e) => e.safeToUpdate === 'breaking') &&
    crossed.every((e) => e.safeToUpdate !== 'breaking' || e.breakingKind === 'urgent')
  if (!reaches)
    return {
      ...none(
        `${shown.running} is older than the releases judged for this app (the oldest is ${safeLabel(oldest?.version ?? latest)}): the releases in between are not known.${decided ? ` Among those judged, the most severe is ${CLASS_WORD[decided.safeToUpdate]} (${safeLabel(decided.version)}).` : ''}`,
        crossed
      ),
      decidedBy: decided,
      urgentOnly
    }
  const unread = gapsCrossed(opts.gaps ?? [], known?.version ?? running, latest, prefix)
  if (unread.length > 0)
    return {
      ...none(
        `Updating from ${shown.running} to ${shown.latest} is not known to be safe: ${unreadWords(unread)}, so they are not judged.${decided ? ` Among the releases judged, the most severe is ${CLASS_WORD[decided.safeToUpdate]} (${safeLabel(decided.version)}).` : ''}`,
        crossed
      ),
      decidedBy: decided,
      urgentOnly
    }
  if (!latestEntry)
    return {
      ...none(
        `The latest release ${shown.latest} has not been judged yet, so the update from ${shown.running} is not known to be safe.${decided ? ` Among the releases judged, the most severe is ${CLASS_WORD[decided.safeToUpdate]} (${safeLabel(decided.version)}).` : ''}`,
        crossed
      ),
      decidedBy: decided,
      urgentOnly
    }
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

/** The most severe release; among equally severe ones the newest (history is newest first). */
function mostSevere(entries: readonly HistoryEntry[]): HistoryEntry | null {
  let best: HistoryEntry | null = null
  for (const e of entries) if (!best || SEVERITY[e.safeToUpdate] > SEVERITY[best.safeToUpdate]) best = e
  return best
}
