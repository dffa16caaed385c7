// endoflife.date API v1 client, plus the stored copy of each product's data that
// offline builds read (catalog/endoflife/<product>.json). Responses are hostile
// input: the body is size-capped, parsed with zod, and the product id is checked
// before it reaches a URL or a file name.
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { toJson } from '../util/json.js'
import { dateString, httpUrl, PRODUCT_PATTERN } from '../schema/index.js'
import { hostOf, networkFailure } from '../util/network.js'
import { isMissing, readRegularFile, refusalWords } from '../util/regular-file.js'
import type { Logger } from '../util/types.js'

export const ENDOFLIFE_DEFAULT_URL = 'https://endoflife.date'

/** Same rule as `lifecycle.product` in catalogEntrySchema, plus a length bound. */

/** The largest product in our data is ~35 KB; 2 MB leaves room and still bounds memory. */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024

const text = (max: number) => z.string().max(max)
const optDate = dateString.nullable().optional()
// A flag whose source key is absent is null (generate-api-v1.rb), e.g. mariadb's isEoes.
const optBool = z.boolean().nullable().optional()

// Field order follows the generator (generate-api-v1.rb) so a parsed document
// serialises back byte for byte: a refresh with unchanged data changes no file.
// Unknown keys are dropped; fields we read are required, the rest optional so a
// small upstream addition or omission does not break a build.
const releaseSchema = z.object({
  name: text(64).min(1),
  codename: text(200).nullable().optional(),
  label: text(300).nullable().optional(),
  releaseDate: optDate,
  isLts: optBool,
  ltsFrom: optDate,
  isEoas: optBool,
  eoasFrom: optDate,
  isEol: z.boolean().nullable(),
  eolFrom: dateString.nullable(),
  isDiscontinued: optBool,
  discontinuedFrom: optDate,
  isEoes: optBool,
  eoesFrom: optDate,
  isMaintained: optBool,
  latest: z
    .object({
      name: text(128).min(1),
      date: optDate,
      link: httpUrl.nullable().optional()
    })
    .nullable()
    .optional(),
  custom: z.record(text(100), z.unknown()).nullable().optional()
})

export const endoflifeProductSchema = z.object({
  schema_version: text(32).optional(),
  generated_at: text(64).optional(),
  last_modified: text(64).optional(),
  result: z.object({
    name: z.string().regex(PRODUCT_PATTERN, 'must be an endoflife.date product id'),
    aliases: z.array(text(100)).max(100).optional(),
    label: text(200).optional(),
    category: text(100).optional(),
    tags: z.array(text(100)).max(100).optional(),
    versionCommand: text(1000).nullable().optional(),
    identifiers: z
      .array(z.object({ type: text(50), id: text(300) }))
      .max(200)
      .optional(),
    labels: z.record(text(50), text(300).nullable()).optional(),
    links: z.record(text(50), httpUrl.nullable()).optional(),
    releases: z.array(releaseSchema).max(2000)
  })
})

/** The part of `GET /api/v1/products/<product>` that we keep and use. */
export type EndoflifeProduct = z.infer<typeof endoflifeProductSchema>
export type EndoflifeRelease = EndoflifeProduct['result']['releases'][number]

export interface FetchProductOptions {
  /** endoflife.date or a stand-in, e.g. from ENDOFLIFE_API_URL. May carry a path. */
  baseUrl: string
  fetch?: typeof fetch
  log: Logger
  /** Extra attempts after the first, for transient failures only. Default 2. */
  retries?: number
  /** Wait before the first retry; doubles each time. Default 1000. */
  retryDelayMs?: number
  /** Abort one attempt after this long. Default 20000. */
  timeoutMs?: number
  /** The run's deadline: once aborted, no attempt starts and the one in flight stops. */
  deadline?: AbortSignal
}

export class EndoflifeError extends Error {
  constructor(
    message: string,
    /** True when trying again later may succeed (5xx, 429, network). */
    readonly transient: boolean,
    /** Set when the request failed below HTTP (DNS, refused, reset, timeout, deadline). */
    readonly network?: string
  ) {
    super(message)
    this.name = 'EndoflifeError'
  }
}

export function assertProductId(product: string): void {
  if (typeof product !== 'string' || !PRODUCT_PATTERN.test(product)) {
    throw new Error(`not an endoflife.date product id: ${JSON.stringify(String(product).slice(0, 100))}`)
  }
}

/** `{base}/api/v1/products/<product>`; a base with a path (a stand-in under /eol/) keeps it. */
export function productUrl(baseUrl: string, product: string): string {
  assertProductId(product)
  let base: URL
  try {
    base = new URL(baseUrl)
  } catch {
    throw new Error(`endoflife.date base URL is not a URL: ${JSON.stringify(baseUrl)}`)
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') {
    throw new Error(`endoflife.date base URL must be http(s): ${JSON.stringify(baseUrl)}`)
  }
  base.search = ''
  base.hash = ''
  if (!base.pathname.endsWith('/')) base.pathname += '/'
  return new URL(`api/v1/products/${product}`, base).toString()
}

/** Parse and validate a response body; the error names the first problems, briefly. */
export function parseProduct(body: string, product: string): EndoflifeProduct {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    throw new EndoflifeError(`endoflife.date returned malformed JSON for "${product}"`, false)
  }
  const parsed = endoflifeProductSchema.safeParse(json)
  if (!parsed.success) {
    const detail = z.prettifyError(parsed.error).split('\n').slice(0, 6).join('; ').slice(0, 500)
    throw new EndoflifeError(`endoflife.date returned an unexpected document for "${product}": ${detail}`, false)
  }
  const doc = parsed.data
  // An alias may answer with its canonical product; anything else is not what we asked for.
  if (doc.result.name !== product && !(doc.result.aliases ?? []).includes(product)) {
    throw new EndoflifeError(`endoflife.date answered "${product}" with product "${doc.result.name}"`, false)
  }
  return doc
}

async function readCapped(res: Response, max: number, product: string): Promise<string> {
  const declared = Number(res.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {})
    throw new EndoflifeError(`endoflife.date response for "${product}" is larger than ${max} bytes`, false)
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      throw new EndoflifeError(`endoflife.date response for "${product}" is larger than ${max} bytes`, false)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function attempt(
  url: string,
  product: string,
  doFetch: typeof fetch,
  timeoutMs: number,
  deadline: AbortSignal | undefined
): Promise<EndoflifeProduct> {
  if (deadline?.aborted)
    throw new EndoflifeError(`endoflife.date was not asked for "${product}": the refresh deadline was reached`, false)
  let res: Response
  const timeout = AbortSignal.timeout(timeoutMs)
  try {
    res = await doFetch(url, {
      headers: { accept: 'application/json', 'user-agent': 'updatesafe' },
      redirect: 'follow',
      signal: deadline ? AbortSignal.any([timeout, deadline]) : timeout
    })
  } catch (err) {
    // A reset or a timeout is worth another try; a failed lookup or a refused connection is not, within seconds.
    const network = networkFailure(err, hostOf(url), { timeout, timeoutMs, ...(deadline ? { deadline } : {}) })
    const why =
      network?.message ??
      (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err))
    const transient = !network || network.fault === 'reset' || network.fault === 'timeout'
    throw new EndoflifeError(
      `endoflife.date request for "${product}" failed: ${why.slice(0, 200)}`,
      transient,
      network?.fault ?? 'other'
    )
  }
  if (res.status === 404) {
    await res.body?.cancel().catch(() => {})
    throw new EndoflifeError(`endoflife.date has no product "${product}" (404 at ${url})`, false)
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {})
    const transient = res.status >= 500 || res.status === 429 || res.status === 408
    throw new EndoflifeError(`endoflife.date answered ${res.status} for "${product}" (${url})`, transient)
  }
  let body: string
  try {
    body = await readCapped(res, MAX_RESPONSE_BYTES, product)
  } catch (err) {
    if (err instanceof EndoflifeError) throw err
    // The connection dropped mid-body.
    throw new EndoflifeError(`endoflife.date response for "${product}" was cut off`, true)
  }
  return parseProduct(body, product)
}

/**
 * GET {base}/api/v1/products/<product>. Retries 5xx, 429, timeouts and network
 * errors; a 404 or a malformed document fails at once. Throws on failure, so the
 * caller can fall back to its last-known-good data.
 */
export async function fetchProduct(product: string, opts: FetchProductOptions): Promise<EndoflifeProduct> {
  const url = productUrl(opts.baseUrl, product)
  const doFetch = opts.fetch ?? globalThis.fetch
  const retries = Math.max(0, Math.floor(opts.retries ?? 2))
  const delay = Math.max(0, opts.retryDelayMs ?? 1000)
  const timeoutMs = opts.timeoutMs ?? 20_000
  for (let i = 0; ; i++) {
    try {
      return await attempt(url, product, doFetch, timeoutMs, opts.deadline)
    } catch (err) {
      if (!(err instanceof EndoflifeError) || !err.transient || i >= retries) throw err
      opts.log.warning(`${err.message}; retrying (${i + 1}/${retries})`)
      await sleep(delay * 2 ** i)
    }
  }
}

function storedPath(dir: string, product: string): string {
  assertProductId(product)
  const root = path.resolve(dir)
  const file = path.resolve(root, `${product}.json`)
  // The pattern already forbids separators; check anyway so no id can leave dir.
  if (path.dirname(file) !== root) throw new Error(`product id escapes the data directory: ${product}`)
  return file
}

/**
 * The stored product data (catalog/endoflife/<product>.json), or null when none
 * is stored. A file that exists but does not validate is an error, not a null:
 * it is part of the repository and a maintainer must fix it.
 */
export async function readStoredProduct(dir: string, product: string): Promise<EndoflifeProduct | null> {
  const file = storedPath(dir, product)
  // A link could lead to any file on the machine, and a parse error quotes the text it read.
  for (const p of [path.dirname(file), file]) {
    let info
    try {
      info = await lstat(p)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
    if (info.isSymbolicLink())
      throw new Error(`${p}: is a symbolic link; stored end-of-life data must be regular files in the catalog`)
  }
  // One open that refuses a FIFO or a device before anything is read (a FIFO would wait forever).
  const read = readRegularFile(file, MAX_RESPONSE_BYTES)
  if (!('bytes' in read)) {
    if (isMissing(read)) return null
    if (read.refused === 'too large') throw new Error(`${file}: larger than ${MAX_RESPONSE_BYTES} bytes`)
    throw new Error(`${file}: ${refusalWords(read, MAX_RESPONSE_BYTES)}`)
  }
  const body = read.bytes.toString('utf8')
  try {
    return parseProduct(body, product)
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`)
  }
}

/** Pretty JSON with a trailing newline, as the seeded files are; written aside, then renamed. */
export function serializeProduct(doc: EndoflifeProduct): string {
  return toJson(doc)
}

export async function writeStoredProduct(dir: string, product: string, doc: EndoflifeProduct): Promise<void> {
  const file = storedPath(dir, product)
  // Validate what we write, whoever built it: the file is read back by offline builds.
  const valid = parseProduct(JSON.stringify(doc), product)
  await mkdir(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  try {
    await writeFile(tmp, serializeProduct(valid), 'utf8')
    await rename(tmp, file)
  } catch (err) {
    await rm(tmp, { force: true })
    throw err
  }
}
