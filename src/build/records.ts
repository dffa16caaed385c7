// One published record per app, and what changed against the previous snapshot.
// Each app takes one synchronous step: its facts → the verdict → the record,
// checked against the schema and settled against what was published before.
import { isDeepStrictEqual } from 'node:util'
import { appRecordSchema, compareSlugs, type AppRecord } from '../schema/index.js'
import type { PageInput } from '../site/pages.js'
import { appUrls } from '../site/paths.js'
import { ProblemsError, zodProblems } from '../util/problems.js'
import type { Logger } from '../util/types.js'
import { applyOverride } from '../classify/index.js'
import { historyEntrySchema, type HistoryEntry, type LatestVerdict, type ReleasesDoc } from '../schema/index.js'
import { sameVersion } from '../util/versions.js'
import { assess } from './assess.js'
import type { AppFacts } from './facts.js'
import {
  basisOf,
  historyEntry,
  judgeBasis,
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
  basis: string
): boolean {
  const { facts } = app
  if (!prior || !history?.latest || facts.movedTo || facts.notes === null) return false
  if (prior.latestVersion !== facts.version || history.latest.version !== facts.version) return false
  if ((prior.safeToUpdate === 'unmaintained') !== facts.archived) return false
  const entry = history.releases.find((e) => e.version === facts.version)
  return entry?.basis === basis
}

/** An app's record, what its page shows beyond the record, and its releases document. */
export function appRecord(app: AppFacts, ctx: RecordContext): { page: PageInput; releases: ReleasesDoc } {
  const prior = ctx.previous.get(app.slug)
  const before = readPreviousHistory(ctx.previousDir, app.slug, ctx.log)
  const override = app.entry.override
  let release: ReleasePart
  let page: Omit<PageInput, 'record' | 'stale'>
  let latest: LatestVerdict | null = before?.latest ?? null
  let releases: HistoryEntry[] = before?.releases ?? []
  if (
    app.facts &&
    reusable(
      { ...app, facts: app.facts },
      prior,
      before,
      basisOf(judgeBasis(ctx.model, ctx.judging?.judge ?? 'rules'), override, app.facts.version, app.facts.notes)
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
    page = { releaseDate: app.facts.date, ...pageOf(latest, app.facts.version) }
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
    page = { releaseDate: facts.date, releasesConsidered: considered, rule, decidedBy }
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
    if (judged.length > 0) latest = { version: facts.version, considered, decidedBy, rule }
  } else {
    // Republish the last-known-good release; curated fields and addresses follow the catalog.
    const { latestVersion, safeToUpdate, rationale, changelogSummary, sourceUrl, lastChecked } = app.kept!
    release = { latestVersion, safeToUpdate, rationale, changelogSummary, sourceUrl, lastChecked }
    page = { releaseDate: null, ...pageOf(latest, latestVersion) }
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
  return {
    page: { record: settle(checked.data, ctx.previous.get(app.slug)), stale: app.stale, ...page },
    releases: releasesDoc(app.slug, latest, releases, before, ctx.now)
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
