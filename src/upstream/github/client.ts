// The Octokit client for the refresh: @actions/github's getOctokit (proxy-aware)
// with the throttling and retry plugins, timings injectable so tests run fast,
// and a counter of every HTTP attempt (retries included).
import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { throttling, type ThrottlingOptions } from '@octokit/plugin-throttling'
import { hostOf, networkFailure, type NetworkFailure } from '../../util/network.js'
import type { Logger } from '../../util/types.js'

export interface RetryTimings {
  /** Retries after a 5xx, a 429 or a connection reset (plugin-retry). Default 3. */
  retries?: number
  /** Milliseconds per backoff unit: waits are 1, 4, 9 units (plugin-retry). Default 1000. */
  baseMs?: number
}

export interface ThrottleTimings {
  /** Milliseconds per second of `retry-after` / `x-ratelimit-reset`. Default 1000 (real time). */
  baseMs?: number
  /** Longest wait, in seconds, we accept before retrying; longer means stop asking. Default 60. */
  maxWaitSeconds?: number
  /** Retries after a rate-limit answer. Default 3. */
  retries?: number
}

export interface ClientOptions {
  token: string
  /** REST base URL (GITHUB_API_URL). */
  apiUrl: string
  log: Logger
  retry?: RetryTimings
  throttle?: ThrottleTimings
  /** Longest wait for one HTTP attempt, in ms. Default 20,000. */
  requestTimeoutMs?: number
  /** Aborts every request when the run's deadline passes. */
  deadline?: AbortSignal
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000

/**
 * A request that failed below HTTP, named (DNS, refused, reset, timeout, deadline) with its host. Only a reset
 * carries `status` and `request`, so plugin-retry tries it again; a lookup that failed, a refused connection or a
 * silent server would fail the same way within seconds, and the refresh splits, falls back and stops on its own.
 */
export class NetworkError extends Error {
  override name = 'NetworkError'
  status?: number
  request?: unknown
  constructor(
    readonly network: NetworkFailure,
    cause: unknown
  ) {
    super(network.message, { cause })
    if (network.fault === 'reset') {
      this.status = 500
      this.request = (cause as { request?: unknown }).request
    }
  }
}

export interface RequestCounter {
  requests: number
}

type Octokit = ReturnType<typeof getOctokit>

export interface GitHubClient {
  octokit: Octokit
  counter: RequestCounter
}

type Hook = (request: (o: unknown) => Promise<unknown>, options: unknown) => Promise<unknown>
interface Hookable {
  hook: { wrap(name: 'request', hook: Hook): void }
}

function header(error: unknown, name: string): string | undefined {
  const headers = (error as { response?: { headers?: Record<string, unknown> } })?.response?.headers
  const v = headers?.[name]
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined
}

/**
 * Innermost plugin (plugins listed first wrap closest to the wire): count every
 * attempt, and when a 5xx or a plain 429 carries `retry-after`, wait that long
 * before plugin-retry adds its own backoff (plugin-retry ignores the header;
 * secondary and primary rate limits are the throttling plugin's job).
 */
function attemptsPlugin(counter: RequestCounter, baseMs: number, maxWaitSeconds: number, limits: Limits) {
  return (octokit: unknown) => {
    ;(octokit as Hookable).hook.wrap('request', async (request, options) => {
      counter.requests++
      // Each attempt gets its own timeout; the run's deadline cuts every attempt at once.
      const timeout = AbortSignal.timeout(limits.requestTimeoutMs)
      const signal = limits.deadline ? AbortSignal.any([timeout, limits.deadline]) : timeout
      const o = options as { url?: string; baseUrl?: string; request?: Record<string, unknown> }
      o.request = { ...o.request, signal }
      try {
        return await request(options)
      } catch (error) {
        const host = requestHost(o.url, o.baseUrl ?? limits.apiUrl)
        const network = networkFailure(error, host, { timeout, timeoutMs: limits.requestTimeoutMs, ...limits })
        if (network) throw new NetworkError(network, error)
        const status = (error as { status?: number }).status ?? 0
        const secondary = /secondary rate/i.test(String((error as Error).message))
        const after = Number(header(error, 'retry-after'))
        if ((status >= 500 || (status === 429 && !secondary)) && Number.isFinite(after) && after > 0) {
          await new Promise((r) => setTimeout(r, Math.min(after, maxWaitSeconds) * baseMs))
        }
        throw error
      }
    })
    return {}
  }
}

function requestHost(url: string | undefined, base: string): string {
  try {
    return new URL(url ?? '', `${base}/`).host
  } catch {
    return hostOf(base)
  }
}

interface Limits {
  requestTimeoutMs: number
  deadline?: AbortSignal
  apiUrl: string
}

// plugin-throttling queues every GraphQL request behind one limiter with a
// 1-second gap, GitHub's advice for mutations. Our queries only read; how many
// run at once is bounded by the caller's own pool, so this group lets them pass.
const passThroughGroup = {
  key: () => ({ schedule: (_opts: unknown, fn: (...a: unknown[]) => unknown, ...args: unknown[]) => fn(...args) })
}

export function createGitHubClient(opts: ClientOptions): GitHubClient {
  const counter: RequestCounter = { requests: 0 }
  const throttleBase = opts.throttle?.baseMs ?? 1000
  const maxWait = opts.throttle?.maxWaitSeconds ?? 60
  const throttleRetries = opts.throttle?.retries ?? 3
  const onLimit =
    (kind: string) =>
    (retryAfter: number, options: { method?: string; url?: string }, _o: unknown, retryCount: number): boolean => {
      const go = retryCount < throttleRetries && retryAfter <= maxWait
      // Says what happens and why: the wait is taken, or the request fails (too long a wait, or too many).
      const why =
        retryAfter > maxWait ? `longer than the ${maxWait} s a refresh waits` : `${retryCount} retries already`
      opts.log.info(
        `GitHub ${kind} on ${options.method ?? ''} ${options.url ?? ''}: ${go ? `retrying in ${retryAfter} s` : `gave up rather than wait ${retryAfter} s (${why})`}`
      )
      return go
    }
  const throttle = {
    onRateLimit: onLimit('rate limit'),
    onSecondaryRateLimit: onLimit('secondary rate limit'),
    retryAfterBaseValue: throttleBase,
    fallbackSecondaryRateRetryAfter: 60,
    write: passThroughGroup
  } as unknown as ThrottlingOptions
  const octokit = getOctokit(
    opts.token,
    {
      baseUrl: opts.apiUrl.replace(/\/+$/, ''),
      throttle,
      retry: { retries: opts.retry?.retries ?? 3, retryAfterBaseValue: opts.retry?.baseMs ?? 1000 }
    },
    attemptsPlugin(counter, throttleBase, maxWait, {
      requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      apiUrl: opts.apiUrl,
      ...(opts.deadline ? { deadline: opts.deadline } : {})
    }),
    throttling,
    retry
  )
  return { octokit, counter }
}

/**
 * An answer's data. Octokit's JSON reader gives up on a very large body (a 10 MB release body overflows its
 * stack) and hands back the text; the platform's parser reads it, and the notes are capped after. Text that is
 * not JSON (an answer cut off) stays text, which callers treat as no answer.
 */
export function answerData(data: unknown): unknown {
  if (typeof data !== 'string') return data
  try {
    return JSON.parse(data) as unknown
  } catch {
    return data
  }
}

/** What a failed request tells us, without ever carrying headers (or the token) along. */
export interface RequestFailure {
  kind: 'rate-limited' | 'transient' | 'unauthorized' | 'not-found' | 'forbidden' | 'client'
  status: number | null
  message: string
  /**
   * The failure says the service is down (5xx, 429, a rate limit, DNS, refused, reset, timeout), not that one
   * repository's answer was too large or malformed: only these count towards the circuit breaker.
   */
  serviceDown: boolean
}

export function classifyFailure(error: unknown): RequestFailure {
  // Below HTTP: no status to show, the fault and the host instead (a deadline is the caller's to notice).
  if (error instanceof NetworkError)
    return { kind: 'transient', status: null, message: error.message, serviceDown: true }
  const e = error as { status?: number; message?: string; data?: { errors?: { type?: string }[] } }
  const status = typeof e.status === 'number' ? e.status : null
  const message = String(e.message ?? error).slice(0, 300)
  const rateLimited =
    (e.data?.errors ?? []).some((x) => x?.type === 'RATE_LIMITED') ||
    /GraphQL Rate Limit Exceeded/.test(message) ||
    ((status === 403 || status === 429) && header(error, 'x-ratelimit-remaining') === '0')
  const failure = (kind: RequestFailure['kind'], serviceDown = false) => ({ kind, status, message, serviceDown })
  if (rateLimited) return failure('rate-limited', true)
  if (status !== null && (status >= 500 || status === 429)) return failure('transient', true)
  if (status === 403 && /secondary rate/i.test(message)) return failure('transient', true)
  // No status and no network fault: the answer could not be read (malformed, cut off), a fault of its content.
  if (status === null) return failure('transient')
  if (status === 401) return failure('unauthorized')
  if (status === 404 || status === 410) return failure('not-found')
  if (status === 403 || status === 451) return failure('forbidden')
  return failure('client')
}
