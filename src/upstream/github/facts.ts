// Turn what GitHub says about one repository (from GraphQL or the REST fallback)
// into the ReleaseFacts a build publishes. Pure: no I/O, the clock comes in.
import { utcDay } from '../../util/dates.js'
import { HISTORY_MAX, LIMITS } from '../../schema/index.js'
import { safeHttpUrl } from '../../util/http-url.js'
import { redact } from '../../util/redact.js'
import { quoted, stripUnsafe } from '../../util/text.js'
import type { ReleaseFacts, UnreadSpan } from '../../util/types.js'
import {
  compareVersions,
  isStableVersion,
  newestStable,
  sameVersion,
  stableBetween,
  type TagFilter
} from '../../util/versions.js'

/** One release as either API reports it, newest first by creation. */
export interface RepoRelease {
  tag: string
  url: string | null
  draft: boolean
  prerelease: boolean
  publishedAt: string | null
  createdAt: string | null
  notes: string | null
}

/** One git tag; `date` is the tagged commit's (or the annotated tag's) date when known. */
export interface RepoTag {
  name: string
  date: string | null
}

/** A repository as read from GitHub, already reduced to what the facts need. */
export interface RepoSnapshot {
  /** `owner/name` as GitHub reports it now (differs from the catalog after a rename). */
  nameWithOwner: string
  /** The repository's web page, e.g. https://github.com/owner/name. */
  url: string
  archived: boolean
  releases: RepoRelease[]
  tags: RepoTag[]
  /**
   * Older releases lie beyond those read: the GraphQL cursor to read on from, or null when none can be given (REST
   * read to its cap). Absent: `releases` holds every release.
   */
  releasesAfter?: string | null
  /** Older tags lie beyond those read. */
  moreTags?: boolean
}

export interface FactsTarget extends TagFilter {
  repo: string
  previousVersion?: string
  /**
   * The app's judged history in the previous snapshot was lost (missing, unreadable, another app's): read back as
   * many releases as the history keeps, to judge them again.
   */
  rebuildHistory?: boolean
  /**
   * Versions of the history that a later model of a list judged: those this read holds (below the oldest crossed)
   * are given again, so that the first model is asked about them (pipeline/judge-models.ts).
   */
  again?: readonly string[]
}

/** Releases read for the history of an app never published before, besides the latest. */
export const BACKFILL = 5

function gapOf(gap: { after: string; before: string } | undefined): { gap?: { after: string; before: string } } {
  return gap ? { gap } : {}
}

export type FactsResult = { kind: 'facts'; facts: ReleaseFacts } | { kind: 'none'; reason: string }

/**
 * Upstream notes are hostile and unbounded: normalise line ends, remove controls (but newline and tab), bidi
 * controls and noncharacters, and cap at LIMITS.notes characters.
 */
export function capNotes(notes: string | null | undefined): string {
  if (!notes) return ''
  let s = stripUnsafe(notes.replace(/\r\n?/g, '\n'), true)
  if (s.length > LIMITS.notes) {
    s = s.slice(0, LIMITS.notes)
    // Never leave half of a surrogate pair at the cut.
    const last = s.charCodeAt(s.length - 1)
    if (last >= 0xd800 && last <= 0xdbff) s = s.slice(0, -1)
  }
  return s
}

/** Cap a message from upstream (error texts end up in logs and rationales); GitHub-token shapes are redacted. */
export function capReason(text: string): string {
  const s = redact(text.replace(/[\p{Cc}\p{Cf}\p{Noncharacter_Code_Point}]+/gu, ' ').trim())
  return s.length > LIMITS.reason ? `${s.slice(0, LIMITS.reason - 1)}…` : s
}

function day(timestamp: string | null | undefined): string | null {
  if (!timestamp) return null
  const d = new Date(timestamp)
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10)
}

// Tags may contain `/` (`release/1.2`): keep the slashes, encode each segment.
function pathOf(tag: string): string {
  return tag.split('/').map(encodeURIComponent).join('/')
}

/**
 * The page of a tag under a repository's page (`<repo>/releases/tag/<tag>`, or `<repo>/tree/<tag>`), or null when
 * the tag could make the address leave it: an empty, `.` or `..` segment, which a URL resolves against the path
 * (`../../other/repo`). Git refuses such tag names; upstream text that claims one is refused too.
 */
export function tagPage(
  repoPage: string,
  tag: string,
  kind: 'releases/tag' | 'tree' | '' = 'releases/tag'
): string | null {
  if (tag.split('/').some((s) => s === '' || s === '.' || s === '..')) return null
  const base = `${repoPage.replace(/\/+$/, '')}/${kind ? `${kind}/` : ''}`
  const url = safeHttpUrl(`${base}${pathOf(tag)}`)
  return url !== null && url.startsWith(base) ? url : null
}

function repoPage(snapshot: RepoSnapshot): string {
  return safeHttpUrl(snapshot.url) ?? `https://github.com/${snapshot.nameWithOwner}`
}

/** The newest stable release matching the app, when its label is above the version published before. */
function newerThanPublished(snapshot: RepoSnapshot, target: FactsTarget): RepoRelease | null {
  if (target.previousVersion === undefined) return null
  const filter: TagFilter = { tagPrefix: target.tagPrefix, tagPattern: target.tagPattern }
  const latest = newestStable(
    snapshot.releases.filter((r) => !r.draft && !r.prerelease),
    (r) => r.tag,
    filter
  )
  if (!latest) return null
  return (compareVersions(latest.tag, target.previousVersion, filter.tagPrefix) ?? 0) > 0 ? latest : null
}

/** Is the version published before among `labels`? (The read reached back to it.) */
function meets(labels: readonly string[], target: FactsTarget): boolean {
  return labels.some((l) => sameVersion(l, target.previousVersion!, target.tagPrefix))
}

/**
 * Should the refresh read older releases of this app? Only when a newer release came out, the version published
 * before is not among the releases read, and GitHub has more: the span between is not read yet.
 */
export function wantsOlder(snapshot: RepoSnapshot, target: FactsTarget): boolean {
  if (snapshot.releasesAfter === undefined) return false
  if (target.rebuildHistory) {
    const filter: TagFilter = { tagPrefix: target.tagPrefix, tagPattern: target.tagPattern }
    const stable = snapshot.releases.filter((r) => !r.draft && !r.prerelease && isStableVersion(r.tag, filter))
    if (stable.length > 0 && stable.length < HISTORY_MAX) return true
  }
  if (!newerThanPublished(snapshot, target)) return false
  return !meets(
    snapshot.releases.filter((r) => !r.draft).map((r) => r.tag),
    target
  )
}

/**
 * The span a read did not reach: crossing from the version published before to the latest, when that version is not
 * among what was read and more lay beyond (`more`), or when more releases lie between than `crossed` keeps.
 */
function unreadSpan(
  labels: readonly string[],
  more: boolean,
  target: FactsTarget,
  between: number,
  crossed: readonly { version: string }[],
  latest: string
): { after: string; before: string } | undefined {
  const previous = target.previousVersion
  if (previous === undefined || (compareVersions(latest, previous, target.tagPrefix) ?? 0) <= 0) return undefined
  if (!(more && !meets(labels, target)) && between <= crossed.length) return undefined
  return { after: previous, before: crossed[0]?.version ?? latest }
}

function unreadOf(spans: UnreadSpan[]): { unread?: UnreadSpan[] } {
  return spans.length > 0 ? { unread: spans } : {}
}

/**
 * Releases GitHub flags as prereleases but labelled as stable versions (`v2.0.0`), between the version published
 * before and the latest: their notes are not read (a flagged release is never the latest nor crossed), yet an admin
 * updating by version crosses them, so each is a span not read, between the releases read around it. Flagged
 * releases below the oldest release crossed lie in the read's own gap (unreadSpan), if any.
 */
function flaggedSpans(
  releases: readonly RepoRelease[],
  stable: readonly RepoRelease[],
  crossed: readonly RepoRelease[],
  target: FactsTarget,
  /** The releases between the version published before and the oldest crossed were not read: a gap already. */
  gapBelow: boolean
): UnreadSpan[] {
  const previous = target.previousVersion
  const filter: TagFilter = { tagPrefix: target.tagPrefix, tagPattern: target.tagPattern }
  const prefix = filter.tagPrefix
  const latest = crossed[crossed.length - 1]
  if (previous === undefined || !latest || (compareVersions(latest.tag, previous, prefix) ?? 0) <= 0) return []
  const cmp = (a: string, b: string) => compareVersions(a, b, prefix) ?? 0
  const oldest = crossed[0]!.tag
  const spans = new Map<string, UnreadSpan & { labels: string[] }>()
  for (const r of releases) {
    if (r.draft || !r.prerelease || !isStableVersion(r.tag, filter)) continue
    if (cmp(r.tag, previous) <= 0 || cmp(r.tag, latest.tag) >= 0) continue
    if (stable.some((s) => sameVersion(s.tag, r.tag, prefix))) continue
    if (gapBelow && cmp(r.tag, oldest) < 0) continue
    // The releases read around it: the version published before is read below the oldest crossed.
    const below = [previous, ...crossed.map((c) => c.tag)].filter((l) => cmp(l, r.tag) < 0).at(-1)!
    const before = crossed.find((c) => cmp(c.tag, r.tag) > 0)!.tag
    const key = `${below}\n${before}`
    const span = spans.get(key) ?? { after: below, before, crossed: true, why: '', labels: [] }
    span.labels.push(r.tag)
    spans.set(key, span)
  }
  return [...spans.values()].map(({ labels, ...s }) => ({
    ...s,
    why: `${labels
      .slice(0, 5)
      .map((l) => quoted(l))
      .join(
        ', '
      )}${labels.length > 5 ? ` and ${labels.length - 5} more` : ''} flagged as prerelease but labelled as a stable version`
  }))
}

/**
 * The facts for one app: the newest stable release matching the app's tags
 * (drafts, prereleases by flag and by label are never it), or, when the
 * repository publishes no such release, the newest stable tag (fromTags).
 * `crossed` holds every stable release above `previousVersion` up to the
 * latest, oldest first, at most `maxCrossed`; just the latest when
 * `previousVersion` is absent or not below it.
 */
export function factsFromSnapshot(
  snapshot: RepoSnapshot,
  target: FactsTarget,
  opts: {
    now: Date
    maxCrossed: number
    /** Releases below the latest read for a new app's history. */ backfill?: number
  }
): FactsResult {
  const filter: TagFilter = { tagPrefix: target.tagPrefix, tagPattern: target.tagPattern }
  const checked = utcDay(opts.now)
  const page = repoPage(snapshot)

  const stable = snapshot.releases.filter((r) => !r.draft && !r.prerelease)
  const latest = newestStable(stable, (r) => r.tag, filter)
  if (latest) {
    const between = stableBetween(stable, (r) => r.tag, target.previousVersion, latest, Infinity, filter)
    const crossed = between.slice(Math.max(0, between.length - Math.max(1, opts.maxCrossed)))
    const note = (r: RepoRelease) => ({
      version: r.tag,
      notes: capNotes(r.notes),
      url: safeHttpUrl(r.url) ?? tagPage(page, r.tag) ?? `${page}/releases`,
      date: day(r.publishedAt ?? r.createdAt)
    })
    // An app never published has no history yet: the releases of this answer below the latest start it. One whose
    // history was lost starts it again from as many as the history keeps.
    const oldest = crossed[0]?.tag ?? latest.tag
    const earlier =
      target.previousVersion === undefined || target.rebuildHistory
        ? stableBetween(
            stable,
            (r) => r.tag,
            '0',
            latest,
            target.rebuildHistory ? HISTORY_MAX : (opts.backfill ?? BACKFILL) + 1,
            filter
          ).filter((r) => (compareVersions(r.tag, oldest, filter.tagPrefix) ?? 0) < 0)
        : []
    // Read already (the window of newest releases), so asking the first model about them costs no request here.
    const judged = [...crossed, ...earlier]
    const again = (target.again ?? []).length
      ? stable
          .filter(
            (r) =>
              target.again!.some((v) => sameVersion(v, r.tag, filter.tagPrefix)) &&
              (compareVersions(r.tag, oldest, filter.tagPrefix) ?? 0) < 0 &&
              !judged.some((j) => sameVersion(j.tag, r.tag, filter.tagPrefix))
          )
          .sort((a, b) => compareVersions(a.tag, b.tag, filter.tagPrefix) ?? 0)
      : []
    const gap = unreadSpan(
      snapshot.releases.filter((r) => !r.draft).map((r) => r.tag),
      snapshot.releasesAfter !== undefined,
      target,
      between.length,
      crossed.map((r) => ({ version: r.tag })),
      latest.tag
    )
    return {
      kind: 'facts',
      facts: {
        version: latest.tag,
        url: safeHttpUrl(latest.url) ?? tagPage(page, latest.tag) ?? `${page}/releases`,
        date: day(latest.publishedAt ?? latest.createdAt),
        notes: capNotes(latest.notes),
        checked,
        archived: snapshot.archived,
        crossed: crossed.map(note),
        ...(earlier.length > 0 ? { earlier: earlier.map(note) } : {}),
        ...(again.length > 0 ? { again: again.map(note) } : {}),
        ...unreadOf(flaggedSpans(snapshot.releases, stable, crossed, target, gap !== undefined)),
        ...gapOf(gap)
      }
    }
  }

  const tag = newestStable(snapshot.tags, (t) => t.name, filter)
  if (tag) {
    const between = stableBetween(snapshot.tags, (t) => t.name, target.previousVersion, tag, Infinity, filter)
    const crossed = between.slice(Math.max(0, between.length - Math.max(1, opts.maxCrossed)))
    return {
      kind: 'facts',
      facts: {
        version: tag.name,
        url: tagPage(page, tag.name, 'tree') ?? page,
        date: day(tag.date),
        notes: '',
        checked,
        archived: snapshot.archived,
        crossed: crossed.map((t) => ({
          version: t.name,
          notes: '',
          url: tagPage(page, t.name, 'tree') ?? page,
          date: day(t.date)
        })),
        fromTags: true,
        ...gapOf(
          unreadSpan(
            snapshot.tags.map((t) => t.name),
            snapshot.moreTags === true,
            target,
            between.length,
            crossed.map((t) => ({ version: t.name })),
            tag.name
          )
        )
      }
    }
  }

  const drafts = snapshot.releases.filter((r) => r.draft).length
  const pre = snapshot.releases.filter((r) => !r.draft && r.prerelease).length
  const scope = target.tagPrefix || target.tagPattern ? ' matching this app' : ''
  const reason =
    snapshot.releases.length === 0
      ? `no releases and no stable version tag${scope}`
      : `no stable release or stable version tag${scope} among the ${snapshot.releases.length} most recent releases (${pre} prerelease, ${drafts} draft)`
  return { kind: 'none', reason }
}
