// git as the tests run it: a fixed author, no system or user configuration (HOME is the test's own folder).
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** Runs `git args` in `cwd` and returns its output, trimmed. */
export function testGit(home: string): (cwd: string, ...args: string[]) => string {
  return (cwd, ...args) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.invalid',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.invalid',
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: home
      }
    }).trim()
}

/**
 * A pull request's repository at `<home>/repos/<name>`: `base` files committed on main, then each of `heads` as one
 * more commit on a branch, as Renovate or Dependabot push them. Returns the base commit and each head commit.
 */
export async function prRepository(
  home: string,
  name: string,
  base: Record<string, string>,
  ...heads: Record<string, string>[]
): Promise<{ cwd: string; base: string; heads: string[] }> {
  const git = testGit(home)
  const cwd = path.join(home, 'repos', name)
  await mkdir(cwd, { recursive: true })
  git(cwd, 'init', '-q', '-b', 'main')
  const commit = async (files: Record<string, string>, msg: string) => {
    for (const [f, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(cwd, f)), { recursive: true })
      await writeFile(path.join(cwd, f), text)
    }
    git(cwd, 'add', '-A')
    git(cwd, 'commit', '-q', '-m', msg)
    return git(cwd, 'rev-parse', 'HEAD')
  }
  const b = await commit(base, 'base')
  git(cwd, 'checkout', '-q', '-b', 'renovate/bump')
  const hs: string[] = []
  for (const [i, h] of heads.entries()) hs.push(await commit(h, `bump ${i}`))
  return { cwd, base: b, heads: hs }
}
