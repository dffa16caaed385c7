// One published record per app, and what changed against the previous snapshot.
// Each app takes one synchronous step: its facts → the verdict → the record,
// checked against the schema and settled against what was published before.
import { quoted } from '../util/text.js'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { appRecordSchema, compareSlugs, LIMITS, type AppRecord } from '../schema/index.js'
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
import { clip, safeLabel } from '../classify/text.js'
import { compareVersions, isVersionLabel, newestFirst, sameVersion } from '../util/versions.js'
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
  /** The judge this run uses (`rules` or `model:<id>`) and a model's answers by slug and version (pipeline/judge-models.ts). */
  judging?: Pick<ModelJudging, 'judge' | 'answers'> & Partial<Pick<ModelJudging, 'unusable' | 'changed'>>
  log: Logger
  /**
   * The previous snapshot published a releases document for each of its apps (previous.ts: previousPublishes), so
   * one missing for an app it published is damage, not a history that never was. Absent: false.
   */
  previousHistories?: boolean
  /** Every app whose previous history could not be carried over is added here (the pipeline says or refuses it). */
  reset?: HistoryReset[]
  /** Every app whose record built from upstream data failed its schema is added here (status.json, job summary). */
  faults?: RecordFault[]
  /** Every app with a release judged here whose notes address the judge is added here (status.json, job summary). */
  injection?: Set<string>
}

/**
 * An app whose record, built from upstream data, failed its schema: the field, the problem and what was published
 * instead (its last published record, an `unknown` record, or nothing at all).
 */
export interface RecordFault {
  slug: string
  file: string
  /** The record's field that failed (`changelogSummary`, `lifecycle.eolDate`). */
  field: string
  problem: string
  published: 'previous' | 'unknown' | 'none'
}

/**
 * The record's fields the catalog (and the run's base URL) decide: already checked when the catalog was read, so
 * one that fails here is the catalog's fault and fails the build. Every other field is built from upstream data
 * (GitHub, a notes file, endoflife.date) and what the judge made of it: its fault is the app's alone.
 */
const CATALOG_FIELDS: ReadonlySet<string> = new Set(['slug', 'name', 'repo', 'successor', 'url', 'badge'])

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

/**
 * An app's record, what its page shows beyond the record, and its releases document; null when upstream's data for
 * it cannot be published and nothing else can be either (the app is then left out, see RecordContext.faults).
 */
export function appRecord(app: AppFacts, ctx: RecordContext): { page: PageInput; releases: ReleasesDoc } | null {
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
    // A release of it that the judge answered this run, or whose answers it could not use, changes its history.
    !ctx.judging?.changed?.has(app.slug) &&
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
    const refused: string[] = []
    for (const { release: r, verdict: v } of judged) {
      if (v.injection) ctx.injection?.add(app.slug)
      const isLatest = sameVersion(r.version, facts.version, app.entry.tagPrefix)
      const url = r.url ?? (isLatest ? facts.url : undefined)
      if (!url) continue
      const date = r.date ?? (isLatest ? facts.date : null)
      const basis = basisOf(judgeBasis(ctx.model, v.judge), override, r.version, r.notes)
      const unusable = ctx.judging?.unusable?.get(app.slug)?.get(r.version)
      const entry = historyEntry(v, { url, date, basis, notes: notesDigest(r.notes), unusable }, override)
      // Upstream chose these values: one that could not be published is left out of the history, not the run, and
      // becomes a gap there (below), so no update across it reads as safe.
      const valid = historyEntrySchema.safeParse(entry)
      if (valid.success) entries.push(valid.data)
      else {
        refused.push(r.version)
        ctx.log.warning(
          `${app.slug}: release ${quoted(r.version)} left out of its history, recorded as a gap (${valid.error.issues[0]?.path.join('.')}: ${valid.error.issues[0]?.message})`,
          { file: app.file }
        )
      }
    }
    const held = releases
    releases = mergeHistory(releases, entries, app.entry.tagPrefix)
    const found = [...(facts.gap ? [facts.gap] : []), ...(facts.unread ?? [])].map(({ after, before }) => ({
      after,
      before,
      found: facts.checked
    }))
    gaps = mergeGaps(gaps, found, releases, app.entry.tagPrefix)
    const spans = refusedGaps(
      new Set(refused),
      judged.map((j) => j.release.version),
      held,
      app.entry.tagPrefix
    )
    for (const gap of spans) gaps = mergeGaps(gaps, { ...gap, found: facts.checked }, releases, app.entry.tagPrefix)
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
  const curated = {
    slug: app.slug,
    name: app.entry.name,
    repo: app.entry.repo,
    successor: app.entry.successor ?? null,
    ...appUrls(ctx.baseUrl, app.slug)
  }
  const lifecycle = lifecycleFor(app, release.latestVersion, ctx.docs, ctx.now, ctx.log)
  const checked = appRecordSchema.safeParse({ ...curated, ...release, lifecycle })
  let record: AppRecord
  if (checked.success) record = checked.data
  else {
    const instead = recordAtFault(app, ctx, { curated, release, lifecycle }, checked.error)
    if (instead === null) return null
    record = instead
    // Its history stays as published: nothing judged from the data that failed goes into it.
    latest = before?.latest ?? null
    releases = before?.releases ?? []
    gaps = before?.gaps ?? []
    page = { releaseDate: dateOf(releases, record.latestVersion), ...pageOf(latest, record.latestVersion) }
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
    page: { record: settle(record, ctx.previous.get(app.slug)), stale: app.stale, ...page },
    releases: releasesDoc(app.slug, latest, releases, before, ctx.now, gaps)
  }
}

/** A record as built, before its check: the catalog's fields, the release's and the lifecycle. */
interface BuiltRecord {
  curated: Pick<AppRecord, 'slug' | 'name' | 'repo' | 'successor' | 'url' | 'badge'>
  release: ReleasePart
  lifecycle: AppRecord['lifecycle']
}

/**
 * What is published for an app whose record failed its schema. In a field the catalog decides, the catalog is at
 * fault: the build fails, naming file and field. In any other (built from upstream data), the app keeps its last
 * published record; with none, it is published as `unknown`, saying the upstream data could not be published; when
 * not even that can be (no version to name), it is left out: null. Either way the fault is told and counted.
 */
function recordAtFault(
  app: AppFacts,
  ctx: RecordContext,
  built: BuiltRecord,
  error: { issues: { path: PropertyKey[]; message: string }[] }
): AppRecord | null {
  const problems = zodProblems(error, app.file)
  if (problems.some((p) => CATALOG_FIELDS.has(p.field?.split('.')[0] ?? '')))
    throw new ProblemsError(
      'build',
      problems.map((p) => ({ ...p, message: `the record built for ${app.slug} is invalid: ${p.message}` }))
    )
  const fault = { field: problems[0]?.field ?? 'record', problem: problems[0]?.message ?? 'invalid' }
  const instead = fallbackRecord(app, ctx, built, fault)
  ctx.faults?.push({ slug: app.slug, file: app.file, ...fault, published: instead?.published ?? 'none' })
  const outcome =
    instead === null
      ? 'it is left out of this snapshot'
      : instead.published === 'previous'
        ? `its last published record (${safeLabel(instead.record.latestVersion)}) is kept`
        : 'it is published as unknown'
  ctx.log.warning(
    `${app.slug}: the record built from upstream data cannot be published (${fault.field}: ${fault.problem}); ${outcome}`,
    { file: app.file }
  )
  return instead?.record ?? null
}

/** The last published record (the catalog's fields as the catalog now says), else an `unknown` one, else null. */
function fallbackRecord(
  app: AppFacts,
  ctx: RecordContext,
  built: BuiltRecord,
  fault: { field: string; problem: string }
): { record: AppRecord; published: 'previous' | 'unknown' } | null {
  const prior = ctx.previous.get(app.slug)
  const kept = prior && appRecordSchema.safeParse({ ...prior, ...built.curated })
  if (kept?.success) return { record: kept.data, published: 'previous' }
  const { latestVersion, sourceUrl, lastChecked } = built.release
  const seed = app.entry.release
  // The release as upstream gave it; without its page and lifecycle (upstream's too: the repository's releases stand
  // for the page); the catalog's own release.
  const releasesPage = `https://github.com/${app.entry.repo}/releases`
  const sources = [
    { latestVersion, sourceUrl, lastChecked, lifecycle: built.lifecycle },
    { latestVersion, sourceUrl: releasesPage, lastChecked, lifecycle: null },
    ...(seed ? [{ latestVersion: seed.version, sourceUrl: seed.url, lastChecked: seed.checked, lifecycle: null }] : [])
  ]
  for (const source of sources) {
    const unknown = appRecordSchema.safeParse({
      ...built.curated,
      ...source,
      safeToUpdate: 'unknown',
      rationale: clip(
        `Not known to be safe: the upstream data of ${safeLabel(source.latestVersion)} could not be published (${fault.field}: ${fault.problem}), so it is not assessed.`,
        LIMITS.rationale
      ),
      changelogSummary: null
    })
    if (unknown.success) return { record: unknown.data, published: 'unknown' }
  }
  return null
}

/**
 * The spans of releases whose history entries failed their schema, as gaps: from the release below (judged now,
 * else the newest held below it) to the release judged next above (or to the refused one itself when it is the
 * newest judged), so an update across any of them is unknown, never safe. Refused releases in a row make one span;
 * one below every release known needs none (an update from below the history's oldest is unknown already).
 */
export function refusedGaps(
  refused: ReadonlySet<string>,
  /** The versions judged this run, oldest first. */
  judged: readonly string[],
  held: readonly HistoryEntry[],
  tagPrefix?: string
): Omit<HistoryGap, 'found'>[] {
  const spans: Omit<HistoryGap, 'found'>[] = []
  const below = (version: string) =>
    held
      .filter((e) => (compareVersions(e.version, version, tagPrefix) ?? 0) < 0)
      .sort((a, b) => newestFirst(a, b, tagPrefix))[0]?.version ?? null
  const add = (after: string | null, before: string) => {
    if (after !== null && isVersionLabel(before) && !sameVersion(after, before, tagPrefix))
      spans.push({ after, before })
  }
  let after: string | null | undefined
  for (const [i, version] of judged.entries()) {
    if (refused.has(version)) {
      if (after === undefined) after = i > 0 ? judged[i - 1]! : below(version)
      continue
    }
    if (after !== undefined) add(after, version)
    after = undefined
  }
  if (after !== undefined) add(after, judged[judged.length - 1]!)
  return spans
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
