// One published record per app, and what changed against the previous snapshot.
// Each app takes one synchronous step: its facts → the verdict → the record,
// checked against the schema and settled against what was published before.
import { isDeepStrictEqual } from 'node:util'
import { appRecordSchema, compareSlugs, type AppRecord } from '../schema/index.js'
import type { PageInput } from '../site/pages.js'
import { appUrls } from '../site/paths.js'
import { ProblemsError, zodProblems } from '../util/problems.js'
import type { Logger } from '../util/types.js'
import { assess } from './assess.js'
import type { AppFacts } from './facts.js'
import { lifecycleFor, type ProductDocs } from './lifecycle.js'

export interface RecordContext {
  baseUrl: string
  now: Date
  docs: ProductDocs
  /** The previous snapshot's records, by slug. */
  previous: ReadonlyMap<string, AppRecord>
  log: Logger
}

/** The release fields of a record: judged from fresh facts, or republished as last published. */
type ReleasePart = Pick<
  AppRecord,
  'latestVersion' | 'safeToUpdate' | 'rationale' | 'changelogSummary' | 'sourceUrl' | 'lastChecked'
>

/** An app's record and what its page shows beyond the record. */
export function appRecord(app: AppFacts, ctx: RecordContext): PageInput {
  let release: ReleasePart
  let page: Omit<PageInput, 'record' | 'stale'>
  if (app.facts) {
    const { verdict, rule, decidedBy, considered } = assess({ ...app, facts: app.facts }, ctx.log)
    release = {
      latestVersion: app.facts.version,
      ...verdict,
      sourceUrl: app.facts.url,
      lastChecked: app.facts.checked
    }
    page = { releaseDate: app.facts.date, releasesConsidered: considered, rule, decidedBy }
  } else {
    // Republish the last-known-good release; curated fields and addresses follow the catalog.
    const { latestVersion, safeToUpdate, rationale, changelogSummary, sourceUrl, lastChecked } = app.kept!
    release = { latestVersion, safeToUpdate, rationale, changelogSummary, sourceUrl, lastChecked }
    page = { releaseDate: null, releasesConsidered: [], rule: null, decidedBy: null }
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
  return { record: settle(checked.data, ctx.previous.get(app.slug)), stale: app.stale, ...page }
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
