// A local stand-in for GitHub Models on 127.0.0.1 (port 0): POST /inference/chat/completions answers in the
// chat-completions response shape ({id, object, created, model, choices: [{index, message: {role, content},
// finish_reason}], usage}). What it answers is the test's: a function of the request, which may also answer
// with a status, headers, a raw body, a delay, or nothing at all. Every request is kept.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeRequest {
  method: string
  path: string
  authorization: string | undefined
  body: {
    model: string
    messages: { role: string; content: string }[]
    temperature: number
    seed: number
    response_format: unknown
    [k: string]: unknown
  }
}

export interface FakeReply {
  status?: number
  headers?: Record<string, string>
  /** The message content of a 200 (wrapped in the response shape); ignored when `raw` is given. */
  content?: string | null
  /** A raw body, sent as it is. */
  raw?: string
  /** Wait this long before answering. */
  delayMs?: number
  /**
   * A 200 whose body is a chat-completions answer with this many bytes of content, sent in chunks as the client
   * reads them, without a Content-Length; Infinity: it never ends (until the client stops reading).
   */
  streamBytes?: number
}

export interface FakeModels {
  /** The API base, as `models-endpoint` takes it: requests go to its /chat/completions. */
  endpoint: string
  requests: FakeRequest[]
  close(): Promise<void>
}

/** A chat-completions response with one choice. */
export function completion(model: string, content: string | null): unknown {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_764_300_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 900, completion_tokens: 60, total_tokens: 960 }
  }
}

/** The notes the judge sent, read back from between its fence lines. */
export function notesOf(req: FakeRequest): string {
  const user = req.body.messages.find((m) => m.role === 'user')?.content ?? ''
  const m = /^<<<(NOTES-[0-9a-f]{16})\n([\s\S]*)\n\1>>>$/m.exec(user)
  return m ? m[2]! : ''
}

/** The release the judge asked about. */
export function releaseOf(req: FakeRequest): string {
  const user = req.body.messages.find((m) => m.role === 'user')?.content ?? ''
  return /^Release: (.*)$/m.exec(user)?.[1] ?? ''
}

/** An answer as JSON, as the model gives it. */
export function answer(cls: string, line: string, reason = 'What the line means for the admin.'): string {
  return JSON.stringify({ class: cls, breakingKind: cls === 'breaking' ? 'required' : null, line, reason })
}

/**
 * A careful reader, for the pipeline tests: a line with "BREAKING" or "must" is breaking, one with "changed" is
 * caution, anything else safe, quoting the first line of the notes that decided.
 */
export function reader(req: FakeRequest): FakeReply {
  const lines = notesOf(req)
    .split('\n')
    .map((l) => l.replace(/^[-*]\s+/, '').trim())
    .filter((l) => l !== '')
  if (lines.length === 0) return { content: answer('unknown', '') }
  const breaking = lines.find((l) => /BREAKING|\bmust\b/.test(l))
  if (breaking) return { content: answer('breaking', breaking) }
  const changed = lines.find((l) => /\bchanged?\b/i.test(l))
  if (changed) return { content: answer('caution', changed) }
  return { content: answer('safe', lines[0]!) }
}

/** An answer whose content is `bytes` letters, written as fast as the client reads it. */
async function stream(res: http.ServerResponse, bytes: number): Promise<void> {
  const chunk = 'a'.repeat(64 * 1024)
  let sent = 0
  if (!res.write('{"choices":[{"index":0,"message":{"role":"assistant","content":"')) await drained(res)
  while (sent < bytes && !res.destroyed) {
    const part = bytes - sent >= chunk.length ? chunk : chunk.slice(0, bytes - sent)
    sent += part.length
    if (!res.write(part)) await drained(res)
  }
  if (!res.destroyed) res.end('"}}]}')
}

/** Resolves when the socket takes more, or is gone. */
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((ok) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      ok()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

export async function startFakeModels(
  reply: (req: FakeRequest, n: number) => FakeReply | Promise<FakeReply>
): Promise<FakeModels> {
  const requests: FakeRequest[] = []
  const sockets = new Set<import('node:net').Socket>()
  const server = http.createServer((req, res) => {
    let data = ''
    req.on('data', (d: Buffer) => (data += d.toString()))
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || req.url !== '/inference/chat/completions') {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found"}}')
          return
        }
        let body: FakeRequest['body']
        try {
          body = JSON.parse(data)
        } catch {
          res.writeHead(400).end()
          return
        }
        const r: FakeRequest = { method: req.method, path: req.url, authorization: req.headers.authorization, body }
        requests.push(r)
        const out = await reply(r, requests.length)
        // Unreferenced: a test that gave up on the answer does not wait for it.
        if (out.delayMs) await new Promise((ok) => setTimeout(ok, out.delayMs).unref())
        if (res.destroyed) return
        const status = out.status ?? 200
        if (out.streamBytes !== undefined) {
          res.writeHead(status, { 'content-type': 'application/json', ...out.headers })
          await stream(res, out.streamBytes)
          return
        }
        res.writeHead(status, { 'content-type': 'application/json', ...out.headers })
        res.end(out.raw ?? (status === 200 ? JSON.stringify(completion(body.model, out.content ?? null)) : '{}'))
      })()
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}/inference`,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy()
        server.close(() => ok())
      })
  }
}
