// Decides, per app, which release facts this build publishes: what the refresh
// just read, or else the newest last-known-good (the previous snapshot or the
// catalog seed). An upstream failure therefore never drops an app.
import { quoted } from '../util/text.js'
import type { LoadedEntry } from '../catalog/load.js'
import { NOT_READ_VERSION, type AppRecord, type CatalogEntry } from '../schema/index.js'
import type { ReleaseFacts } from '../util/types.js'
import type { RefreshOutcome } from '../upstream/github/refresh.js'
import { compareVersions } from '../util/versions.js'

export interface AppFacts {
  slug: string
  file: string
  entry: CatalogEntry
  /** Facts to classify; null when a previous record is republished as it was. */
  facts: ReleaseFacts | null
  /** The previous published record, republished (stale or newer than the seed). */
  kept: AppRecord | null
  stale: boolean
  /** Why the facts are stale or pending, for logs and the page. */
  note: string | null
}

export function seedFacts(entry: CatalogEntry): ReleaseFacts | null {
  const r = entry.release
  if (!r) return null
  return {
    version: r.version,
    url: r.url,
    date: r.date ?? null,
    // A record holds facts only: its notes are read by a refresh or from a notes file, never from the catalog.
    notes: null,
    checked: r.checked,
    archived: entry.archived ?? false,
    crossed: []
  }
}

/**
 * The newest last-known-good for an app: the previous record when it was
 * checked later than the seed (a refresh published it), else the seed.
 */
export function lastKnownGood(
  item: LoadedEntry,
  previous: AppRecord | undefined,
  /** Upstream is down: the published record wins unless the seed is newer (the whole record, class included). */
  upstreamDown = false
): Pick<AppFacts, 'facts' | 'kept'> {
  const seed = seedFacts(item.entry)
  // A record published before any release was read loses to any seed.
  const read = publishedRelease(previous)
  if (
    previous &&
    (!seed || (read && (read.lastChecked > seed.checked || (upstreamDown && read.lastChecked === seed.checked))))
  )
    return { facts: null, kept: previous }
  return { facts: seed, kept: null }
}

/** The previous record when it names a release that was read; a record published unread names none. */
export function publishedRelease(previous: AppRecord | undefined): AppRecord | undefined {
  return previous && publishedUnread(previous) ? undefined : previous
}

/** A record notReadRecord wrote: no release read, `unknown` (or `unmaintained`, the catalog saying it is archived). */
export function publishedUnread(r: Pick<AppRecord, 'latestVersion' | 'safeToUpdate'>): boolean {
  return r.latestVersion === NOT_READ_VERSION && (r.safeToUpdate === 'unknown' || r.safeToUpdate === 'unmaintained')
}

/**
 * What an offline build publishes for a record with no release facts at all (no seed, never published, no notes
 * read): `unknown` (`unmaintained` when the catalog says it is archived), saying its releases are not read yet, so
 * a catalog that grows by records of names and images alone builds, and every app shows. `checked` is the day the build's other facts are as of (the index's "as of").
 */
export function notReadRecord(item: Pick<LoadedEntry, 'slug' | 'entry'>, checked: string): AppRecord {
  return {
    slug: item.slug,
    name: item.entry.name,
    repo: item.entry.repo,
    latestVersion: NOT_READ_VERSION,
    // The catalog's own word that the repository is archived is a fact without any release: the app is dead.
    ...(item.entry.archived
      ? {
          safeToUpdate: 'unmaintained' as const,
          rationale: `Unmaintained (archived): the catalog records ${item.entry.repo} as archived (read-only), so no further releases or fixes will come; its releases are not read yet.`
        }
      : {
          safeToUpdate: 'unknown' as const,
          rationale: `Assessment pending: the releases of ${item.entry.repo} are not read yet; the next refresh from GitHub (or a notes file with its releases) reads them.`
        }),
    changelogSummary: null,
    sourceUrl: `https://github.com/${item.entry.repo}/releases`,
    lastChecked: checked,
    successor: item.entry.successor ?? null,
    // The catalog's fields (and the addresses) are set again from the catalog when the record is built.
    url: `https://github.com/${item.entry.repo}`,
    badge: `https://github.com/${item.entry.repo}`,
    lifecycle: null
  }
}

/** The version an admin has installed at best: what we published last, else the seed. */
export function publishedVersion(item: LoadedEntry, previous: AppRecord | undefined): string | undefined {
  return publishedRelease(previous)?.latestVersion ?? item.entry.release?.version
}

export function offlineFacts(item: LoadedEntry, previous: AppRecord | undefined): AppFacts {
  return {
    slug: item.slug,
    file: item.file,
    entry: item.entry,
    ...lastKnownGood(item, previous),
    stale: false,
    note: null
  }
}

/** Merge one refresh outcome with last-known-good. */
export function refreshedFacts(
  item: LoadedEntry,
  previous: AppRecord | undefined,
  outcome: RefreshOutcome | undefined
): AppFacts {
  const base = { slug: item.slug, file: item.file, entry: item.entry }
  if (outcome?.status === 'fresh') {
    return { ...base, facts: outcome.facts, kept: null, stale: false, note: null }
  }
  if (outcome?.status === 'moved') {
    const lkg = lastKnownGood(item, previous)
    const facts = outcome.facts ?? lkg.facts ?? (lkg.kept ? factsOfRecord(lkg.kept) : null)
    return {
      ...base,
      facts: facts && { ...facts, movedTo: outcome.movedTo },
      kept: null,
      stale: outcome.facts === null,
      note: `moved to ${outcome.movedTo}`
    }
  }
  const reason = outcome ? outcome.reason : 'not refreshed'
  // Last-known-good is the whole published record (class, rationale, version), not the catalog's seed re-judged:
  // republishing the seed of the same day would turn an unmaintained app into unknown while upstream is down.
  const lkg = lastKnownGood(item, previous, true)
  // The repository answered that it is archived, but has no release we can read: unmaintained, a new fact. Checked
  // today when the catalog's seed did not say so: a record checked on the seed's day would lose to the seed (not
  // archived) in the next offline build (lastKnownGood), and the app would flip to unknown.
  if (outcome?.status === 'no-release' && outcome.archived) {
    if (lkg.facts)
      lkg.facts = { ...lkg.facts, archived: true, ...(lkg.facts.archived ? {} : { checked: outcome.checked }) }
    else if (lkg.kept && lkg.kept.safeToUpdate !== 'unmaintained')
      return {
        ...base,
        facts: { ...factsOfRecord(lkg.kept), archived: true, checked: outcome.checked },
        kept: null,
        stale: true,
        note: reason
      }
  }
  return { ...base, ...lkg, stale: true, note: reason }
}

/** Facts recovered from a published record (no notes: they are not published). */
export function factsOfRecord(r: AppRecord): ReleaseFacts {
  return {
    version: r.latestVersion,
    url: r.sourceUrl,
    date: null,
    notes: null,
    checked: r.lastChecked,
    archived: r.safeToUpdate === 'unmaintained',
    crossed: []
  }
}

/**
 * Upstream's newest release is older than the version published before: its newest release was deleted (or
 * unflagged, or retagged). Never taken back in silence: the published record stands, marked stale with why (the
 * run's warnings and status.json name it), and an admin sees both versions. Publishing the older release instead
 * would tell everyone on the newer one that their version does not exist, and would move the record back and forth
 * if the release returns; the stale mark keeps the doubt visible until upstream publishes past it.
 */
export function notBackwards(app: AppFacts, previous: AppRecord | undefined): AppFacts {
  const read = publishedRelease(previous)
  if (!app.facts || app.stale || !read || app.facts.movedTo) return app
  const was = read.latestVersion
  if ((compareVersions(app.facts.version, was, app.entry.tagPrefix) ?? 0) >= 0) return app
  return {
    ...app,
    facts: null,
    kept: read,
    stale: true,
    note: `upstream's newest release ${quoted(app.facts.version)} is older than the published ${quoted(was)} (was it deleted?); the published record is kept`
  }
}
