// The image references a pull request changes, from the checkout's git alone: the files that differ
// between the merge base and the head, each read at both commits (one `git cat-file` process for all
// of them) — YAML (Compose, Kubernetes, Helm, Flux, Kustomize), Dockerfiles and `.env` files — and each
// reference paired with its earlier one (pairing.ts). Any other changed text file whose change touches something shaped like
// an image reference is listed as not read, as is a file too large, unparsable, past the file cap or
// the time budget: the gate counts it as unknown, never as safe.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { kindOf, readRefs, type FileKind } from './file-kinds.js'
import { objectSizes, readBlobs } from './git-objects.js'
import { changedMentions } from './mentions.js'
import { pairRefs, type FileRefs } from './pairing.js'
import type { ImageChange } from './report.js'
import type { FoundRef } from './refs.js'
import { renovateRefs } from './renovate-comments.js'

const run = promisify(execFile)

/** A file larger than this is not a manifest anyone reviews; it is not read (and so is unknown). */
const MAX_FILE_BYTES = 1024 * 1024
/** Changed files read at most (the manifests first); the rest are listed as not read. */
export const MAX_FILES = 1000
/** Time for reading and parsing the changed files, in ms; what is left is listed as not read. */
export const BUDGET_MS = 60_000
/** git's name for "no object": the side of a diff where the file does not exist. */
const NO_OBJECT = /^0+$/

export interface Unreadable {
  file: string
  line: number
  field: string
  reason: string
}

/** A changed file the gate did not read, and why. */
export interface NotRead {
  file: string
  reason: string
}

export interface ChangedImages {
  changes: ImageChange[]
  added: ImageChange[]
  unreadable: Unreadable[]
  notRead: NotRead[]
  files: string[]
}

export interface ChangedImagesOptions {
  maxFiles?: number
  budgetMs?: number
  now?: () => number
}

async function git(cwd: string, args: string[], timeoutMs: number): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
    encoding: 'utf8',
    timeout: Math.max(1, timeoutMs)
  })
  return stdout
}

interface Changed {
  file: string
  /** How the gate reads it; `other` is only searched for image mentions. */
  kind: FileKind
  /** The blob at the merge base, or null when the file is added. */
  before: string | null
  /** The blob at the head, or null when the file is deleted (its references may come back elsewhere). */
  after: string | null
}

const REGULAR = /^100(644|755)$/
/** `git diff --raw -z` entries of regular files (links and submodules hold no manifest), the manifests first. */
function parseRaw(raw: string): Changed[] {
  const parts = raw.split('\0')
  const out: Changed[] = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) \S+$/.exec(parts[i]!)
    const file = parts[i + 1]!
    if (!m) continue
    const [, oldMode, newMode, oldSha, newSha] = m as unknown as [string, string, string, string, string]
    const before = NO_OBJECT.test(oldSha) || !REGULAR.test(oldMode) ? null : oldSha
    const after = NO_OBJECT.test(newSha) || !REGULAR.test(newMode) ? null : newSha
    if (before === null && after === null) continue
    out.push({ file, kind: kindOf(file), before, after })
  }
  const rank = { yaml: 0, dockerfile: 0, env: 0, other: 1 }
  return out
    .map((c, i) => ({ c, i }))
    .sort((x, y) => rank[x.c.kind] - rank[y.c.kind] || x.i - y.i)
    .map((x) => x.c)
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
function textOf(bytes: Buffer): { text: string } | { unreadable: string } {
  try {
    return { text: utf8.decode(bytes) }
  } catch {
    return { unreadable: 'is not UTF-8 text' }
  }
}

/** The first few mentions, each cut, for a reason. */
const firstFew = (mentions: readonly string[]) =>
  `${mentions
    .slice(0, 3)
    .map((t) => t.slice(0, 80))
    .join(', ')}${mentions.length > 3 ? ', …' : ''}`

/** The changed mentions of an image in a file's text that are none of the references read from it (on either side). */
function unreadMentions(before: Buffer | null, after: Buffer | null, refs: readonly FoundRef[]): string[] {
  const touched = changedMentions(before?.toString('utf8') ?? '', after?.toString('utf8') ?? '')
  if (touched.length === 0) return []
  const images = refs.flatMap((r) => (r.image === null ? [] : [r.image]))
  // Helm's and Kustomize's split fields put part of a reference on a line: `tag: v1.2.3@sha256:…`, `digest: sha256:…`.
  const part = (m: string) => images.some((i) => i === m || [':', '/', '@'].some((sep) => i.endsWith(`${sep}${m}`)))
  return touched.filter((m) => !part(m))
}

/** A binary file (an image, an archive) holds no reference anyone reviews: it is not searched. */
const binary = (bytes: Buffer | null) => bytes !== null && (bytes.includes(0) || 'unreadable' in textOf(bytes))

/**
 * The image references changed between `base` and `head` (the pull request's two commits), compared
 * from their merge base as `git diff base...head` does. Needs both commits in the checkout
 * (actions/checkout with fetch-depth: 0).
 */
export async function changedImages(
  cwd: string,
  base: string,
  head: string,
  opts: ChangedImagesOptions = {}
): Promise<ChangedImages> {
  const now = opts.now ?? Date.now
  const budgetMs = opts.budgetMs ?? BUDGET_MS
  const maxFiles = opts.maxFiles ?? MAX_FILES
  const deadline = now() + budgetMs
  const left = () => deadline - now()
  let mergeBase: string
  try {
    mergeBase = (await git(cwd, ['merge-base', base, head], Math.max(left(), 10_000))).trim()
  } catch (e) {
    throw new Error(
      `git cannot find both commits ${base.slice(0, 12)} and ${head.slice(0, 12)} in ${cwd} (check out with fetch-depth: 0): ${(e as Error).message.split('\n')[0]}`
    )
  }
  const listed = parseRaw(
    await git(cwd, ['diff', '--raw', '-z', '--no-renames', '--no-abbrev', mergeBase, head], Math.max(left(), 10_000))
  )
  const notRead: NotRead[] = []
  const outOfTime = `the gate's time budget (${budgetMs / 1000} s) ran out before it was read`
  const wanted = listed.slice(0, maxFiles)
  for (const c of listed.slice(maxFiles))
    notRead.push({
      file: c.file,
      reason: `past the first ${maxFiles} changed files, which are all the gate reads (YAML, Dockerfiles and .env files first)`
    })

  const signal = AbortSignal.timeout(Math.max(1, left()))
  const blobs = (c: Changed) => [...(c.before ? [c.before] : []), ...(c.after ? [c.after] : [])]
  const sizes = await objectSizes(cwd, wanted.flatMap(blobs), { signal })
  const readable: Changed[] = []
  let k = 0
  for (const c of wanted) {
    const before = c.before ? sizes[k++] : 0
    const after = c.after ? sizes[k++] : 0
    if (before === undefined || after === undefined || before === null || after === null)
      notRead.push({ file: c.file, reason: signal.aborted || left() <= 0 ? outOfTime : 'git does not hold it' })
    else if (after > MAX_FILE_BYTES || before > MAX_FILE_BYTES)
      notRead.push({
        file: c.file,
        reason: `is ${Math.max(before, after)} bytes${after > MAX_FILE_BYTES ? '' : ' at the merge base'}, larger than the ${MAX_FILE_BYTES / (1024 * 1024)} MiB the gate reads`
      })
    else readable.push(c)
  }

  const read: FileRefs[] = []
  const done = new Set<string>()
  // Blobs come in request order: each file's before (if it has one), then its after (if it has one).
  const slots = readable.flatMap((c) => [
    ...(c.before ? [{ c, side: 'before' as const, name: c.before }] : []),
    ...(c.after ? [{ c, side: 'after' as const, name: c.after }] : [])
  ])
  const refsOf = (c: Changed, bytes: Buffer, at: string): { refs: FoundRef[] } | { unreadable: string } => {
    const t = textOf(bytes)
    const found = 'unreadable' in t ? t : readRefs(c.file, c.kind, t.text)
    return 'unreadable' in found ? { unreadable: `${found.unreadable}${at}` } : found
  }
  const judge = (c: Changed, beforeBytes: Buffer | null, afterBytes: Buffer | null): void => {
    done.add(c.file)
    if (left() <= 0) {
      notRead.push({ file: c.file, reason: outOfTime })
      return
    }
    if (c.kind === 'other') {
      // A file deleted changes no image in place; where its images went, the files read say.
      if (afterBytes === null || binary(beforeBytes) || binary(afterBytes)) return
      const [beforeText, afterText] = [beforeBytes?.toString('utf8') ?? '', afterBytes.toString('utf8')]
      // A script or a Terraform file Renovate bumps by a comment: those versions are read, the rest only searched.
      const [beforeRefs, afterRefs] = [renovateRefs(c.file, beforeText), renovateRefs(c.file, afterText)]
      if (beforeRefs.length + afterRefs.length > 0)
        read.push({ file: c.file, before: beforeBytes === null ? null : beforeRefs, after: afterRefs })
      const touched = changedMentions(beforeText, afterText)
      if (touched.length > 0)
        notRead.push({
          file: c.file,
          reason: `is not YAML, a Dockerfile or a .env file, and its change touches what reads as an image reference (${firstFew(touched)})`
        })
      return
    }
    const after = afterBytes ? refsOf(c, afterBytes, '') : { refs: null }
    // Without the earlier references every one would look added: say what was not read instead.
    const before = beforeBytes ? refsOf(c, beforeBytes, ' (at the merge base)') : { refs: null }
    // A deleted file that cannot be read only leaves its images unpaired: what came back elsewhere reads as added.
    if (afterBytes === null && 'unreadable' in before) return
    const bad = 'unreadable' in after ? after : 'unreadable' in before ? before : null
    if (bad || !('refs' in after) || !('refs' in before)) {
      notRead.push({ file: c.file, reason: bad?.unreadable ?? 'not read' })
      return
    }
    read.push({ file: c.file, before: before.refs, after: after.refs })
    // A change to something shaped like an image that no field read explains (a CRD's own key, a command line)
    // may be an update the gate cannot see: listed as not read, never passed. A deleted file changes nothing in place.
    const unexplained =
      c.kind === 'yaml' && afterBytes !== null
        ? unreadMentions(beforeBytes, afterBytes, [...(before.refs ?? []), ...(after.refs ?? [])])
        : []
    if (unexplained.length > 0)
      notRead.push({
        file: c.file,
        reason: `its change touches what reads as an image reference outside the fields the gate reads (${firstFew(unexplained)})`
      })
  }
  let held: Buffer | null = null
  await readBlobs(
    cwd,
    slots.map((s) => s.name),
    (i, bytes) => {
      const { c, side } = slots[i]!
      if (side === 'before') {
        held = bytes
        // A deleted file has no after: it is judged on its before alone.
        if (c.after === null && bytes !== null) judge(c, bytes, null)
      } else if (bytes !== null && (c.before === null || held !== null)) judge(c, c.before ? held : null, bytes)
      if (side === 'after') held = null
    },
    { signal }
  )
  for (const c of readable)
    if (!done.has(c.file))
      notRead.push({ file: c.file, reason: signal.aborted || left() <= 0 ? outOfTime : 'git did not give it' })
  const paired = pairRefs(read)
  const unreadable = paired.unreadable.map((r) => ({
    file: r.file,
    line: r.line,
    field: r.field,
    reason: r.unreadable ?? 'a template decides it'
  }))
  return { changes: paired.changes, added: paired.added, unreadable, notRead, files: listed.map((c) => c.file) }
}
