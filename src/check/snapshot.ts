// A published snapshot, read over HTTP or from a folder (the Pages branch checked out, or a build's
// --out). Every document is checked against its schema: `check` judges only what it can trust.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { z } from 'zod'
import { hostOf, networkFailure } from '../util/network.js'
import { ProblemsError, zodProblems } from '../util/problems.js'

export interface SnapshotReader {
  /** Where the snapshot is, for messages. */
  where: string
  /** A document of the snapshot checked against `schema`; null when it does not exist (404, no file). */
  read<T>(sitePath: string, schema: z.ZodType<T>): Promise<T | null>
}

export interface ReaderDeps {
  fetch?: typeof fetch
  /** Longest wait for one document, in ms. Default 20,000. */
  timeoutMs?: number
}

/** Documents of a snapshot are at most this large (a 10,000-app catalog is about 10 MB). */
const MAX_BYTES = 64 * 1024 * 1024

const bad = (file: string, message: string) =>
  new ProblemsError('bad-input', [{ file, message }], `${file}: ${message}`)

/** `--api URL|DIR`: the site's address or folder; a path to its apps.json is accepted too. */
export function snapshotReader(api: string, deps: ReaderDeps = {}): SnapshotReader {
  const trimmed = api.replace(/\/api\/v1\/apps\.json$/, '').replace(/\/+$/, '')
  const isUrl = /^https?:\/\//i.test(trimmed)
  const load = isUrl ? httpLoader(trimmed, deps) : fileLoader(trimmed)
  return {
    where: trimmed,
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
    try {
      const text = await readFile(name, 'utf8')
      if (text.length > MAX_BYTES) throw bad(name, `is larger than ${MAX_BYTES} bytes`)
      return { name, text }
    } catch (e) {
      if (e instanceof ProblemsError) throw e
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { name, text: null }
      throw bad(name, `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
    }
  }
}

function httpLoader(base: string, deps: ReaderDeps): Loader {
  const doFetch = deps.fetch ?? fetch
  return async (sitePath) => {
    const name = `${base}/${sitePath}`
    const timeoutMs = deps.timeoutMs ?? 20_000
    const timeout = AbortSignal.timeout(timeoutMs)
    let res: Response
    try {
      res = await doFetch(name, { signal: timeout, redirect: 'follow' })
    } catch (e) {
      const why = networkFailure(e, hostOf(name), { timeout, timeoutMs })?.message ?? (e as Error).message
      throw bad(name, `could not be fetched: ${why}`)
    }
    if (res.status === 404) return { name, text: null }
    if (!res.ok) throw bad(name, `answered HTTP ${res.status}`)
    const body = await res.arrayBuffer()
    if (body.byteLength > MAX_BYTES) throw bad(name, `is larger than ${MAX_BYTES} bytes`)
    return { name, text: new TextDecoder().decode(body) }
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
