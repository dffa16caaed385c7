// How a path a user named is shown in messages.
import path from 'node:path'

/**
 * `file` as the user most likely typed it: relative to `cwd` when it lies beneath it (so Actions annotations point
 * into the repository), else absolute. `/tmp/x` run from `/work/repo` stays `/tmp/x`, not `../../tmp/x`.
 */
export function shownPath(file: string, cwd: string): string {
  const abs = path.resolve(cwd, file)
  const rel = path.relative(cwd, abs)
  if (rel === '') return '.'
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) ? abs : rel
}
