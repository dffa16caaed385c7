// The GitHub Models client against the stand-in on loopback: an answer is read under a size bound, the token
// goes only over https (or to this machine), and a rate limit's message says what was done about it.
import { afterEach, describe, expect, it } from '@jest/globals'
import {
  chatCompletion,
  endpointRefusal,
  MODELS_MAX_ANSWER_BYTES,
  ModelsError,
  type ChatRequest,
  type ModelsClientOptions
} from '../../src/upstream/models.js'
import { answer, startFakeModels, type FakeModels } from '../support/fake-models.js'

let fake: FakeModels | null = null
afterEach(async () => {
  await fake?.close()
  fake = null
})

const REQUEST: ChatRequest = {
  model: 'openai/gpt-4.1-mini',
  messages: [{ role: 'user', content: 'Release: v1' }],
  temperature: 0,
  seed: 49,
  max_tokens: 400,
  response_format: { type: 'json_object' }
}

function options(endpoint: string, more: Partial<ModelsClientOptions> = {}): ModelsClientOptions {
  return { endpoint, token: 'test-token-not-a-secret', timeoutMs: 5000, deadlineAt: Date.now() + 60_000, ...more }
}

/** The ModelsError a call ends with. */
async function failure(call: Promise<unknown>): Promise<ModelsError> {
  const e = await call.then(
    () => null,
    (x: unknown) => x
  )
  expect(e).toBeInstanceOf(ModelsError)
  return e as ModelsError
}

describe('chatCompletion reads answers under a bound', () => {
  it('reads an answer of the size a judge asks for', async () => {
    fake = await startFakeModels(() => ({ content: answer('safe', 'Fixed a crash on start') }))
    const a = await chatCompletion(REQUEST, options(fake.endpoint))
    expect(JSON.parse(a.content!)).toMatchObject({ class: 'safe' })
  })

  it('cuts off an answer larger than the bound instead of reading it whole', async () => {
    fake = await startFakeModels(() => ({ streamBytes: 8 * MODELS_MAX_ANSWER_BYTES }))
    const e = await failure(chatCompletion(REQUEST, options(fake.endpoint)))
    expect(e.fault).toBe('http')
    expect(e.message).toBe(
      `${new URL(fake.endpoint).host} answered with a body that is larger than the 1 MiB allowed (cut off there)`
    )
  })

  it('cuts off an answer that never ends, long before the request times out', async () => {
    fake = await startFakeModels(() => ({ streamBytes: Infinity }))
    const e = await failure(chatCompletion(REQUEST, options(fake.endpoint, { timeoutMs: 4000 })))
    // The bound is the size, so it is not the request's timeout that ends it.
    expect(e.fault).toBe('http')
    expect(e.message).toContain('larger than the 1 MiB allowed')
  })
})

describe('the token goes only over https, or to this machine', () => {
  it('refuses plain http to another host without sending anything', async () => {
    const sent: string[] = []
    const spy = (async (url: string | URL | Request) => {
      sent.push(String(url))
      return new Response('{}')
    }) as typeof fetch
    const e = await failure(chatCompletion(REQUEST, options('http://models.example.org/inference', { fetch: spy })))
    expect(e.fault).toBe('refused')
    expect(e.final).toBe(true)
    expect(e.message).toContain('must be an https address')
    expect(sent).toEqual([])
  })

  it('takes https anywhere and plain http to loopback only', () => {
    expect(endpointRefusal('https://models.github.ai/inference')).toBeNull()
    for (const local of ['http://127.0.0.1:8080/x', 'http://127.9.9.9/', 'http://localhost:1/', 'http://[::1]:9/'])
      expect(endpointRefusal(local)).toBeNull()
    for (const remote of [
      'http://models.example.org/',
      'http://10.0.0.1/',
      'http://128.0.0.1/',
      'http://localhost.example.org/',
      'http://[::2]/',
      'http://127.0.0.1.example.org/'
    ])
      expect(endpointRefusal(remote)).toContain('must be an https address')
    expect(endpointRefusal('file:///etc/passwd')).toBe('is not an http(s) address')
    expect(endpointRefusal('not a url')).toBe('is not an http(s) address')
  })

  it('asks a stand-in on localhost', async () => {
    fake = await startFakeModels(() => ({ content: answer('safe', 'Fixed a crash on start') }))
    const local = fake.endpoint.replace('127.0.0.1', 'localhost')
    expect((await chatCompletion(REQUEST, options(local))).content).toContain('safe')
  })
})

describe('a rate limit says what was done', () => {
  it('after the waits it takes: how many and how long, not a deadline that was never reached', async () => {
    fake = await startFakeModels(() => ({ status: 429, headers: { 'retry-after': '2' } }))
    const slept: number[] = []
    const e = await failure(
      chatCompletion(REQUEST, options(fake.endpoint, { sleep: async (ms) => void slept.push(ms) }))
    )
    expect(slept).toEqual([2000, 2000, 2000])
    expect(e.fault).toBe('rate-limited')
    expect(e.message).toBe(
      `${new URL(fake.endpoint).host} limits the rate: still limited after waiting 3 times (6 s in all); gave up rather than wait 2 s more`
    )
  })

  it('with a wait past the deadline: not waited for, and how much time was left', async () => {
    fake = await startFakeModels(() => ({
      status: 429,
      headers: { 'retry-after': '36000', 'x-ratelimit-type': 'UserByModelByDay' }
    }))
    const now = 1_000_000
    const e = await failure(
      chatCompletion(REQUEST, options(fake.endpoint, { now: () => now, deadlineAt: now + 90_000 }))
    )
    expect(e.message).toBe(
      `${new URL(fake.endpoint).host} limits the rate (UserByModelByDay): its retry-after of 36000 s ends past the deadline for model calls (90 s left), so it was not waited for`
    )
  })

  it('without a retry-after: nothing to wait for', async () => {
    fake = await startFakeModels(() => ({ status: 429 }))
    const e = await failure(chatCompletion(REQUEST, options(fake.endpoint)))
    expect(e.message).toContain('no readable retry-after to wait for; not asked again')
    expect(e.message).not.toContain('deadline')
  })
})
