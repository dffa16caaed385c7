// The run report, /api/v1/status.json: the one document every run rewrites, so a
// pipeline that stopped is told apart from one that found nothing new. It also
// carries, from run to run, since when each stale app has been stale.
import { compareSlugs, LIMITS, STATUS_SCHEMA_ID, type FAULT_OUTCOMES, type StatusDoc } from '../schema/index.js'
import { toJson } from '../util/json.js'

/** Who judged a run's releases: status.json's `judging`, and the job summary's line about it. */
export interface RunJudging {
  judge: string
  calls: number
  verdicts: Record<string, number>
  /** Latest releases a model judge has yet to judge. */
  pending?: number
  /** Releases whose answers from a model could not be used this run (absent: none). */
  unusable?: number
  /** The models asked, in order, when more than one. */
  models?: readonly string[]
  /** Apps with a release read this run whose notes address the judge or ask for a class. */
  injection?: readonly string[]
}

export interface RunReport {
  runAt: string
  /** generatedAt of the snapshot: when a record last changed. */
  lastChange: string
  refresh: boolean
  sourceCommit: string | null
  apps: number
  refreshed: number
  /** Slugs republished from last-known-good this run. */
  stale: readonly string[]
  /** Slugs left out of this snapshot. */
  failed: readonly string[]
  /** Slug → since, from the previous run's status.json. */
  staleBefore: ReadonlyMap<string, string>
  /** Who judged this run's releases and the model calls made; absent when nothing was judged (no build). */
  judging?: RunJudging
  /** Histories of the previous snapshot that could not be carried over (absent in older callers: none). */
  historyReset?: readonly HistoryLoss[]
  /** Records built from upstream data that failed their schema, and what was published instead (absent: none). */
  faults?: readonly RecordFaultReport[]
}

/** An app whose record built from upstream data failed its schema (pipeline/records.ts: RecordFault). */
export interface RecordFaultReport {
  slug: string
  field: string
  problem: string
  published: (typeof FAULT_OUTCOMES)[number]
}

/** A history document of the previous snapshot that could not be carried over, and what the run did. */
export interface HistoryLoss {
  /** Its site path: api/v1/apps/<slug>/releases.json or api/v1/changes.json. */
  document: string
  problem: string
  /** Read again from upstream this run; false: it starts again from this run. */
  rebuilt: boolean
}

/** Since when a stale app has been stale: one stale in the previous run too keeps its date; one newly stale, this run. */
export function staleSinceOf(slug: string, report: Pick<RunReport, 'runAt' | 'staleBefore'>): string {
  return report.staleBefore.get(slug) ?? report.runAt
}

/** Slug → since when, for every stale app of the run. */
export function staleSince(report: Pick<RunReport, 'runAt' | 'stale' | 'staleBefore'>): Map<string, string> {
  return new Map(report.stale.map((slug) => [slug, staleSinceOf(slug, report)]))
}

export function statusDoc(report: RunReport): StatusDoc {
  const since = staleSince(report)
  return {
    schema: STATUS_SCHEMA_ID,
    runAt: report.runAt,
    lastChange: report.lastChange,
    refresh: report.refresh,
    sourceCommit: report.sourceCommit,
    counts: {
      apps: report.apps,
      refreshed: report.refreshed,
      stale: report.stale.length,
      failed: report.failed.length
    },
    stale: [...since].sort(([a], [b]) => compareSlugs(a, b)).map(([slug, at]) => ({ slug, since: at })),
    failed: [...report.failed].sort(compareSlugs),
    // Only a run with a fault says so, as historyReset below.
    ...(report.faults?.length
      ? {
          faults: [...report.faults]
            .sort((a, b) => compareSlugs(a.slug, b.slug))
            .map((f) => ({
              slug: f.slug,
              field: f.field.slice(0, 200),
              problem: f.problem.slice(0, LIMITS.reason),
              published: f.published
            }))
        }
      : {}),
    ...(report.judging
      ? {
          judging: {
            judge: report.judging.judge,
            calls: report.judging.calls,
            verdicts: Object.fromEntries(Object.entries(report.judging.verdicts).sort(([a], [b]) => (a < b ? -1 : 1))),
            ...(report.judging.pending !== undefined ? { pending: report.judging.pending } : {}),
            ...(report.judging.unusable ? { unusable: report.judging.unusable } : {}),
            ...(report.judging.models?.length ? { models: [...report.judging.models] } : {}),
            ...(report.judging.injection?.length
              ? {
                  injection: {
                    count: report.judging.injection.length,
                    apps: [...report.judging.injection].sort(compareSlugs)
                  }
                }
              : {})
          }
        }
      : {}),
    // Only a run that lost history says so: a quiet day's report keeps its shape.
    ...(report.historyReset?.length
      ? {
          historyReset: [...report.historyReset]
            .sort((a, b) => compareSlugs(a.document, b.document))
            .map((h) => ({ ...h, problem: h.problem.slice(0, LIMITS.reason) }))
        }
      : {})
  }
}

export function renderStatusDoc(report: RunReport): string {
  return toJson(statusDoc(report))
}
