// A published snapshot, read over HTTP or from a folder (the Pages branch checked out, or a build's
// --out). Every document is checked against its schema: `check` judges only what it can trust.
import { realpathSync } from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import { readBoundedBody } from '../util/bounded-body.js'
import { withoutCredentials } from '../util/http-url.js'
import { hostOf, networkFailure } from '../util/network.js'
import { ProblemsError, zodProblems } from '../util/problems.js'
import { readRegularFile, refusalWords } from '../util/regular-file.js'

export interface SnapshotReader {
  /** Where the snapshot is, for messages. */
  where: string
  /** A document of the snapshot checked against `schema`; null when it does not exist (404, no file). */
  read<T>(sitePath: string, schema: z.ZodType<T>): Promise<T | null>
}

export interface ReaderDeps {
  fetch?: typeof fetch
  /** Longest wait for one document (redirects, headers and body), in ms. Default 20,000. */
  timeoutMs?: number
  /**
   * Longest wait for all the documents of one run together, in ms, counted from the reader's making.
   * Default 120,000: a server that sends each document just within its own bound (one app's history
   * after another) cannot hold a run for hours.
   */
  totalMs?: number
}

export const TOTAL_MS = 120_000

/** Documents of a snapshot are at most this large, 64 MiB, decompressed (a 10,000-app catalog is about 10 MB). */
const MAX_BYTES = 64 * 1024 * 1024

const bad = (file: string, message: string) =>
  new ProblemsError('bad-input', [{ file, message }], `${file}: ${message}`)

/** `--api URL|DIR`: the site's address or folder; a path to its apps.json is accepted too. */
export function snapshotReader(api: string, deps: ReaderDeps = {}): SnapshotReader {
  const trimmed = api.replace(/\/api\/v1\/apps\.json$/, '').replace(/\/+$/, '')
  const isUrl = /^https?:\/\//i.test(trimmed)
  // The address as printed and as documents are fetched from: no user name or password, and no
  // trailing slash (URL.href adds one to a bare origin once the credentials are taken out).
  const where = withoutCredentials(trimmed).replace(/\/+$/, '')
  const load = isUrl ? httpLoader(trimmed, where, deps) : fileLoader(trimmed)
  return {
    where,
    async read(sitePath, schema) {
      const { name, text } = await load(sitePath)
      if (text === null) return null
      let raw: unknown
      try {
        raw = JSON.parse(text)
      } catch {
        throw bad(name, 'is not JSON: is --api the address of an updatesafe snapshot?')
      }
      const parsed = schema.safeParse(raw)
      if (!parsed.success) {
        const problems = zodProblems(parsed.error, name).slice(0, 5)
        throw new ProblemsError('bad-input', problems, `${name} is not a valid updatesafe document`)
      }
      return parsed.data
    }
  }
}

type Loader = (sitePath: string) => Promise<{ name: string; text: string | null }>

function fileLoader(dir: string): Loader {
  return async (sitePath) => {
    const name = path.join(dir, ...sitePath.split('/'))
    // A FIFO or a device in the folder is refused before it is read; a link (a checked-out tree may hold one) is followed to a file.
    let target: string
    try {
      target = realpathSync(name)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { name, text: null }
      throw bad(name, `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
    }
    const read = readRegularFile(target, MAX_BYTES)
    if (!('bytes' in read)) throw bad(name, refusalWords(read, MAX_BYTES))
    return { name, text: new TextDecoder().decode(read.bytes) }
  }
}

/** Redirects followed for one document; Pages answers at most two (http to https, a custom domain). */
const MAX_REDIRECTS = 5

/** `base` may hold `user:pass@`; `shownBase` is the same address without it, the one printed and fetched. */
function httpLoader(base: string, shownBase: string, deps: ReaderDeps): Loader {
  const doFetch = deps.fetch ?? fetch
  // `http://user:pass@host` is sent as Basic authentication to that origin only, and never printed.
  let start: URL
  let auth: string | null = null
  try {
    start = new URL(base)
    const user = `${decodeURIComponent(start.username)}:${decodeURIComponent(start.password)}`
    if (start.username || start.password) auth = `Basic ${Buffer.from(user).toString('base64')}`
  } catch {
    throw bad(shownBase, 'is not a URL')
  }
  const origin = start.origin
  const totalMs = deps.totalMs ?? TOTAL_MS
  const overall = AbortSignal.timeout(totalMs)
  const outOfTime = (name: string) =>
    bad(
      name,
      `was not read: check's time for the whole snapshot (${totalMs / 1000} s) ran out; the server at ${hostOf(shownBase)} answers too slowly`
    )
  return async (sitePath) => {
    const name = `${shownBase}/${sitePath}`
    if (overall.aborted) throw outOfTime(name)
    const timeoutMs = deps.timeoutMs ?? 20_000
    // One bound for the whole document: every redirect, the headers and the body; and the run's.
    const own = AbortSignal.timeout(timeoutMs)
    const timeout = AbortSignal.any([own, overall])
    let url = new URL(name)
    let res: Response
    for (let hops = 0; ; hops++) {
      try {
        res = await doFetch(url, {
          signal: timeout,
          redirect: 'manual',
          headers: auth && url.origin === origin ? { authorization: auth } : {}
        })
      } catch (e) {
        if (overall.aborted) throw outOfTime(name)
        // fetch's own message is "fetch failed"; its cause says why ("bad port" for a port fetch refuses to use).
        const cause = (e as { cause?: { message?: unknown } }).cause?.message
        const why =
          networkFailure(e, hostOf(url.href), { timeout, timeoutMs })?.message ??
          `${(e as Error).message}${typeof cause === 'string' && cause !== '' ? ` (${cause.slice(0, 200)})` : ''}`
        throw bad(name, `could not be fetched: ${why}`)
      }
      const location = res.headers.get('location')
      if (![301, 302, 303, 307, 308].includes(res.status) || location === null) break
      await res.body?.cancel().catch(() => {})
      if (hops >= MAX_REDIRECTS) throw bad(name, `redirects more than ${MAX_REDIRECTS} times`)
      let next: URL
      try {
        next = new URL(location, url)
      } catch {
        throw bad(name, 'redirects to something that is not a URL')
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw bad(name, 'redirects away from http(s)')
      next.username = ''
      next.password = ''
      url = next
    }
    if (res.status === 404) {
      await res.body?.cancel().catch(() => {})
      return { name, text: null }
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {})
      throw bad(name, `answered HTTP ${res.status}`)
    }
    const body = await readBoundedBody(res, MAX_BYTES, timeout, timeoutMs)
    if ('cut' in body) throw overall.aborted ? outOfTime(name) : bad(name, body.cut)
    return { name, text: new TextDecoder().decode(body.bytes) }
  }
}

/** The catalog document, which must exist: a 404 here means --api points at no snapshot. */
export async function required<T>(reader: SnapshotReader, sitePath: string, schema: z.ZodType<T>): Promise<T> {
  const doc = await reader.read(sitePath, schema)
  if (doc === null)
    throw bad(
      `${reader.where}/${sitePath}`,
      `not found (404 or no such file): --api must be the address or folder of an updatesafe snapshot, e.g. https://OWNER.github.io/REPO`
    )
  return doc
}
