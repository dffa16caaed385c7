// GitHub Models: an OpenAI-compatible chat-completions API that a workflow reaches with its own
// GITHUB_TOKEN when the job has `permissions: models: read`. One request is POST
// `${endpoint}/chat/completions` with {model, messages, temperature, seed, response_format}; the answer
// is {choices: [{message: {content}}], usage}.
//
// Limits of the free (low) tier, which the default model belongs to, as GitHub documents them
// ("Prototyping with AI models", docs.github.com/en/github-models/use-github-models/prototyping-with-ai-models#rate-limits;
// the model catalog, GET https://models.github.ai/catalog/models, gives openai/gpt-4.1-mini `rate_limit_tier: "low"`):
// 15 requests a minute, 150 requests a day, 8,000 tokens in and 4,000 out per request, 5 at once; the high tier
// (openai/gpt-4.1) 10 a minute, 50 a day, 2 at once (docs/operating.md has the table). Past a limit GitHub answers
// 429 with `retry-after` (seconds); a daily limit says so in `x-ratelimit-type` and asks for hours, and the judge
// passes the releases left to the next model of its list (pipeline/judge-models.ts: modelList).
import { readBoundedBody } from '../util/bounded-body.js'
import { networkFailure } from '../util/network.js'

export const MODELS_DEFAULT_ENDPOINT = 'https://models.github.ai/inference'
/** A low-tier model (see the limits above). */
export const DEFAULT_MODEL = 'openai/gpt-4.1-mini'
/** Calls per run by default: two thirds of the low tier's 150 a day, leaving room for retries and other use. */
export const DEFAULT_MAX_MODEL_CALLS = 100

/**
 * Largest answer read. The judge asks for at most 400 tokens (judge-models.ts: max_tokens), about 2 KB of JSON even
 * written as \u escapes, in an envelope (ids, usage, content-filter results) of a few KB: 1 MiB leaves a hundredfold
 * room while an endless or oversized answer costs at most that much memory.
 */
export const MODELS_MAX_ANSWER_BYTES = 1024 * 1024

/**
 * Why the token may not be sent to `endpoint`, or null when it may: only over https, or plain http to this machine
 * (127.0.0.0/8, ::1, localhost; a local stand-in or proxy), so a mistyped address never carries it in the clear.
 */
export function endpointRefusal(endpoint: string): string | null {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return 'is not an http(s) address'
  }
  // Fetch refuses such an address on every call; said once, at the start, the run does not go on to fail three times.
  if (url.username || url.password) return 'holds a user name or password: the GitHub token is what is sent'
  if (url.protocol === 'https:') return null
  if (url.protocol !== 'http:') return 'is not an http(s) address'
  if (isLoopback(url.hostname)) return null
  return 'must be an https address (plain http only to 127.0.0.0/8, ::1 or localhost): the GitHub token would go out unencrypted'
}

/** A host name of this machine as the WHATWG URL parser writes it (IPv4 normalised, IPv6 in brackets). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  temperature: number
  seed: number
  max_tokens: number
  response_format: { type: 'json_object' }
}

export type ModelsFault =
  /** 429 whose wait does not fit before the deadline: no more calls this run. */
  | 'rate-limited'
  /** 401/403/404: the token does not reach the endpoint or the model. No more calls this run. */
  | 'refused'
  /** Any other HTTP status, or an answer that is not the chat-completions shape. */
  | 'http'
  | 'network'
  | 'timeout'
  /** The run's deadline for model calls passed. No more calls this run. */
  | 'deadline'

export class ModelsError extends Error {
  constructor(
    message: string,
    readonly fault: ModelsFault
  ) {
    super(message)
    this.name = 'ModelsError'
  }

  /** Whether no further call can succeed in this run. */
  get final(): boolean {
    return this.fault === 'rate-limited' || this.fault === 'refused' || this.fault === 'deadline'
  }
}

export interface ModelsClientOptions {
  endpoint: string
  token: string
  /** Longest wait for one request, in ms. */
  timeoutMs: number
  /** When model calls must stop (ms since the epoch): a 429's wait is taken only when it ends before. */
  deadlineAt: number
  fetch?: typeof fetch
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

export interface ChatAnswer {
  /** The first choice's message content; null when there is none. */
  content: string | null
  /** The response body as received (for recording answers). */
  response: unknown
}

/** Seconds of a `retry-after` header (a number, or an HTTP date), in ms; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null
  const n = Number(value)
  if (Number.isFinite(n) && n >= 0) return n * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

/** 429s waited out per request before the service counts as run out. */
const MAX_WAITS = 3

/** One chat completion. Throws ModelsError on every failure; never logs (the caller says what happened). */
export async function chatCompletion(body: ChatRequest, opts: ModelsClientOptions): Promise<ChatAnswer> {
  const doFetch = opts.fetch ?? fetch
  const now = opts.now ?? Date.now
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const url = `${opts.endpoint.replace(/\/+$/, '')}/chat/completions`
  const host = hostOf(url)
  // The inputs refuse such an endpoint at the start of a run (inputs.ts); this holds for every other caller.
  const refusal = endpointRefusal(opts.endpoint)
  if (refusal) throw new ModelsError(`the models endpoint ${refusal}; nothing was sent`, 'refused')
  let waited = 0
  for (let waits = 0; ; waits++) {
    const left = opts.deadlineAt - now()
    if (left <= 0) throw new ModelsError(`the deadline for model calls passed before asking ${host}`, 'deadline')
    const timeout = AbortSignal.timeout(Math.min(opts.timeoutMs, left))
    let res: Response
    let read: Awaited<ReturnType<typeof readBoundedBody>>
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${opts.token}`,
          'content-type': 'application/json',
          accept: 'application/json'
        },
        body: JSON.stringify(body),
        signal: timeout
      })
      // Bounded: an answer without end, or of hundreds of MB, is cut off instead of held whole.
      read = await readBoundedBody(res, MODELS_MAX_ANSWER_BYTES, timeout, Math.min(opts.timeoutMs, left))
    } catch (e) {
      const f = networkFailure(e, host, { timeout, timeoutMs: Math.min(opts.timeoutMs, left) })
      if (f?.fault === 'timeout')
        throw new ModelsError(f.message, opts.deadlineAt - now() <= 0 ? 'deadline' : 'timeout')
      throw new ModelsError(f?.message ?? `the request to ${host} failed (${(e as Error).message})`, 'network')
    }
    if (res.status === 429) {
      const wait = retryAfterMs(res.headers.get('retry-after'), now())
      const kind = res.headers.get('x-ratelimit-type')
      const fits = wait !== null && now() + wait < opts.deadlineAt
      if (fits && waits < MAX_WAITS) {
        await sleep(wait)
        waited += wait
        continue
      }
      throw new ModelsError(
        `${host} limits the rate${kind ? ` (${kind.slice(0, 40)})` : ''}: ${rateLimitWords(wait, fits, waits, waited, opts.deadlineAt - now())}`,
        'rate-limited'
      )
    }
    if (res.status === 401 || res.status === 403 || res.status === 404)
      throw new ModelsError(
        `${host} refused the request (HTTP ${res.status}): the token may lack the models: read permission, or the model "${body.model}" is not offered`,
        'refused'
      )
    if (!res.ok) throw new ModelsError(`${host} answered HTTP ${res.status}`, 'http')
    if ('cut' in read) {
      const fault = !timeout.aborted ? 'http' : opts.deadlineAt - now() <= 0 ? 'deadline' : 'timeout'
      throw new ModelsError(`${host} answered with a body that ${read.cut}`, fault)
    }
    let response: unknown
    try {
      response = JSON.parse(read.bytes.toString('utf8'))
    } catch {
      throw new ModelsError(`${host} answered with a body that is not JSON`, 'http')
    }
    return { content: contentOf(response), response }
  }
}

/**
 * Why a 429 ends the model calls, in words that say what was done: nothing to wait for, a wait that ends past the
 * deadline (so not taken), or waits taken already and still limited.
 */
function rateLimitWords(wait: number | null, fits: boolean, waits: number, waitedMs: number, leftMs: number): string {
  const s = (ms: number) => `${Math.ceil(ms / 1000)} s`
  const before = waits > 0 ? ` after waiting ${waits} time${waits === 1 ? '' : 's'} (${s(waitedMs)} in all)` : ''
  if (wait === null) return `no readable retry-after to wait for${before}; not asked again`
  if (!fits)
    return `its retry-after of ${s(wait)} ends past the deadline for model calls (${s(Math.max(0, leftMs))} left), so it was not waited for${before}`
  return `still limited${before}; gave up rather than wait ${s(wait)} more`
}

/** The first choice's message content of a chat-completions response, or null. */
export function contentOf(response: unknown): string | null {
  const choices = (response as { choices?: unknown } | null)?.choices
  if (!Array.isArray(choices) || choices.length === 0) return null
  const content = (choices[0] as { message?: { content?: unknown } } | null)?.message?.content
  return typeof content === 'string' ? content : null
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return 'the models endpoint'
  }
}
