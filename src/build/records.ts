// One published record per app, and what changed against the previous snapshot.
// Each app takes one synchronous step: its facts → the verdict → the record,
// checked against the schema and settled against what was published before.
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { appRecordSchema, compareSlugs, type AppRecord } from '../schema/index.js'
import type { PageInput } from '../site/pages.js'
import { appUrls, paths } from '../site/paths.js'
import { ProblemsError, zodProblems } from '../util/problems.js'
import type { Logger } from '../util/types.js'
import { applyOverride } from '../classify/index.js'
import {
  historyEntrySchema,
  type HistoryEntry,
  type HistoryGap,
  type LatestVerdict,
  type ReleasesDoc
} from '../schema/index.js'
import { sameVersion } from '../util/versions.js'
import { assess } from './assess.js'
import type { AppFacts } from './facts.js'
import {
  basisOf,
  heldVerdictHolds,
  historyEntry,
  judgeBasis,
  mergeGaps,
  mergeHistory,
  notesDigest,
  releasesDoc,
  type PreviousHistory
} from './history.js'
import { lifecycleFor, type ProductDocs } from './lifecycle.js'
import type { ModelJudging } from './judge-models.js'
import { readPreviousHistory } from './previous.js'

export interface RecordContext {
  baseUrl: string
  now: Date
  docs: ProductDocs
  /** The previous snapshot's records, by slug. */
  previous: ReadonlyMap<string, AppRecord>
  /** The previous snapshot's folder: each app's judged releases are read from it, once. */
  previousDir?: string
  /** The classifier's digest (CLASSIFIER_DIGEST: its model and judging revision); part of every verdict's basis. */
  model: string
  /** The judge this run uses (`rules` or `model:<id>`) and a model's answers by slug and version (build/judge-models.ts). */
  judging?: Pick<ModelJudging, 'judge' | 'answers'>
  log: Logger
  /**
   * The previous snapshot published a releases document for each of its apps (previous.ts: previousPublishes), so
   * one missing for an app it published is damage, not a history that never was. Absent: false.
   */
  previousHistories?: boolean
  /** Every app whose previous history could not be carried over is added here (the pipeline says or refuses it). */
  reset?: HistoryReset[]
}

/** An app whose history in the previous snapshot could not be read: why, and what this run did about it. */
export interface HistoryReset {
  slug: string
  file: string
  problem: string
  /** Its releases were read again from upstream this run; false: the history starts again from what this run had. */
  rebuilt: boolean
  /** Releases in the history published now. */
  releases: number
}

/** The release fields of a record: judged from fresh facts, or republished as last published. */
type ReleasePart = Pick<
  AppRecord,
  'latestVersion' | 'safeToUpdate' | 'rationale' | 'changelogSummary' | 'sourceUrl' | 'lastChecked'
>

/** The page fields of a record decided as `latest` says (a verdict republished, or none known). */
function pageOf(
  latest: LatestVerdict | null,
  version: string
): Pick<PageInput, 'releasesConsidered' | 'rule' | 'decidedBy'> {
  if (!latest || latest.version !== version) return { releasesConsidered: [], rule: null, decidedBy: null }
  return { releasesConsidered: latest.considered, rule: latest.rule, decidedBy: latest.decidedBy }
}

/**
 * Yesterday's verdict holds when the record is for the same release and that release's basis (model,
 * override, notes) has not moved: it is republished without classifying again.
 */
function reusable(
  app: AppFacts & { facts: NonNullable<AppFacts['facts']> },
  prior: AppRecord | undefined,
  history: PreviousHistory | null,
  basis: string,
  log: Logger
): boolean {
  const { facts } = app
  if (!prior || !history?.latest || facts.movedTo || facts.notes === null) return false
  if (prior.latestVersion !== facts.version || history.latest.version !== facts.version) return false
  if ((prior.safeToUpdate === 'unmaintained') !== facts.archived) return false
  const entry = history.releases.find((e) => e.version === facts.version)
  if (entry?.basis !== basis) return false
  // The notes are held: the verdict republished must follow from them (history.ts: heldVerdictHolds).
  const release = { version: facts.version, notes: facts.notes, url: facts.url, date: facts.date }
  return heldVerdictHolds(entry, release, prior, app.entry.override, { log, file: app.file, slug: app.slug })
}

/** The release date the history holds for `version`, when it holds one. */
function dateOf(releases: readonly HistoryEntry[], version: string): string | null {
  return releases.find((e) => e.version === version)?.date ?? null
}

/** An app's record, what its page shows beyond the record, and its releases document. */
export function appRecord(app: AppFacts, ctx: RecordContext): { page: PageInput; releases: ReleasesDoc } {
  const prior = ctx.previous.get(app.slug)
  const read = readPreviousHistory(ctx.previousDir, app.slug)
  const before = 'history' in read ? read.history : null
  // A history that was there and cannot be read is never dropped in silence (issue 48): named, re-read or refused.
  const expected = Boolean(ctx.previousHistories) && ctx.previous.has(app.slug)
  const damaged = 'problem' in read ? read.problem : 'missing' in read && expected ? 'is missing' : null
  const override = app.entry.override
  let release: ReleasePart
  let page: Omit<PageInput, 'record' | 'stale'>
  let latest: LatestVerdict | null = before?.latest ?? null
  let releases: HistoryEntry[] = before?.releases ?? []
  let gaps: HistoryGap[] = before?.gaps ?? []
  if (
    app.facts &&
    reusable(
      { ...app, facts: app.facts },
      prior,
      before,
      basisOf(judgeBasis(ctx.model, ctx.judging?.judge ?? 'rules'), override, app.facts.version, app.facts.notes),
      ctx.log
    )
  ) {
    const { safeToUpdate, rationale, changelogSummary } = prior!
    // The override's expiry is still told every run.
    applyOverride({ safeToUpdate, rationale, changelogSummary }, override, app.facts.version, ctx.log, app.file)
    release = {
      latestVersion: app.facts.version,
      safeToUpdate,
      rationale,
      changelogSummary,
      sourceUrl: app.facts.url,
      lastChecked: app.facts.checked
    }
    page = { releaseDate: app.facts.date ?? dateOf(releases, app.facts.version), ...pageOf(latest, app.facts.version) }
  } else if (app.facts) {
    const facts = app.facts
    const { verdict, rule, decidedBy, considered, judged } = assess(
      { ...app, facts },
      ctx.log,
      ctx.judging?.answers.get(app.slug)
    )
    release = {
      latestVersion: facts.version,
      ...verdict,
      sourceUrl: facts.url,
      lastChecked: facts.checked
    }
    const entries: HistoryEntry[] = []
    for (const { release: r, verdict: v } of judged) {
      const isLatest = sameVersion(r.version, facts.version, app.entry.tagPrefix)
      const url = r.url ?? (isLatest ? facts.url : undefined)
      if (!url) continue
      const date = r.date ?? (isLatest ? facts.date : null)
      const basis = basisOf(judgeBasis(ctx.model, v.judge), override, r.version, r.notes)
      const entry = historyEntry(v, { url, date, basis, notes: notesDigest(r.notes) }, override)
      // Upstream chose these values: one that could not be published is left out of the history, not the run.
      const valid = historyEntrySchema.safeParse(entry)
      if (valid.success) entries.push(valid.data)
      else
        ctx.log.warning(
          `${app.slug}: release ${JSON.stringify(r.version.slice(0, 64))} left out of its history (${valid.error.issues[0]?.path.join('.')}: ${valid.error.issues[0]?.message})`,
          { file: app.file }
        )
    }
    releases = mergeHistory(releases, entries, app.entry.tagPrefix)
    const found = [...(facts.gap ? [facts.gap] : []), ...(facts.unread ?? [])].map(({ after, before }) => ({
      after,
      before,
      found: facts.checked
    }))
    gaps = mergeGaps(gaps, found, releases, app.entry.tagPrefix)
    if (judged.length > 0) latest = { version: facts.version, considered, decidedBy, rule }
    page = {
      releaseDate: facts.date ?? dateOf(releases, facts.version),
      releasesConsidered: considered,
      rule,
      decidedBy
    }
  } else {
    // Republish the last-known-good release; curated fields and addresses follow the catalog.
    const { latestVersion, safeToUpdate, rationale, changelogSummary, sourceUrl, lastChecked } = app.kept!
    release = { latestVersion, safeToUpdate, rationale, changelogSummary, sourceUrl, lastChecked }
    // The release date is the history's: an offline or stale rebuild shows what the refresh that judged it read.
    page = { releaseDate: dateOf(releases, latestVersion), ...pageOf(latest, latestVersion) }
  }
  const checked = appRecordSchema.safeParse({
    slug: app.slug,
    name: app.entry.name,
    repo: app.entry.repo,
    ...release,
    successor: app.entry.successor ?? null,
    ...appUrls(ctx.baseUrl, app.slug),
    lifecycle: lifecycleFor(app, release.latestVersion, ctx.docs, ctx.now, ctx.log)
  })
  if (!checked.success) {
    const problems = zodProblems(checked.error, app.file).map((p) => ({
      ...p,
      message: `the record built for ${app.slug} is invalid: ${p.message}`
    }))
    throw new ProblemsError('build', problems)
  }
  if (app.stale)
    ctx.log.warning(`${app.slug}: stale, republished last-known-good (${app.note ?? 'upstream failed'})`, {
      file: app.file
    })
  if (damaged !== null && ctx.previousDir) {
    const rebuilt = Boolean(app.facts) && !app.stale
    const file = path.join(ctx.previousDir, ...paths.releases(app.slug).split('/'))
    ctx.reset?.push({ slug: app.slug, file, problem: damaged, rebuilt, releases: releases.length })
    ctx.log.warning(
      `previous ${file} ${damaged}; the judged history of ${app.slug} ${rebuilt ? `was read again from upstream (${releases.length} releases)` : 'starts again from this run'}`
    )
  }
  return {
    page: { record: settle(checked.data, ctx.previous.get(app.slug)), stale: app.stale, ...page },
    releases: releasesDoc(app.slug, latest, releases, before, ctx.now, gaps)
  }
}

/**
 * A record whose only difference from the published one is lastChecked is the
 * published one: a run that finds nothing new must not rewrite the snapshot.
 */
export function settle(record: AppRecord, previous: AppRecord | undefined): AppRecord {
  if (previous && isDeepStrictEqual({ ...record, lastChecked: previous.lastChecked }, previous)) return previous
  return record
}

export interface RecordChange {
  slug: string
  before: Pick<AppRecord, 'latestVersion' | 'safeToUpdate'> | null
  after: Pick<AppRecord, 'latestVersion' | 'safeToUpdate'> | null
}

/** Every record that differs from the previous snapshot's, and every record removed, by slug. */
export function diffRecords(before: ReadonlyMap<string, AppRecord>, after: readonly AppRecord[]): RecordChange[] {
  const brief = (r: AppRecord | undefined) =>
    r ? { latestVersion: r.latestVersion, safeToUpdate: r.safeToUpdate } : null
  const changes: RecordChange[] = after
    .filter((r) => !isDeepStrictEqual(before.get(r.slug), r))
    .map((r) => ({ slug: r.slug, before: brief(before.get(r.slug)), after: brief(r) }))
  const kept = new Set(after.map((r) => r.slug))
  for (const [slug, r] of before) if (!kept.has(slug)) changes.push({ slug, before: brief(r), after: null })
  return changes.sort((a, b) => compareSlugs(a.slug, b.slug))
}
