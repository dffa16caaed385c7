// `check` against a hostile snapshot server: a real HTTP server on 127.0.0.1 that answers with an
// endless body, a body that drips, one shorter than its Content-Length, a reset mid-body and a gzip
// bomb. Each is bad input (exit 2) naming the URL, never "crosses a breaking release" (exit 1), and
// no URL is printed with its password.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { createGzip } from 'node:zlib'
import { catalogDocSchema } from '../../src/schema/index.js'
import { snapshotReader } from '../../src/check/snapshot.js'
import { main } from '../../src/commands.js'
import { exitStatus, ProblemsError } from '../../src/util/problems.js'
import type { Logger } from '../../src/util/types.js'
import { tempDir } from '../support/tmp.js'

const MiB = 1024 * 1024
let server: http.Server
let origin: string
let bomb: Buffer
/** Bytes each endless answer sent before the client let go. */
const sent: Record<string, number> = {}
const authSeen: (string | undefined)[] = []

/** Zeros, gzip-compressed: about 80 KB that inflate to `size` bytes. */
async function gzipOfZeros(size: number): Promise<Buffer> {
  const gz = createGzip({ level: 9 })
  const out: Buffer[] = []
  gz.on('data', (c: Buffer) => out.push(c))
  const done = new Promise((ok) => gz.on('end', ok))
  const chunk = Buffer.alloc(MiB)
  for (let n = 0; n < size; n += MiB) if (!gz.write(chunk)) await new Promise((ok) => gz.once('drain', ok))
  gz.end()
  await done
  return Buffer.concat(out)
}

/** Writes `chunk` until the client goes away, minding backpressure. */
function endless(name: string, res: http.ServerResponse, chunk: Buffer, everyMs = 0) {
  sent[name] = 0
  let open = true
  res.on('close', () => (open = false))
  const pump = () => {
    while (open) {
      sent[name]! += chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
      if (everyMs > 0) return void setTimeout(pump, everyMs)
    }
  }
  pump()
}

beforeAll(async () => {
  bomb = await gzipOfZeros(100 * MiB)
  server = http.createServer((req, res) => {
    const site = (req.url ?? '').split('/')[1]
    authSeen.push(req.headers.authorization)
    switch (site) {
      case 'endless':
        res.writeHead(200, { 'content-type': 'application/json' })
        return endless('endless', res, Buffer.alloc(64 * 1024, 0x20))
      case 'declared':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * MiB) })
        return endless('declared', res, Buffer.alloc(64 * 1024, 0x20))
      case 'drip':
        res.writeHead(200, { 'content-type': 'application/json' })
        return endless('drip', res, Buffer.from(' '), 100)
      case 'truncated':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' })
        res.write('{"schema": "')
        return setTimeout(() => res.socket?.destroy(), 50)
      case 'reset':
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{"schema": "')
        return setTimeout(() => res.socket?.destroy(), 50)
      case 'bomb':
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length)
        })
        return res.end(bomb)
      case 'slow':
        // Each document answered just within its own bound (here, a 404 after 2 s): two fit the run's 5 s with a
        // second to spare on a loaded machine, the third cannot.
        return void setTimeout(() => res.writeHead(404).end(), 2000)
      case 'loop':
        res.writeHead(302, { location: req.url })
        return res.end()
      default:
        res.writeHead(404).end()
    }
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 60_000)

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((ok) => server.close(ok))
})

async function check(api: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const err: string[] = []
  const out: string[] = []
  const log: Logger = { info: (m) => err.push(m), warning: (m) => err.push(m), error: (m) => err.push(m) }
  const status = await main(['check', '--api', api, '--from', 'gogs=0.14.3'], log, {}, (t) => out.push(t))
  return { status, stdout: out.join(''), stderr: err.join('\n') }
}

describe('check reads a snapshot document within a size cap and a time bound', () => {
  it('cuts an endless body off at 64 MiB: exit 2 naming the URL', async () => {
    const r = await check(`${origin}/endless`)
    expect(r.status).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(`${origin}/endless/api/v1/apps.json: is larger than the 64 MiB`)
    // Read up to the cap, then let go: not gigabytes.
    expect(sent.endless).toBeLessThan(80 * MiB)
  }, 30_000)

  it('refuses a body whose Content-Length is past the cap before reading it', async () => {
    const r = await check(`${origin}/declared`)
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(`${origin}/declared/api/v1/apps.json: is ${200 * MiB} bytes (Content-Length)`)
    expect(sent.declared).toBeLessThan(16 * MiB)
  })

  it('caps a gzip bomb on its decompressed size', async () => {
    const r = await check(`${origin}/bomb`)
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(`${origin}/bomb/api/v1/apps.json: is larger than the 64 MiB`)
    expect(r.stderr).toContain('once decompressed')
  })

  it('names a body cut short of its Content-Length, and a connection reset mid-body', async () => {
    const t = await check(`${origin}/truncated`)
    expect(t.status).toBe(2)
    expect(t.stderr).toMatch(
      new RegExp(`${origin}/truncated/api/v1/apps\\.json: was cut off after \\d+ bytes of the 5000 bytes announced`)
    )
    const r = await check(`${origin}/reset`)
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`${origin}/reset/api/v1/apps\\.json: was cut off after \\d+ bytes`))
  })

  it('cuts off a body that drips forever at the time bound', async () => {
    const started = Date.now()
    const reader = snapshotReader(`${origin}/drip`, { timeoutMs: 1500 })
    const e = await reader.read('api/v1/apps.json', catalogDocSchema).catch((x: unknown) => x)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(e).toBeInstanceOf(ProblemsError)
    expect(exitStatus(e)).toBe(2)
    expect((e as Error).message).toMatch(
      new RegExp(`${origin}/drip/api/v1/apps\\.json: did not arrive within 1\\.5 s \\(\\d+ bytes read`)
    )
  })

  it('bounds the whole run too: documents each just within their bound run out of the overall time', async () => {
    const started = Date.now()
    const reader = snapshotReader(`${origin}/slow`, { timeoutMs: 2500, totalMs: 5000 })
    expect(await reader.read('api/v1/apps.json', catalogDocSchema)).toBeNull()
    expect(await reader.read('api/v1/images.json', catalogDocSchema)).toBeNull()
    const e = await reader.read('api/v1/apps/gogs/releases.json', catalogDocSchema).catch((x: unknown) => x)
    expect(Date.now() - started).toBeLessThan(9000)
    expect(e).toBeInstanceOf(ProblemsError)
    expect(exitStatus(e)).toBe(2)
    expect((e as Error).message).toBe(
      `${origin}/slow/api/v1/apps/gogs/releases.json: was not read: check's time for the whole snapshot (5 s) ran out; the server at ${origin.slice(7)} answers too slowly`
    )
  })

  it('stops following redirects after five', async () => {
    const r = await check(`${origin}/loop`)
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(`${origin}/loop/api/v1/apps.json: redirects more than 5 times`)
  })

  it('never prints the password of a URL, and sends it only as Basic authentication', async () => {
    const secret = 'hunter2-Sup3r-secret'
    authSeen.length = 0
    const withCreds = origin.replace('//', `//reader:${secret}@`)
    const r = await check(`${withCreds}/truncated`)
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(`${origin}/truncated/api/v1/apps.json`)
    expect(r.stderr).not.toContain(secret)
    expect(r.stderr).not.toContain('reader')
    expect(authSeen).toEqual([`Basic ${Buffer.from(`reader:${secret}`).toString('base64')}`])
    // A fault before any answer names the URL without the password too.
    const refused = await check(`http://reader:${secret}@127.0.0.1:1/snapshot`)
    expect(refused.status).toBe(2)
    expect(refused.stderr).toContain('http://127.0.0.1:1/snapshot/api/v1/apps.json: could not be fetched')
    // Port 1 is one fetch refuses to use: the cause is named, not "fetch failed" alone.
    expect(refused.stderr).toContain('could not be fetched: fetch failed (bad port)')
    expect(refused.stderr).not.toContain(secret)
  })
})

describe('snapshotReader with credentials in the address', () => {
  it('shows and fetches a bare origin with credentials without a doubled slash', async () => {
    const asked: { url: string; auth: string | undefined }[] = []
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>
      asked.push({ url: String(input), auth: headers.authorization })
      return new Response(null, { status: 404 })
    }) as typeof fetch
    for (const api of ['http://demo:pw@example.test', 'http://demo:pw@example.test/']) {
      asked.length = 0
      const reader = snapshotReader(api, { fetch: fakeFetch })
      expect(reader.where).toBe('http://example.test')
      expect(await reader.read('api/v1/apps.json', catalogDocSchema)).toBeNull()
      expect(asked).toEqual([
        { url: 'http://example.test/api/v1/apps.json', auth: `Basic ${Buffer.from('demo:pw').toString('base64')}` }
      ])
    }
  })
})

describe('check reads a snapshot folder', () => {
  it('refuses a document that is a FIFO or a folder before reading it: exit 2, never a hang', async () => {
    const { dir, cleanup } = await tempDir()
    await mkdir(path.join(dir, 'fifo/api/v1'), { recursive: true })
    expect(spawnSync('mkfifo', [path.join(dir, 'fifo/api/v1/apps.json')]).status).toBe(0)
    await mkdir(path.join(dir, 'folder/api/v1/apps.json'), { recursive: true })
    for (const site of ['fifo', 'folder']) {
      const r = await check(path.join(dir, site))
      expect(r.status).toBe(2)
      expect(r.stderr).toContain(`${path.join(dir, site, 'api/v1/apps.json')}: is not a regular file`)
    }
    await cleanup()
  })
})
