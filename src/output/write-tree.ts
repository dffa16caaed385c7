// Writes a whole site tree so that readers only ever see the old tree or the
// new one: build it beside the target, then swap directories with renames.
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { ProblemsError } from '../util/problems.js'
import { readRegularFile } from '../util/regular-file.js'

/** An output directory or path that writing would damage: refused before anything is written. */
export class UnsafeOutputError extends ProblemsError {
  constructor(message: string) {
    super('output', [{ message }], message)
  }
}

/** The file that marks a directory as one we wrote, so we never replace anything else. */
export const MARKER = 'api/v1/apps.json'

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
}

/**
 * Refuse output directories whose replacement would destroy something: the
 * catalog, anything containing it, a git work tree, the filesystem root, or a
 * non-empty directory that is not a previous snapshot.
 */
export async function checkOutputDir(outDir: string, guard: { catalogDir: string; cwd: string }): Promise<void> {
  const out = path.resolve(guard.cwd, outDir)
  const catalog = path.resolve(guard.cwd, guard.catalogDir)
  if (out === path.parse(out).root)
    throw new UnsafeOutputError(`refusing to write the site to the filesystem root (${out})`)
  // The CLI names the folder --out, the action its input output: the message names both.
  const refuse = (why: string) =>
    new UnsafeOutputError(`refusing the output directory ${outDir} (--out, input output): ${why}`)
  if (isInside(catalog, out)) throw refuse(`it is, or contains, the catalog directory ${guard.catalogDir}`)
  if (isInside(out, catalog)) throw refuse(`it lies inside the catalog directory ${guard.catalogDir}`)
  if (existsSync(path.join(out, '.git'))) throw refuse('it is a git repository root; write the site to a subdirectory')
  if (existsSync(path.join(out, 'package.json'))) throw refuse('it holds a package.json (a project root?)')
  let entries: string[] = []
  try {
    const info = await stat(out)
    if (!info.isDirectory()) throw refuse('it exists and is not a directory')
    entries = await readdir(out)
  } catch (e) {
    if (e instanceof UnsafeOutputError) throw e
    return // does not exist yet: fine
  }
  if (entries.length > 0 && !existsSync(path.join(out, MARKER)))
    throw refuse(`it is not empty and holds no ${MARKER}, so it is not an updatesafe snapshot we may replace`)
}

/** A site path must be relative, POSIX, and free of `.`/`..` segments and odd characters. */
export function assertSafeRelativePath(p: string): void {
  const ok =
    p.length > 0 &&
    p.length <= 255 &&
    !p.startsWith('/') &&
    /^[A-Za-z0-9._/-]+$/.test(p) &&
    p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..')
  if (!ok) throw new UnsafeOutputError(`refusing to write unsafe path ${JSON.stringify(p)}`)
}

/** A file to write: its path and its content. */
export type SiteFile = readonly [path: string, content: string | Buffer]

/** The two forms of fs.writeSync that writeTextSync uses (a parameter so a test can make writes stop short). */
export interface WriteSync {
  (fd: number, text: string): number
  (fd: number, bytes: Uint8Array, offset: number, length: number): number
}

/**
 * Writes all of `text` to `fd`. Node 20's writeFileSync first copies a string
 * into a pooled Buffer; at 50,000 files V8 sometimes began to allocate those
 * Buffers in the old generation, which kept every copy alive until a full
 * collection and raised a 10,000-app build's peak RSS from about 250 MB to
 * 320 MB in a third of the runs. writeSync hands the string to C++ as it is.
 * write(2) on a regular file writes everything or fails; a short write is finished from a Buffer.
 */
export function writeTextSync(fd: number, text: string, write: WriteSync = writeSync): void {
  let done = write(fd, text)
  const size = Buffer.byteLength(text)
  if (done >= size) return
  const bytes = Buffer.from(text)
  while (done < size) done += write(fd, bytes, done, size - done)
}

/** How a file of the previous snapshot becomes a file of the new tree (a parameter so a test can make it fail). */
export type LinkSync = (existing: string, created: string) => void

/**
 * Errors of link(2) that mean this pair of directories cannot share files at all (other disk, no hard links,
 * files we may not link); any other failure (EMLINK: that one file has too many links) writes that file only.
 */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'])

/** Where unchanged files may come from: the previous snapshot's directory. */
export interface Reuse {
  previousDir: string
  link?: LinkSync
}

/**
 * `rel` inside the absolute, resolved folder `dir`. `rel` passed assertSafeRelativePath (relative, no empty, `.` or
 * `..` segment), so it needs no normalising: path.join did that for each of a daily run's 100,000 paths.
 */
function under(dir: string, rel: string): string {
  const native = path.sep === '/' ? rel : rel.split('/').join(path.sep)
  return dir.endsWith(path.sep) ? dir + native : dir + path.sep + native
}

/** Questions about one folder of the previous snapshot after which hasPrevious lists it instead of a stat per file. */
const LIST_AFTER = 16

/**
 * Files (or characters and bytes of them) staged before they are written out together (see StagedTree): about
 * eight apps' files. Bursts of 256 files wrote as fast but held each content long enough to survive a young
 * collection, and the build's user time rose by what the writes saved.
 */
export const BURST_FILES = 48
const BURST_CHARS = 1 << 18

/** A file staged but not yet written: where it goes, its site path and content, and whether it is fresh. */
interface Pending {
  dest: string
  rel: string
  content: string | Buffer
  fresh: boolean
}

/**
 * A site tree being written beside `outDir`: files go in as they are produced, a burst at a time (so a large
 * site is never held in memory whole), and the whole tree replaces `outDir` only on `commit`, after its check;
 * `discard` removes whatever is left. Writes are synchronous: tens of thousands of small files go several times
 * faster than through libuv's thread pool, where each file costs three round trips. They go in bursts of
 * BURST_FILES rather than one between each app's work, so the file system's code and data stay in the
 * processor's caches through a burst: a cold 10,000-app build spent 2.8–3.0 s in writes instead of 3.4–3.7 s,
 * and in six alternated runs its system time fell from 2.5–2.8 s to 2.2–2.5 s and its wall time by 0.5 s
 * (median). `wx`: a path produced twice fails (at the latest in `flush`) instead of replacing the first copy.
 *
 * With `reuse`, a file whose bytes equal the previous snapshot's file at the same path is hard-linked
 * from there instead of written: a daily run republishes mostly what it published the day before, and on
 * a disk a link costs a fraction of creating and writing a file. Every file is still produced and checked
 * in full, and only equal bytes are shared, so the tree is the same as one written out; where links cannot
 * be made (another file system), files are written.
 */
export class StagedTree {
  private readonly made = new Set<string>()
  /**
   * hasPrevious by folder of the previous snapshot: how often a folder was asked about, then, from LIST_AFTER on,
   * its regular files. A daily run asks about four files of each of 10,000 apps, two of them in two flat folders;
   * one listing each answers those instead of a stat per file (with the catalog's reads: 70,056 stats → 40,282).
   */
  private readonly listings = new Map<string, number | Set<string>>()
  private count = 0
  private linked = 0
  /** Files staged and not yet written, and their length in characters or bytes. */
  private pending: Pending[] = []
  private pendingChars = 0
  /** Where unchanged files are linked from; null once links turned out impossible (then they are written). */
  private reuse: Required<Reuse> | null
  private readonly previousDir: string | null
  /** The staging folder with a trailing separator: every file written starts with it. */
  private readonly stagingPrefix: string

  private constructor(
    private readonly target: string,
    private readonly staging: string,
    private readonly retired: string,
    reuse: Reuse | undefined
  ) {
    this.reuse = reuse ? { previousDir: path.resolve(reuse.previousDir), link: reuse.link ?? linkSync } : null
    this.previousDir = this.reuse?.previousDir ?? null
    this.stagingPrefix = staging + path.sep
  }

  static async open(outDir: string, reuse?: Reuse): Promise<StagedTree> {
    const target = path.resolve(outDir)
    const parent = path.dirname(target)
    const base = path.basename(target)
    const tag = `${process.pid}-${randomBytes(4).toString('hex')}`
    await mkdir(parent, { recursive: true })
    const tree = new StagedTree(
      target,
      path.join(parent, `.${base}.new-${tag}`),
      path.join(parent, `.${base}.old-${tag}`),
      reuse
    )
    await mkdir(tree.staging)
    return tree
  }

  /** Where a site path lands in the staging folder; the path must be safe (assertSafeRelativePath). */
  private place(rel: string): string {
    assertSafeRelativePath(rel)
    const dest = under(this.staging, rel)
    // The staging folder plus a safe relative path (see under): a prefix test says what path.relative would,
    // without resolving both paths again for each of the site's files.
    if (!dest.startsWith(this.stagingPrefix))
      throw new UnsafeOutputError(`refusing to write outside the output directory: ${rel}`)
    return dest
  }

  /** The previous snapshot's file at a (safe) site path; only called when there is a previous snapshot. */
  private previousPath(rel: string): string {
    return under(this.previousDir!, rel)
  }

  /** Make the folder of `dest` in the staging tree, once. */
  private ensureDir(dest: string): void {
    const dir = path.dirname(dest)
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true })
      this.made.add(dir)
    }
  }

  /** Hard-link `source` to `dest`; false when it could not be (and no link is tried again after CANNOT_LINK). */
  private tryLink(source: string, dest: string): boolean {
    if (!this.reuse) return false
    try {
      this.reuse.link(source, dest)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? ''
      if (code === 'EEXIST') throw e // a path produced twice, as with `wx`
      if (CANNOT_LINK.has(code)) this.reuse = null
      return false
    }
    this.linked++
    return true
  }

  /** Link the previous snapshot's file at `rel` to `dest` when its bytes are `content`; false when it was not. */
  private linkUnchanged(rel: string, dest: string, content: string | Buffer): boolean {
    if (!this.reuse) return false
    const source = this.previousPath(rel)
    const size = typeof content === 'string' ? Buffer.byteLength(content) : content.length
    // A symbolic link of the previous tree is never read, so it is never linked into the new one.
    const before = readRegularFile(source, size)
    // Bytes, not decoded text: two different byte strings can decode to the same text.
    if (!('bytes' in before) || before.bytes.length !== size) return false
    if (!before.bytes.equals(typeof content === 'string' ? Buffer.from(content) : content)) return false
    return this.tryLink(source, dest)
  }

  /**
   * Stage `content` at `rel`; it is written with its burst (at the latest by `flush` or `commit`). An unsafe path
   * is refused at once. `fresh`: the caller knows it differs from the previous snapshot's file (it carries a new
   * timestamp), so that file is not read for a comparison; the bytes written are the same.
   */
  write(rel: string, content: string | Buffer, fresh = false): void {
    this.pending.push({ dest: this.place(rel), rel, content, fresh })
    this.pendingChars += content.length
    if (this.pending.length >= BURST_FILES || this.pendingChars >= BURST_CHARS) this.flush()
  }

  /** Write out every staged file (commit does; a caller may, to have a write's error at once). */
  flush(): void {
    const burst = this.pending
    this.pending = []
    this.pendingChars = 0
    for (const { dest, rel, content, fresh } of burst) this.writeOut(dest, rel, content, fresh)
  }

  private writeOut(dest: string, rel: string, content: string | Buffer, fresh: boolean): void {
    this.ensureDir(dest)
    if (fresh || !this.linkUnchanged(rel, dest, content)) {
      if (typeof content !== 'string') writeFileSync(dest, content, { flag: 'wx' })
      else {
        const fd = openSync(dest, 'wx')
        try {
          writeTextSync(fd, content)
        } finally {
          closeSync(fd)
        }
      }
    }
    this.count++
  }

  /** Does the previous snapshot hold a regular file at `rel` (not a link, not a folder)? */
  hasPrevious(rel: string): boolean {
    if (!this.previousDir) return false
    assertSafeRelativePath(rel)
    const slash = rel.lastIndexOf('/')
    const folder = rel.slice(0, slash + 1)
    const known = this.listings.get(folder) ?? 0
    if (typeof known !== 'number') return known.has(rel.slice(slash + 1))
    if (known + 1 < LIST_AFTER) {
      this.listings.set(folder, known + 1)
      try {
        return lstatSync(this.previousPath(rel)).isFile()
      } catch {
        return false
      }
    }
    const files = new Set<string>()
    try {
      // A name the file system gives no type for is lstat'ed by Node, so isFile() means what lstat says.
      for (const e of readdirSync(this.previousPath(folder), { withFileTypes: true })) if (e.isFile()) files.add(e.name)
    } catch {
      // No such folder: none of its files are there.
    }
    this.listings.set(folder, files)
    return files.has(rel.slice(slash + 1))
  }

  /**
   * Carry the previous snapshot's file at `rel` over unread: linked, or copied where it cannot be linked.
   * For files whose inputs the caller knows unchanged (pipeline/reuse.ts), after `hasPrevious`.
   */
  adopt(rel: string): void {
    if (!this.previousDir) throw new Error(`adopt ${rel}: there is no previous snapshot`)
    const dest = this.place(rel)
    const source = this.previousPath(rel)
    this.ensureDir(dest)
    if (!this.tryLink(source, dest)) copyFileSync(source, dest, constants.COPYFILE_EXCL)
    this.count++
  }

  /** How many of the files written out so far were linked from the previous snapshot rather than written. */
  get unchanged(): number {
    return this.linked
  }

  /** Run `check` on the staged tree, then swap it in for `outDir`; returns the number of files written. */
  async commit(check: () => void | Promise<void> = () => {}): Promise<number> {
    this.flush()
    await check()
    const hadTarget = existsSync(this.target)
    if (hadTarget) await rename(this.target, this.retired)
    try {
      await rename(this.staging, this.target)
    } catch (e) {
      if (hadTarget) await rename(this.retired, this.target)
      throw e
    }
    if (hadTarget) await rm(this.retired, { recursive: true, force: true })
    return this.count
  }

  /** Remove the staging folder (nothing, after a commit). */
  async discard(): Promise<void> {
    this.pending = []
    this.pendingChars = 0
    await rm(this.staging, { recursive: true, force: true })
  }
}

/** Is the process that named a folder `<pid>-<hex>` still running (so its build may still be writing)? */
function alive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Clean up after a build that was interrupted (kill -9, power loss): remove the staging folders
 * (`.<out>.new-<pid>-<hex>`) and retired trees (`.<out>.old-…`) that no running build owns, and when `outDir` is
 * missing, but a complete retired tree exists (it holds the API catalog), rename the newest back first: the build
 * was stopped between its two renames. Returns what it did, one line each, for the run's log.
 */
export async function recoverOutputDir(outDir: string): Promise<string[]> {
  const target = path.resolve(outDir)
  const parent = path.dirname(target)
  const base = path.basename(target)
  let names: string[]
  try {
    names = await readdir(parent)
  } catch {
    return []
  }
  const litter: { name: string; kind: 'new' | 'old'; dir: string }[] = []
  for (const name of names) {
    for (const kind of ['new', 'old'] as const) {
      const prefix = `.${base}.${kind}-`
      const m = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length)) : null
      if (m && !alive(Number(m[1]))) litter.push({ name, kind, dir: path.join(parent, name) })
    }
  }
  const done: string[] = []
  if (!existsSync(target)) {
    const complete = []
    for (const l of litter.filter((x) => x.kind === 'old')) {
      if (existsSync(path.join(l.dir, ...MARKER.split('/'))))
        complete.push({ ...l, mtime: (await stat(l.dir)).mtimeMs })
    }
    const newest = complete.sort((a, b) => b.mtime - a.mtime)[0]
    if (newest) {
      await rename(newest.dir, target)
      done.push(`restored ${outDir} from ${newest.name}, left by a build interrupted between its two renames`)
      litter.splice(
        litter.findIndex((x) => x.name === newest.name),
        1
      )
    }
  }
  for (const l of litter) {
    await rm(l.dir, { recursive: true, force: true })
    done.push(`removed ${l.name}, left by an interrupted build`)
  }
  return done
}
