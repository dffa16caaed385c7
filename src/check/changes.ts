// The image references a pull request changes, from the checkout's git alone: the YAML files that
// differ between the merge base and the head, each read at both commits (one `git cat-file` process
// for all of them), and each reference paired with the one at the same place (file and field) before.
// A changed file the gate does not read — too large, not YAML, past the file cap or the time budget —
// is listed with its reason: the gate counts it as unknown, never as safe.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { objectSizes, readBlobs } from './git-objects.js'
import type { ImageChange } from './report.js'
import { readImageRefs, type FoundRef } from './refs.js'

const run = promisify(execFile)

/** A file larger than this is not a manifest anyone reviews; it is not read (and so is unknown). */
const MAX_FILE_BYTES = 1024 * 1024
const YAML_FILE = /\.ya?ml$/i
/** Changed YAML files read at most; the rest are listed as not read. */
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
  /** The blob at the merge base, or null when the file is added. */
  before: string | null
  after: string
}

/** `git diff --raw -z` entries of regular files (links and submodules hold no manifest), deleted ones left out. */
function parseRaw(raw: string): Changed[] {
  const parts = raw.split('\0')
  const out: Changed[] = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) \S+$/.exec(parts[i]!)
    const file = parts[i + 1]!
    if (!m || !YAML_FILE.test(file)) continue
    const [, , newMode, oldSha, newSha] = m as unknown as [string, string, string, string, string]
    if (NO_OBJECT.test(newSha) || !/^100(644|755)$/.test(newMode)) continue
    out.push({ file, before: NO_OBJECT.test(oldSha) ? null : oldSha, after: newSha })
  }
  return out
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
function textOf(bytes: Buffer): { text: string } | { unreadable: string } {
  try {
    return { text: utf8.decode(bytes) }
  } catch {
    return { unreadable: 'is not UTF-8 text' }
  }
}

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
      reason: `past the first ${maxFiles} changed YAML files, which are all the gate reads`
    })

  const signal = AbortSignal.timeout(Math.max(1, left()))
  const names = wanted.flatMap((c) => (c.before ? [c.before, c.after] : [c.after]))
  const sizes = await objectSizes(cwd, names, { signal })
  const readable: Changed[] = []
  let k = 0
  for (const c of wanted) {
    const before = c.before ? sizes[k++] : 0
    const after = sizes[k++]
    if (before === undefined || after === undefined || before === null || after === null)
      notRead.push({ file: c.file, reason: signal.aborted || left() <= 0 ? outOfTime : 'git does not hold it' })
    else if (after > MAX_FILE_BYTES || before > MAX_FILE_BYTES)
      notRead.push({
        file: c.file,
        reason: `is ${Math.max(before, after)} bytes${after > MAX_FILE_BYTES ? '' : ' at the merge base'}, larger than the ${MAX_FILE_BYTES / (1024 * 1024)} MiB the gate reads`
      })
    else readable.push(c)
  }

  const changes: ImageChange[] = []
  const added: ImageChange[] = []
  const unreadable: Unreadable[] = []
  const done = new Set<string>()
  // Blobs come in request order: each file's before (if it has one), then its after.
  const slots = readable.flatMap((c) => [
    ...(c.before ? [{ c, side: 'before' as const, name: c.before }] : []),
    { c, side: 'after' as const, name: c.after }
  ])
  const refsOf = (c: Changed, bytes: Buffer, at: string): { refs: FoundRef[] } | { unreadable: string } => {
    const t = textOf(bytes)
    const read = 'text' in t ? readImageRefs(c.file, t.text) : t
    return 'unreadable' in read ? { unreadable: `${read.unreadable}${at}` } : read
  }
  const judge = (c: Changed, beforeBytes: Buffer | null, afterBytes: Buffer): void => {
    done.add(c.file)
    if (left() <= 0) {
      notRead.push({ file: c.file, reason: outOfTime })
      return
    }
    const after = refsOf(c, afterBytes, '')
    // Without the earlier references every one would look added: say what was not read instead.
    const before = beforeBytes ? refsOf(c, beforeBytes, ' (at the merge base)') : { refs: [] }
    const bad = 'unreadable' in after ? after : 'unreadable' in before ? before : null
    if (bad || !('refs' in after) || !('refs' in before)) {
      notRead.push({ file: c.file, reason: bad?.unreadable ?? 'not read' })
      return
    }
    const old = new Map(before.refs.map((r) => [r.field, r.image]))
    for (const r of after.refs) {
      const was = old.get(r.field)
      if (r.image === null) {
        unreadable.push({ file: c.file, line: r.line, field: r.field, reason: r.unreadable ?? 'a template decides it' })
        continue
      }
      if (was === r.image) continue
      const change = { file: c.file, field: r.field, line: r.line, image: r.image, baseImage: was ?? '' }
      if (was === undefined || was === null) added.push(change)
      else changes.push(change)
    }
  }
  let held: Buffer | null = null
  await readBlobs(
    cwd,
    slots.map((s) => s.name),
    (i, bytes) => {
      const { c, side } = slots[i]!
      if (side === 'before') held = bytes
      else if (bytes !== null && (c.before === null || held !== null)) judge(c, c.before ? held : null, bytes)
      if (side === 'after') held = null
    },
    { signal }
  )
  for (const c of readable)
    if (!done.has(c.file))
      notRead.push({ file: c.file, reason: signal.aborted || left() <= 0 ? outOfTime : 'git did not give it' })
  return { changes, added, unreadable, notRead, files: listed.map((c) => c.file) }
}
