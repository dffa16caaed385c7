// The image references a pull request changes, from the checkout's git alone: the YAML files that
// differ between the merge base and the head, each read at both commits (`git show`), and each
// reference paired with the one at the same place (file and field) before.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { ImageChange } from './report.js'
import { findImageRefs } from './refs.js'

const run = promisify(execFile)

/** A file larger than this is not a manifest anyone reviews; it is left out. */
const MAX_FILE_BYTES = 1024 * 1024
const YAML_FILE = /\.ya?ml$/i

export interface Unreadable {
  file: string
  line: number
  field: string
  reason: string
}

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' })
  return stdout
}

/** A file at a commit, or null when it does not exist there (added, deleted) or is too large. */
async function fileAt(cwd: string, commit: string, file: string): Promise<string | null> {
  try {
    const size = Number((await git(cwd, ['cat-file', '-s', `${commit}:${file}`])).trim())
    if (!(size <= MAX_FILE_BYTES)) return null
    return await git(cwd, ['show', `${commit}:${file}`])
  } catch {
    return null
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
  head: string
): Promise<{ changes: ImageChange[]; added: ImageChange[]; unreadable: Unreadable[]; files: string[] }> {
  let mergeBase: string
  try {
    mergeBase = (await git(cwd, ['merge-base', base, head])).trim()
  } catch (e) {
    throw new Error(
      `git cannot find both commits ${base.slice(0, 12)} and ${head.slice(0, 12)} in ${cwd} (check out with fetch-depth: 0): ${(e as Error).message.split('\n')[0]}`
    )
  }
  const names = (await git(cwd, ['diff', '--name-only', '-z', '--no-renames', `${mergeBase}...${head}`]))
    .split('\0')
    .filter((f) => f !== '' && YAML_FILE.test(f))
  const changes: ImageChange[] = []
  const added: ImageChange[] = []
  const unreadable: Unreadable[] = []
  for (const file of names) {
    const after = await fileAt(cwd, head, file)
    if (after === null) continue // deleted: nothing to update to
    const before = await fileAt(cwd, mergeBase, file)
    const old = new Map((before === null ? [] : findImageRefs(file, before)).map((r) => [r.field, r.image]))
    for (const r of findImageRefs(file, after)) {
      const was = old.get(r.field)
      if (r.image === null) {
        unreadable.push({ file, line: r.line, field: r.field, reason: r.unreadable ?? 'a template decides it' })
        continue
      }
      if (was === r.image) continue
      const change = { file, field: r.field, line: r.line, image: r.image, baseImage: was ?? '' }
      if (was === undefined || was === null) added.push(change)
      else changes.push(change)
    }
  }
  return { changes, added, unreadable, files: names }
}
