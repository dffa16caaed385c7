// The per-release history of each app: every release judged, kept from one snapshot
// to the next (api/v1/apps/<slug>/releases.json is read back as the previous history),
// so nothing judged is lost and anyone can ask for the verdict from the version they run.
import { quoted } from '../util/text.js'
import { isDeepStrictEqual } from 'node:util'
import { classifyReleases, notesForModel, PROMPT_VERSION, SEVERITY, type ReleaseVerdict } from '../classify/index.js'
import {
  GAPS_MAX,
  HISTORY_MAX,
  LIMITS,
  RELEASES_SCHEMA_ID,
  type HistoryEntry,
  type HistoryGap,
  type LatestVerdict,
  type Override,
  type ReleasesDoc
} from '../schema/index.js'
import { sha256 } from '../util/digest.js'
import type { Logger, ReleaseNotes } from '../util/types.js'
import { compareVersions, isVersionLabel, newestFirst, sameVersion } from '../util/versions.js'

/**
 * What a release's verdict is computed from, as a short key: the classifier (its model and judging code's
 * revision), the curated override that applies to this very release (none: zeros) and the notes (none:
 * zeros). A verdict is reused only when the key is the same; a new model or judging code, an override
 * added, changed or gone, or edited notes judge again.
 */
export function basisOf(model: string, override: Override | undefined, version: string, notes: string | null): string {
  const o =
    override && override.version === version
      ? sha256(`${override.class}\n${override.version}\n${override.reason}`).slice(0, 8)
      : '0'.repeat(8)
  const n = notes === null ? '0'.repeat(12) : notesDigest(notes)
  return `${model}.${o}.${n}`
}

/** The digest of a release's notes kept in a basis and beside a model's answer. */
export function notesDigest(notes: string): string {
  return sha256(notes).slice(0, 12)
}

/**
 * The first part of a verdict's basis for a judge: the classifier's digest for the rules; for a model, a digest of
 * the classifier (its floor), the model id and the prompt's version. A release judged by the rules while a model
 * is the judge has another basis, so it is judged again (and the model asked) on a later run.
 */
export function judgeBasis(classifier: string, judge: string): string {
  return judge === 'rules' ? classifier : sha256(`${classifier}\n${judge}\n${PROMPT_VERSION}`).slice(0, 8)
}

/** The git tag a release page names (`…/releases/tag/<tag>`), else the version label. */
export function tagOf(version: string, url: string): string {
  const m = /\/releases\/tag\/([^?#]+)$/.exec(url)
  if (!m) return version
  let tag: string
  try {
    tag = decodeURIComponent(m[1]!)
  } catch {
    return version
  }
  return isVersionLabel(tag) && tag.length <= LIMITS.version ? tag : version
}

/** Where a judged release lives and when it came out. */
export interface ReleasePlace {
  url: string
  date: string | null
  basis: string
  /** notesDigest of the release's notes, kept beside a model's answer. */
  notes: string
  /** The models whose answers for these notes and the prompt could not be used (judge-models.ts), in list order. */
  unusable?: readonly string[] | undefined
}

/** A history entry from one release's verdict; a curated override for this release wins, as on the record. */
export function historyEntry(v: ReleaseVerdict, place: ReleasePlace, override: Override | undefined): HistoryEntry {
  const base: HistoryEntry = {
    version: v.version,
    tag: tagOf(v.version, place.url),
    date: place.date,
    url: place.url,
    safeToUpdate: v.safeToUpdate,
    rationale: v.rationale,
    evidence: v.evidence,
    quote: v.quote,
    security: v.security,
    breakingKind: v.breakingKind,
    basis: place.basis,
    judge: v.judge,
    rules: v.rules,
    model: v.model
      ? {
          id: v.model.id,
          prompt: v.model.prompt,
          notes: place.notes,
          class: v.model.class,
          breakingKind: v.model.breakingKind,
          line: v.model.line,
          reason: v.model.reason
        }
      : null,
    ...(place.unusable?.length
      ? { unusable: { models: [...place.unusable], prompt: PROMPT_VERSION, notes: place.notes } }
      : {}),
    ...(v.injection ? { injection: true as const } : {})
  }
  if (!override || override.version !== v.version) return base
  const cls = override.class
  return {
    ...base,
    safeToUpdate: cls,
    rationale:
      `Curated override for ${v.version}: ${override.reason.trim()} The rules alone say: ${v.safeToUpdate}.`.slice(
        0,
        LIMITS.rationale
      ),
    evidence: 'a curator read the release and decided its class',
    breakingKind: cls === 'breaking' ? (v.breakingKind ?? 'required') : null
  }
}

/** The fields of a history entry that say what its verdict is. */
const VERDICT_FIELDS = [
  'safeToUpdate',
  'rationale',
  'evidence',
  'quote',
  'security',
  'breakingKind',
  'rules',
  'injection'
] as const

/**
 * Does a verdict of the previous snapshot, about to be republished, still follow from the notes this build holds?
 * The previous snapshot is input like any other: a hand edit (breaking made safe) must not outlive the notes that
 * contradict it. So the release is judged again, by the rules, with the model's answer the entry keeps when a model
 * judged it (its floor applied by this program again, so a model-judged entry is never less cautious than the
 * rules allow), and its verdict fields must be what the entry says; the record republished with it must be at
 * least as cautious, unless a curated override for this release decides. One release is judged, and only where a
 * verdict below breaking is reused for a release whose notes are held; anything else is judged anew already. False, with a
 * warning naming the file, when the two disagree: the caller judges the release again.
 */
export function heldVerdictHolds(
  entry: HistoryEntry,
  release: ReleaseNotes & { notes: string },
  record: { safeToUpdate: HistoryEntry['safeToUpdate'] },
  override: Override | undefined,
  where: { log: Logger; file: string; slug: string }
): boolean {
  // Nothing is more cautious than breaking: such a verdict cannot hide a release that needs care, so it is not
  // judged again (about a quarter of the data set's latest releases; the rest cost one judgement each).
  const top = (c: HistoryEntry['safeToUpdate']) => SEVERITY[c] >= SEVERITY.breaking
  if (top(entry.safeToUpdate) && top(record.safeToUpdate)) return true
  const m = entry.model
  const answers = m ? new Map([[release.version, { ...m, cut: notesForModel(release.notes).cut }]]) : undefined
  const verdict = classifyReleases({ releases: [release], ...(answers ? { answers } : {}) }).releases.at(-1)
  const place = { url: entry.url, date: entry.date, basis: entry.basis, notes: m?.notes ?? notesDigest(release.notes) }
  const again = verdict && historyEntry(verdict, place, override)
  const differs = again ? VERDICT_FIELDS.filter((f) => !isDeepStrictEqual(again[f], entry[f])) : ['safeToUpdate']
  const overridden = override?.version === release.version
  // An unknown record (a gap, say) is already cautious: it never reads as safe.
  const recordBelow =
    !overridden &&
    record.safeToUpdate !== 'unknown' &&
    SEVERITY[record.safeToUpdate] < SEVERITY[again?.safeToUpdate ?? 'unknown']
  if (differs.length === 0 && !recordBelow) return true
  const label = quoted(release.version)
  const what =
    differs.length > 0
      ? `it differs in ${differs.join(', ')} from a judgement of the notes this build holds (${entry.safeToUpdate} there, ${again?.safeToUpdate ?? 'none'} now)`
      : `its record says ${record.safeToUpdate}, less cautious than the release's own ${again?.safeToUpdate}`
  where.log.warning(
    `${where.slug}: the previous snapshot's verdict for ${label} does not hold: ${what}; it is judged again`,
    { file: where.file }
  )
  return false
}

/**
 * The history after this run: the releases judged now replace the same releases judged before, the
 * others are carried as they were; newest first, at most HISTORY_MAX.
 */
export function mergeHistory(
  previous: readonly HistoryEntry[],
  judged: readonly HistoryEntry[],
  tagPrefix?: string
): HistoryEntry[] {
  const kept = previous.filter((p) => !judged.some((j) => sameVersion(j.version, p.version, tagPrefix)))
  return [...judged, ...kept].sort((a, b) => newestFirst(a, b, tagPrefix)).slice(0, HISTORY_MAX)
}

/**
 * The gaps after this run: those this run found (releases it could not read) joined to those carried, newest
 * first (one found now replaces the same span carried). A gap is kept while some judged release lies at or below its start (an update from there crosses it);
 * below the oldest release kept, every update is unknown anyway.
 */
export function mergeGaps(
  previous: readonly HistoryGap[],
  found: HistoryGap | readonly HistoryGap[] | null,
  releases: readonly HistoryEntry[],
  tagPrefix?: string
): HistoryGap[] {
  const same = (a: HistoryGap, b: HistoryGap) =>
    sameVersion(a.after, b.after, tagPrefix) && sameVersion(a.before, b.before, tagPrefix)
  const now = found === null ? [] : Array.isArray(found) ? found : [found as HistoryGap]
  const all: HistoryGap[] = []
  for (const g of [...now, ...previous]) if (!all.some((a) => same(a, g))) all.push(g)
  return all
    .filter((g) => releases.some((e) => (compareVersions(e.version, g.after, tagPrefix) ?? 1) <= 0))
    .sort((a, b) => newestFirst({ version: a.before, date: a.found }, { version: b.before, date: b.found }, tagPrefix))
    .slice(0, GAPS_MAX)
}

/** The previous snapshot's releases document of one app. */
export type PreviousHistory = Pick<ReleasesDoc, 'generatedAt' | 'latest' | 'releases' | 'gaps'>

/**
 * The releases document of an app. Its generatedAt is when its history last changed: a run that judged
 * nothing new republishes the previous document byte for byte (a quiet day rewrites nothing).
 */
export function releasesDoc(
  slug: string,
  latest: LatestVerdict | null,
  releases: HistoryEntry[],
  previous: PreviousHistory | null,
  now: Date,
  gaps: readonly HistoryGap[] = []
): ReleasesDoc {
  const same =
    previous &&
    isDeepStrictEqual(previous.latest, latest) &&
    isDeepStrictEqual(previous.releases, releases) &&
    isDeepStrictEqual(previous.gaps ?? [], gaps)
  return {
    schema: RELEASES_SCHEMA_ID,
    generatedAt: same ? previous.generatedAt : now.toISOString(),
    slug,
    latest,
    releases,
    // Only a history with a gap says so: every other document stays as it was.
    ...(gaps.length > 0 ? { gaps: [...gaps] } : {})
  }
}
