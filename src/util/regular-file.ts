// Reading a file that must be a regular file of bounded size, in one open: a symbolic link is refused by the
// open itself (O_NOFOLLOW), never followed; a FIFO does not block it (O_NONBLOCK) and fstat then refuses it.
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync
} from 'node:fs'

export type RegularFile =
  | { bytes: Buffer }
  | { refused: 'link' | 'not a file' }
  | { refused: 'too large'; size: number }
  | { refused: 'unreadable'; code: string }

/** An error's code (`ENOENT`), or its message where it has none. */
export const codeOf = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message

/** The bytes of `file` when it is a regular file of at most `maxBytes` bytes, else why not. */
export function readRegularFile(file: string, maxBytes: number): RegularFile {
  let fd: number
  try {
    // Where the platform has no O_NOFOLLOW (Windows), an lstat first says what the open would.
    if (constants.O_NOFOLLOW === undefined && lstatSync(file).isSymbolicLink()) return { refused: 'link' }
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
  } catch (e) {
    return codeOf(e) === 'ELOOP' ? { refused: 'link' } : { refused: 'unreadable', code: codeOf(e) }
  }
  try {
    const info = fstatSync(fd)
    if (!info.isFile()) return { refused: 'not a file' }
    if (info.size > maxBytes) return { refused: 'too large', size: info.size }
    const bytes = Buffer.allocUnsafe(info.size)
    let done = 0
    while (done < info.size) {
      const n = readSync(fd, bytes, done, info.size - done, done)
      if (n === 0) break // shrank while it was read
      done += n
    }
    return { bytes: done === info.size ? bytes : bytes.subarray(0, done) }
  } catch (e) {
    return { refused: 'unreadable', code: codeOf(e) }
  } finally {
    closeSync(fd)
  }
}

/**
 * Whether a refused read found no file there: nothing at the path (ENOENT), or a file where a folder on the way
 * to it should be (ENOTDIR).
 */
export function isMissing(read: RegularFile): boolean {
  return 'refused' in read && read.refused === 'unreadable' && (read.code === 'ENOENT' || read.code === 'ENOTDIR')
}

/** Why a file was refused, in words for a message that names it. */
export function refusalWords(read: Exclude<RegularFile, { bytes: Buffer }>, maxBytes: number): string {
  switch (read.refused) {
    case 'link':
      return 'is a symbolic link; it must be a regular file'
    case 'not a file':
      return 'is not a regular file (a folder, a device or a pipe is never read)'
    case 'too large':
      return `is ${read.size} bytes, larger than the ${maxBytes} bytes allowed`
    case 'unreadable':
      return `cannot be read (${read.code})`
  }
}

/**
 * Why `file` cannot be opened as a regular file, in refusalWords' words, or null when it can: asked before a file is
 * streamed, which reads no more than it needs and so cannot go through readRegularFile. A link is followed.
 */
export function unopenableFile(file: string): string | null {
  try {
    if (!statSync(file).isFile()) return refusalWords({ refused: 'not a file' }, 0)
    accessSync(file, constants.R_OK)
    return null
  } catch (e) {
    return refusalWords({ refused: 'unreadable', code: codeOf(e) }, 0)
  }
}

/**
 * The text of `file` when it is a regular UTF-8 file of at most `maxBytes` bytes, else why not (see
 * `refusalWords`). `followLinks` opens through a symbolic link (to a regular file) for files a user
 * named, where a link is an ordinary way to point at one.
 */
export function readRegularText(
  file: string,
  maxBytes: number,
  opts: { followLinks?: boolean } = {}
): { text: string } | { problem: string } {
  let target = file
  if (opts.followLinks) {
    try {
      target = realpathSync(file)
    } catch (e) {
      return { problem: `cannot be read (${codeOf(e)})` }
    }
  }
  const read = readRegularFile(target, maxBytes)
  if (!('bytes' in read)) return { problem: refusalWords(read, maxBytes) }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(read.bytes) }
  } catch {
    return { problem: 'is not UTF-8 text' }
  }
}
