// git as the tests run it: a fixed author, no system or user configuration (HOME is the test's own folder).
import { execFileSync } from 'node:child_process'

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
