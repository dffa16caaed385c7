// GitHub Models: an OpenAI-compatible chat-completions API that a workflow reaches with its own
// GITHUB_TOKEN when the job has `permissions: models: read`. One request is POST
// `${endpoint}/chat/completions` with {model, messages, temperature, seed, response_format}; the answer
// is {choices: [{message: {content}}], usage}.
//
// Limits of the free (low) tier, which the default model belongs to, as GitHub documents them
// ("Prototyping with AI models", docs.github.com/en/github-models/use-github-models/prototyping-with-ai-models#rate-limits;
// the model catalog, GET https://models.github.ai/catalog/models, gives openai/gpt-4.1-mini `rate_limit_tier: "low"`):
// 15 requests a minute, 150 requests a day, 8,000 tokens in and 4,000 out per request, 5 at once. Past a limit
// GitHub answers 429 with `retry-after` (seconds); a daily limit says so in `x-ratelimit-type` and asks for hours.
import { networkFailure } from '../util/network.js'

export const MODELS_DEFAULT_ENDPOINT = 'https://models.github.ai/inference'
/** A low-tier model (see the limits above). */
export const DEFAULT_MODEL = 'openai/gpt-4.1-mini'
/** Calls per run by default: two thirds of the low tier's 150 a day, leaving room for retries and other use. */
export const DEFAULT_MAX_MODEL_CALLS = 100

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
  for (let waits = 0; ; waits++) {
    const left = opts.deadlineAt - now()
    if (left <= 0) throw new ModelsError(`the deadline for model calls passed before asking ${host}`, 'deadline')
    const timeout = AbortSignal.timeout(Math.min(opts.timeoutMs, left))
    let res: Response
    let text: string
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
      text = await res.text()
    } catch (e) {
      const f = networkFailure(e, host, { timeout, timeoutMs: Math.min(opts.timeoutMs, left) })
      if (f?.fault === 'timeout')
        throw new ModelsError(f.message, opts.deadlineAt - now() <= 0 ? 'deadline' : 'timeout')
      throw new ModelsError(f?.message ?? `the request to ${host} failed (${(e as Error).message})`, 'network')
    }
    if (res.status === 429) {
      const wait = retryAfterMs(res.headers.get('retry-after'), now())
      const kind = res.headers.get('x-ratelimit-type')
      if (wait !== null && waits < MAX_WAITS && now() + wait < opts.deadlineAt) {
        await sleep(wait)
        continue
      }
      throw new ModelsError(
        `${host} limits the rate${kind ? ` (${kind.slice(0, 40)})` : ''}${wait !== null ? `: retry after ${Math.ceil(wait / 1000)} s, past the deadline for model calls` : ''}`,
        'rate-limited'
      )
    }
    if (res.status === 401 || res.status === 403 || res.status === 404)
      throw new ModelsError(
        `${host} refused the request (HTTP ${res.status}): the token may lack the models: read permission, or the model "${body.model}" is not offered`,
        'refused'
      )
    if (!res.ok) throw new ModelsError(`${host} answered HTTP ${res.status}`, 'http')
    let response: unknown
    try {
      response = JSON.parse(text)
    } catch {
      throw new ModelsError(`${host} answered with a body that is not JSON`, 'http')
    }
    return { content: contentOf(response), response }
  }
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
