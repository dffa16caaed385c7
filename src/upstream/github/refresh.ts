// Refresh every app's release facts from GitHub: aliased GraphQL batches, a batch
// that keeps failing is split in halves down to single repositories, a single
// repository that GraphQL still cannot answer is read over REST, and the budget
// (GraphQL points) is watched so a run stops asking before it runs dry.
// Every target gets exactly one outcome; the caller merges failures with
// last-known-good data. Per-app warnings are the caller's (it knows the fallback).
import { quoted } from '../../util/text.js'
import { REPO_PATTERN } from '../../schema/index.js'
import { utcDay } from '../../util/dates.js'
import type { Logger, ReleaseFacts } from '../../util/types.js'
import { capReason, factsFromSnapshot, wantsOlder, type RepoSnapshot } from './facts.js'
import {
  answerData,
  classifyFailure,
  createGitHubClient,
  type GitHubClient,
  type RequestFailure,
  type RetryTimings,
  type ThrottleTimings
} from './client.js'
import {
  aliasOf,
  buildBatchQuery,
  buildOlderQuery,
  MAX_RELEASES_READ,
  OLDER_BATCH,
  OLDER_PAGE,
  olderFromGraphQL,
  rateLimitAnswer,
  snapshotFromGraphQL
} from './query.js'
import { snapshotFromRest } from './rest.js'

export interface RefreshTarget {
  slug: string
  /** `owner/name` as the catalog records it. */
  repo: string
  tagPrefix?: string
  tagPattern?: string
  /** The version published last time; `crossed` starts above it. */
  previousVersion?: string
  /** Its judged history was lost: read back as many releases as the history keeps (facts.ts: FactsTarget). */
  rebuildHistory?: boolean
  /** Versions of its history a later model of a list judged, to read again if the refresh holds them (FactsTarget). */
  again?: readonly string[]
}

export type RefreshOutcome =
  | { status: 'fresh'; facts: ReleaseFacts }
  /** GitHub resolved the catalog's name to another repository; facts null when it has no stable release. */
  | { status: 'moved'; movedTo: string; facts: ReleaseFacts | null }
  /** 404 or no access. */
  | { status: 'not-found'; reason: string }
  /**
   * The repository answered but publishes no stable release or tag for this app (e.g. only prereleases); `checked`
   * is the run's UTC day, the day it was found archived (or not).
   */
  | { status: 'no-release'; reason: string; archived: boolean; checked: string }
  /** Still failing after retries, batch splitting and the REST fallback. */
  | { status: 'failed'; reason: string }
  /** Not asked: the budget was too low, or GitHub's rate limit was reached. */
  | { status: 'skipped'; reason: string }

export interface RefreshStats {
  /** HTTP requests sent, every retry included. */
  requests: number
  /** Sum of `rateLimit.cost` over the GraphQL answers. */
  graphqlPoints: number
  /** GraphQL points left after the last answer; null when no answer carried it. */
  remaining: number | null
  /** GraphQL batch requests started (split halves count as batches). */
  batches: number
  /** Repositories read over REST because GraphQL could not answer them (absent from older callers' fakes). */
  restFallbacks?: number
  /** Follow-up requests for older releases, and the apps that needed them (see query.ts: paging back). */
  olderPages?: number
  pagedApps?: number
  /** Apps whose releases since the version published before could not all be read: a gap in their history. */
  gaps?: number
  /** Why GitHub refused the token, when it did (HTTP 401): nothing was read with it. */
  tokenRefused?: string
}

export interface RefreshOptions {
  token: string
  /** REST base URL: GITHUB_API_URL (https://api.github.com, or https://HOST/api/v3 on GHES). */
  apiUrl: string
  /** GraphQL URL: GITHUB_GRAPHQL_URL (https://api.github.com/graphql, or https://HOST/api/graphql). */
  graphqlUrl: string
  /** The run's clock; `checked` is its UTC day. */
  now: Date
  log: Logger
  /** Repositories per GraphQL request. Default 50 (see ./query.ts for why). */
  batchSize?: number
  /** GraphQL requests in flight at once. Default 4. */
  concurrency?: number
  /** Most releases kept in `crossed`. Default MAX_RELEASES_READ. */
  maxCrossed?: number
  /** Most releases read per app when paging back to the version published before. Default MAX_RELEASES_READ. */
  maxReleasesRead?: number
  /** GraphQL points kept in reserve: a batch that would dip below is not sent. Default 50. */
  minRemaining?: number
  /** Transient batch failures in a row after which the run stops asking. Default 6. */
  maxConsecutiveFailures?: number
  retry?: RetryTimings
  throttle?: ThrottleTimings
  /** Longest wait for one HTTP attempt, in ms. Default 20,000. */
  requestTimeoutMs?: number
  /** The run's deadline: once aborted, requests in flight stop and nothing more is asked. */
  deadline?: AbortSignal
}

export const DEFAULT_BATCH_SIZE = 50
export const DEFAULT_CONCURRENCY = 4
export const DEFAULT_MAX_CROSSED = MAX_RELEASES_READ
export const DEFAULT_MIN_REMAINING = 50
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 6

interface GqlError {
  type?: string
  path?: (string | number)[]
  message?: string
}

interface RunState {
  client: GitHubClient
  options: RefreshOptions
  outcomes: Map<string, RefreshOutcome>
  stats: RefreshStats
  budget: { inFlight: number; exhausted: string | null }
  failuresInARow: number
  /** Set once the run stops asking (token rejected, GitHub down): every later target gets this. */
  stopped: RefreshOutcome | null
  /** Apps that want older releases, paged back together once every batch has answered. */
  older: Older[]
  /** Apps whose history got a gap this run, for the warning. */
  gapSlugs: string[]
}

export async function refreshFromGitHub(
  targets: RefreshTarget[],
  options: RefreshOptions
): Promise<{ outcomes: Map<string, RefreshOutcome>; stats: RefreshStats }> {
  if (!options.token) throw new Error('refreshFromGitHub needs a GitHub token (GITHUB_TOKEN or the github-token input)')
  const slugs = new Set<string>()
  for (const t of targets) {
    if (slugs.has(t.slug)) throw new Error(`duplicate slug in refresh targets: ${t.slug}`)
    slugs.add(t.slug)
  }
  const state: RunState = {
    client: createGitHubClient({
      token: options.token,
      apiUrl: options.apiUrl,
      log: options.log,
      retry: options.retry,
      throttle: options.throttle,
      ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      ...(options.deadline ? { deadline: options.deadline } : {})
    }),
    options,
    outcomes: new Map(),
    stats: {
      requests: 0,
      graphqlPoints: 0,
      remaining: null,
      batches: 0,
      restFallbacks: 0,
      olderPages: 0,
      pagedApps: 0,
      gaps: 0
    },
    budget: { inFlight: 0, exhausted: null },
    failuresInARow: 0,
    stopped: null,
    older: [],
    gapSlugs: []
  }

  const askable: RefreshTarget[] = []
  for (const t of targets) {
    if (REPO_PATTERN.test(t.repo)) askable.push(t)
    else state.outcomes.set(t.slug, { status: 'not-found', reason: 'the catalog repo is not "<owner>/<name>"' })
  }

  const size = Math.max(1, Math.min(options.batchSize ?? DEFAULT_BATCH_SIZE, 100))
  const batches: RefreshTarget[][] = []
  for (let i = 0; i < askable.length; i += size) batches.push(askable.slice(i, i + size))
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < batches.length) await runBatch(state, batches[next++]!)
  }
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY)
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker))
  // Apps behind by more than their first answer, from every batch: OLDER_BATCH of them a request.
  await readOlder(state, state.older, concurrency)

  // Never lose an app, whatever happened above.
  for (const t of targets) {
    if (!state.outcomes.has(t.slug)) state.outcomes.set(t.slug, { status: 'failed', reason: 'no answer was recorded' })
  }
  state.stats.requests = state.client.counter.requests
  report(state, targets.length)
  return { outcomes: state.outcomes, stats: state.stats }
}

function report(state: RunState, total: number): void {
  const counts = new Map<string, number>()
  for (const o of state.outcomes.values()) counts.set(o.status, (counts.get(o.status) ?? 0) + 1)
  const { requests, graphqlPoints, remaining, restFallbacks, olderPages, pagedApps, gaps } = state.stats
  const perApp = total > 0 ? (requests / total).toFixed(3) : '0'
  const summary = [...counts].map(([k, v]) => `${k} ${v}`).join(', ')
  const older = olderPages ? `, ${olderPages} pages of older releases for ${pagedApps} apps` : ''
  state.options.log.info(
    `GitHub refresh: ${total} apps, ${requests} requests (${perApp} per app), ${graphqlPoints} GraphQL points used, ` +
      `${remaining ?? 'unknown'} remaining, ${restFallbacks ?? 0} REST fallbacks${older}; ${summary}`
  )
  if (gaps) {
    const names = state.gapSlugs.slice(0, 20).join(', ') + (gaps > 20 ? ` and ${gaps - 20} more` : '')
    state.options.log.warning(
      `GitHub: ${gaps} apps published more releases since their published version than one refresh reads ` +
        `(${names}); the releases not read are recorded as a gap in their history, and updates across it are unknown`
    )
  }
  const skipped = counts.get('skipped') ?? 0
  if (skipped > 0 && state.budget.exhausted) {
    state.options.log.warning(
      `GitHub: ${state.budget.exhausted}; ${skipped} apps were not asked and keep last-known-good data`
    )
  }
}

function settle(state: RunState, target: RefreshTarget, snapshot: RepoSnapshot): void {
  const maxCrossed = Math.max(1, state.options.maxCrossed ?? DEFAULT_MAX_CROSSED)
  const result = factsFromSnapshot(snapshot, target, { now: state.options.now, maxCrossed })
  if (result.kind === 'facts' && result.facts.gap) {
    state.stats.gaps = (state.stats.gaps ?? 0) + 1
    state.gapSlugs.push(target.slug)
  }
  // Releases between those read that were not read (flagged as prereleases): a gap too, never in silence.
  if (result.kind === 'facts' && result.facts.unread) {
    for (const u of result.facts.unread)
      state.options.log.warning(
        `GitHub: ${target.slug}: ${u.why}, after ${quoted(u.after)} and before ${quoted(u.before)}; not read, recorded as a gap in its history, and updates across it are unknown`
      )
  }
  const moved =
    snapshot.nameWithOwner.toLowerCase() !== target.repo.toLowerCase() && REPO_PATTERN.test(snapshot.nameWithOwner)
  let outcome: RefreshOutcome
  if (moved) {
    const movedTo = snapshot.nameWithOwner
    outcome = { status: 'moved', movedTo, facts: result.kind === 'facts' ? { ...result.facts, movedTo } : null }
  } else if (result.kind === 'facts') {
    outcome = { status: 'fresh', facts: result.facts }
  } else {
    outcome = {
      status: 'no-release',
      reason: result.reason,
      archived: snapshot.archived,
      checked: utcDay(state.options.now)
    }
  }
  state.outcomes.set(target.slug, outcome)
}

function markAll(state: RunState, batch: RefreshTarget[], outcome: RefreshOutcome): void {
  for (const t of batch) if (!state.outcomes.has(t.slug)) state.outcomes.set(t.slug, outcome)
}

// GitHub's cost: one "request" per connection per repository, divided by 100, minimum 1.
function estimatedCost(batch: RefreshTarget[]): number {
  return Math.max(1, Math.round((2 * batch.length) / 100))
}

/** Once the deadline passed, every target not answered yet keeps last-known-good. */
function pastDeadline(state: RunState): RefreshOutcome | null {
  if (!state.options.deadline?.aborted) return null
  if (!state.stopped) {
    state.stopped = { status: 'skipped', reason: 'the refresh deadline was reached before GitHub answered' }
    state.options.log.warning('GitHub refresh: the deadline was reached; apps not answered yet keep last-known-good')
  }
  return state.stopped
}

/**
 * What asking for one batch left to do: `failed` when its request failed (the continuation then splits it or reads
 * it over REST), else the repositories whose aliases errored, asked again. Run after its sibling half was asked, so
 * the breaker learns from both halves before either is split further (see onBatchFailure).
 */
interface Asked {
  failed: boolean
  next?: () => Promise<void>
}

async function runBatch(state: RunState, batch: RefreshTarget[], counts = true): Promise<void> {
  await (await askBatch(state, batch, counts)).next?.()
}

/** `counts`: a failure of this request counts towards the breaker (false when another failure explains it). */
async function askBatch(state: RunState, batch: RefreshTarget[], counts: boolean): Promise<Asked> {
  if (batch.length === 0) return { failed: false }
  pastDeadline(state)
  const cost = estimatedCost(batch)
  const notAsked = state.stopped ?? skippedFor(budgetExhausted(state, cost))
  if (notAsked) {
    markAll(state, batch, notAsked)
    return { failed: false }
  }

  state.stats.batches++
  const { query, variables } = buildBatchQuery(batch)
  const answer = await askGraphQL(state, query, variables, cost)
  // An answer without data (unreadable, or an error such as a query timeout) is a transient failure, about what was
  // asked: onBatchFailure splits it.
  if ('failure' in answer) return onBatchFailure(state, batch, answer.failure, counts)
  const { data, errors } = answer
  state.failuresInARow = 0

  const again: RefreshTarget[] = []
  batch.forEach((target, i) => {
    const alias = aliasOf(i)
    const value = data[alias]
    if (value === null || value === undefined) {
      const own = errors.filter((e) => Array.isArray(e?.path) && e.path[0] === alias)
      const notFound = own.find((e) => e.type === 'NOT_FOUND' || e.type === 'FORBIDDEN')
      if (notFound) {
        const why = notFound.type === 'FORBIDDEN' ? 'no access' : 'not found'
        state.outcomes.set(target.slug, { status: 'not-found', reason: capReason(`${why}: ${notFound.message ?? ''}`) })
      } else again.push(target)
      return
    }
    const snapshot = snapshotFromGraphQL(value)
    if (!snapshot) again.push(target)
    else if (wantsOlder(snapshot, target)) state.older.push({ target, snapshot })
    else settle(state, target, snapshot)
  })
  if (again.length === batch.length) {
    return onBatchFailure(
      state,
      batch,
      { kind: 'transient', status: 200, message: 'every repository in the batch errored', serviceDown: false },
      counts
    )
  }
  // Some repositories errored while the rest answered: ask again for those only (GitHub answered: no breaker count).
  return again.length > 0 ? { failed: false, next: () => runBatch(state, again, false) } : { failed: false }
}

/**
 * A rate limit or a refused token ends the asking for the whole run: the outcome every app not yet answered gets
 * (the budget or the stop is recorded once); null for a failure that concerns this request alone.
 */
function runWideStop(state: RunState, failure: RequestFailure, what: string): RefreshOutcome | null {
  if (failure.kind === 'rate-limited') {
    state.budget.exhausted ??= 'GitHub rate limit reached'
    return { status: 'skipped', reason: state.budget.exhausted }
  }
  if (failure.kind !== 'unauthorized') return null
  state.stats.tokenRefused ??= what
  state.stopped ??= { status: 'failed', reason: `GitHub rejected the token (${what})` }
  return state.stopped
}

function skippedFor(reason: string | null): RefreshOutcome | null {
  return reason ? { status: 'skipped', reason } : null
}

/**
 * Why no request of `cost` more points is to be made (the budget already spent, or what is left would dip into the
 * reserve, which then marks it spent), or null when it may be.
 */
function budgetExhausted(state: RunState, cost: number): string | null {
  const { budget, stats, options } = state
  if (budget.exhausted) return budget.exhausted
  const minRemaining = options.minRemaining ?? DEFAULT_MIN_REMAINING
  if (stats.remaining !== null && stats.remaining - budget.inFlight - cost < minRemaining)
    budget.exhausted = `GraphQL budget too low (${stats.remaining} points left, ${minRemaining} kept in reserve)`
  return budget.exhausted
}

type GqlBody = { data?: Record<string, unknown> | null; errors?: GqlError[] }

/**
 * One GraphQL request of `cost` points (held in flight while it runs): its data, with the points it cost and
 * those left recorded, or why it failed. GitHub answers a rate limit with 200 and a RATE_LIMITED error: a failure;
 * so is an answer without data (a transient one, carrying GitHub's error messages).
 */
async function askGraphQL(
  state: RunState,
  query: string,
  variables: Record<string, unknown>,
  cost: number
): Promise<{ data: Record<string, unknown>; errors: GqlError[] } | { failure: RequestFailure }> {
  const { stats, budget, options } = state
  budget.inFlight += cost
  let body: GqlBody
  try {
    const res = await state.client.octokit.request({ method: 'POST', url: options.graphqlUrl, query, variables })
    const data = answerData(res.data)
    body = (data && typeof data === 'object' ? data : {}) as GqlBody
  } catch (error) {
    return { failure: classifyFailure(error) }
  } finally {
    budget.inFlight -= cost
  }
  const rate = rateLimitAnswer.safeParse(body.data?.rateLimit)
  if (rate.success) {
    stats.graphqlPoints += rate.data.cost
    stats.remaining = rate.data.remaining
  }
  const errors = Array.isArray(body.errors) ? body.errors : []
  if (errors.some((e) => e?.type === 'RATE_LIMITED'))
    return { failure: { kind: 'rate-limited', status: 200, message: 'RATE_LIMITED', serviceDown: true } }
  if (!body.data || typeof body.data !== 'object') {
    const message = errors.map((e) => e?.message ?? '').join('; ') || 'no data in the GraphQL answer'
    return { failure: { kind: 'transient', status: 200, message, serviceDown: false } }
  }
  return { data: body.data, errors }
}

/**
 * A batch whose request failed: stop, give up, or go on (split it, or read a single repository over REST).
 *
 * The breaker counts failures that say GitHub is down, not the bisection of one repository GraphQL cannot answer
 * (a timeout, a 502 for a heavy query, an answer cut off): such a repository fails every batch that holds it, so
 * halving down to it fails about log2(batch) requests in a row, and with a few of them in flight at once that used to
 * trip the breaker and stop the whole refresh. So a half's failure counts only when its parent's failure does not
 * explain it: the first half's never does (the fault may lie in it); the second half's does when the first answered
 * (the fault must lie in it), and counts when the first failed too (two disjoint sets of repositories failed). Both
 * halves are asked before either is split, so a GitHub that is down still trips the breaker within a few requests.
 */
async function onBatchFailure(
  state: RunState,
  batch: RefreshTarget[],
  failure: RequestFailure,
  counts: boolean
): Promise<Asked> {
  const { log } = state.options
  const done = (outcome: RefreshOutcome): Asked => {
    markAll(state, batch, outcome)
    return { failed: true }
  }
  const late = pastDeadline(state)
  if (late) return done(late)
  const what = `${failure.status ?? 'network error'}: ${capReason(failure.message)}`
  const stop = runWideStop(state, failure, what)
  if (stop) {
    if (failure.kind === 'unauthorized') log.error(`GitHub rejected the token; not asking further (${what})`)
    return done(stop)
  }
  // A wrong GraphQL URL or a token without access: splitting cannot help.
  if (failure.kind !== 'transient') return done({ status: 'failed', reason: `GitHub GraphQL answered ${what}` })
  // Only a service that is down trips the breaker; one repository's oversized or malformed answer is split down to it.
  if (failure.serviceDown && counts) tripBreaker(state, what)
  if (state.stopped) return done(state.stopped)
  if (batch.length === 1) return { failed: true, next: () => restFallback(state, batch[0]!, what) }
  return {
    failed: true,
    next: async () => {
      const half = Math.ceil(batch.length / 2)
      log.info(`GitHub batch of ${batch.length} failed (${what}); splitting into ${half} + ${batch.length - half}`)
      const first = await askBatch(state, batch.slice(0, half), false)
      const second = await askBatch(state, batch.slice(half), first.failed)
      await first.next?.()
      await second.next?.()
    }
  }
}

function tripBreaker(state: RunState, what: string): boolean {
  state.failuresInARow++
  const max = state.options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES
  if (state.failuresInARow >= max && !state.stopped) {
    state.stopped = { status: 'failed', reason: `GitHub kept failing; stopped asking (${what})` }
    state.options.log.warning(`GitHub failed ${state.failuresInARow} times in a row; not asking further this run`)
  }
  return state.stopped !== null
}

async function restFallback(state: RunState, target: RefreshTarget, graphqlFailure: string): Promise<void> {
  pastDeadline(state)
  if (state.stopped) return markAll(state, [target], state.stopped)
  state.options.log.info(`GitHub GraphQL could not answer for ${target.repo} (${graphqlFailure}); reading it over REST`)
  state.stats.restFallbacks = (state.stats.restFallbacks ?? 0) + 1
  try {
    const snapshot = await snapshotFromRest(state.client, target, state.options.maxReleasesRead)
    state.failuresInARow = 0
    settle(state, target, snapshot)
  } catch (error) {
    const late = pastDeadline(state)
    if (late) return markAll(state, [target], late)
    const f = classifyFailure(error)
    const what = `${f.status ?? 'network error'}: ${capReason(f.message)}`
    if (f.kind === 'not-found' || f.kind === 'forbidden') {
      state.outcomes.set(target.slug, {
        status: 'not-found',
        reason: capReason(`${f.kind === 'forbidden' ? 'no access' : 'not found'} (REST ${what})`)
      })
    } else if (f.kind === 'rate-limited') {
      state.budget.exhausted ??= 'GitHub rate limit reached'
      state.outcomes.set(target.slug, { status: 'skipped', reason: state.budget.exhausted })
    } else {
      if (f.serviceDown) tripBreaker(state, what)
      state.outcomes.set(target.slug, {
        status: 'failed',
        reason: capReason(`GraphQL ${graphqlFailure}; REST ${what}`)
      })
    }
  }
}

/** An app whose first answer did not reach the version published before, with what was read so far. */
interface Older {
  target: RefreshTarget
  snapshot: RepoSnapshot
}

/**
 * Page back through the releases of the apps that need it (see query.ts), OLDER_BATCH apps a request, until each
 * meets the version published before, the oldest release or the cap. Whatever stops it (the cap, a failure, the
 * budget, the deadline), each app is settled with what was read: the span not read becomes a gap in its history.
 */
async function readOlder(state: RunState, items: Older[], concurrency: number): Promise<void> {
  state.stats.pagedApps = (state.stats.pagedApps ?? 0) + items.length
  let open = items
  while (open.length > 0) {
    const chunks: Older[][] = []
    for (let i = 0; i < open.length; i += OLDER_BATCH) chunks.push(open.slice(i, i + OLDER_BATCH))
    const next: Older[] = []
    let at = 0
    const worker = async (): Promise<void> => {
      while (at < chunks.length) next.push(...(await olderPage(state, chunks[at++]!)))
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker))
    open = next
  }
}

/** One follow-up request; returns the apps that still want older releases. */
async function olderPage(state: RunState, chunk: Older[]): Promise<Older[]> {
  const { options, stats } = state
  const cap = Math.max(1, options.maxReleasesRead ?? MAX_RELEASES_READ)
  // At the cap (or where REST left no cursor): settled with what was read, the rest a gap (facts.ts: unreadSpan).
  const asked = chunk.filter((o) => typeof o.snapshot.releasesAfter === 'string' && o.snapshot.releases.length < cap)
  for (const o of chunk) if (!asked.includes(o)) settle(state, o.target, o.snapshot)
  if (asked.length === 0) return []
  // A read cut short for a passing reason (deadline, budget, GitHub down) is not a gap: the app keeps last-known-good
  // and the next run reads it all again.
  const targets = asked.map((o) => o.target)
  pastDeadline(state)
  if (state.stopped) return markOlder(state, targets, state.stopped)
  const exhausted = budgetExhausted(state, 1)
  if (exhausted) return markOlder(state, targets, { status: 'skipped', reason: exhausted })
  const { query, variables } = buildOlderQuery(
    asked.map((o) => ({
      repo: o.target.repo,
      cursor: o.snapshot.releasesAfter as string,
      first: Math.min(OLDER_PAGE, cap - o.snapshot.releases.length)
    }))
  )
  stats.olderPages = (stats.olderPages ?? 0) + 1
  const answer = await askGraphQL(state, query, variables, 1)
  if ('failure' in answer) return olderFailed(state, asked, answer.failure)
  const { data } = answer
  state.failuresInARow = 0
  const open: Older[] = []
  const unanswered: Older[] = []
  asked.forEach((o, i) => {
    const page = olderFromGraphQL(data[aliasOf(i)])
    if (!page) return void unanswered.push(o)
    o.snapshot.releases.push(...page.releases)
    if (page.releasesAfter === undefined) delete o.snapshot.releasesAfter
    else o.snapshot.releasesAfter = page.releasesAfter
    if (wantsOlder(o.snapshot, o.target) && page.releases.length > 0) open.push(o)
    else settle(state, o.target, o.snapshot)
  })
  // A repository whose older releases GraphQL would not give: read over REST, as a batch that keeps failing is.
  for (const o of unanswered) await restFallback(state, o.target, 'its older releases were not in the answer')
  return open
}

/** Apps whose paging back stopped for a passing reason: last-known-good (see olderPage). */
function markOlder(state: RunState, targets: RefreshTarget[], outcome: RefreshOutcome): [] {
  markAll(state, targets, outcome)
  return []
}

/** A follow-up request failed: stop, skip or fall back to REST, as for a batch (see onBatchFailure). */
async function olderFailed(state: RunState, asked: Older[], failure: RequestFailure): Promise<[]> {
  const targets = asked.map((o) => o.target)
  const late = pastDeadline(state)
  if (late) return markOlder(state, targets, late)
  const what = `${failure.status ?? 'network error'}: ${capReason(failure.message)}`
  const stop = runWideStop(state, failure, what)
  if (stop) return markOlder(state, targets, stop)
  switch (failure.kind) {
    case 'transient':
      if (failure.serviceDown && tripBreaker(state, what)) return markOlder(state, targets, state.stopped!)
      break
    default:
      return markOlder(state, targets, { status: 'failed', reason: `GitHub GraphQL answered ${what}` })
  }
  state.options.log.info(
    `GitHub: older releases of ${asked.length} apps could not be read (${what}); reading them over REST`
  )
  for (const t of targets) await restFallback(state, t, what)
  return []
}
