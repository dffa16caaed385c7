// The release step of .github/workflows/release.yml against a local bare
// repository standing in for GitHub: scripts/release.sh reads the notes from
// CHANGELOG.md, tags vX.Y.Z and moves the major tag, in a fresh clone per
// release as on a runner (actions/checkout with fetch-depth 0).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { tempDir } from './support/tmp.js'

const SCRIPT = path.resolve('scripts/release.sh')
let dir: string
let cleanup: () => Promise<void>
let remote: string
let env: NodeJS.ProcessEnv
let clones = 0

function sh(cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...env, ...extra } })
  return { code: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout }
}

function git(args: string[], cwd: string): string {
  const r = sh('git', args, cwd)
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.out}`)
  return r.stdout.trim()
}

/** The commit a tag on the remote points at, or null when it has no such tag. */
function remoteTag(tag: string): string | null {
  const r = sh('git', ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`], remote)
  return r.code === 0 ? r.stdout.trim() : null
}

const changelog = (sections: string) =>
  `# Changelog\n\nIntro.\n\n## [Unreleased]\n\n${sections}[1.0.0]: https://github.com/o/updatesafe/releases/tag/v1.0.0\n`
const section = (v: string, line: string) => `## [${v}] - 2026-11-24\n\n### Fixed\n\n- ${line}\n\n`

/** A maintainer's commit on main: package.json at `version` and the changelog given. */
async function commitRelease(version: string, log: string): Promise<string> {
  const work = path.join(dir, `maintainer`)
  await writeFile(path.join(work, 'package.json'), `${JSON.stringify({ name: 'updatesafe', version }, null, 2)}\n`)
  await writeFile(path.join(work, 'CHANGELOG.md'), log)
  git(['add', '.'], work)
  git(['-c', 'user.name=M', '-c', 'user.email=m@example.org', 'commit', '--quiet', '-m', `Release ${version}`], work)
  git(['push', '--quiet', 'origin', 'main'], work)
  return git(['rev-parse', 'HEAD'], work)
}

/** One run of the workflow's tag step in a fresh full clone. */
function release(version: string, extra: NodeJS.ProcessEnv = {}) {
  const clone = path.join(dir, `runner-${++clones}`)
  git(['clone', '--quiet', remote, clone], dir)
  return { clone, ...sh('bash', [SCRIPT, 'tag', version], clone, extra) }
}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-release-'))
  // A hermetic git without an identity (the script must bring the bot's); node for reading package.json.
  env = {
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    LANG: 'C'
  }
  remote = path.join(dir, 'remote.git')
  git(['init', '--quiet', '--bare', '--initial-branch=main', remote], dir)
  git(['clone', '--quiet', remote, path.join(dir, 'maintainer')], dir)
})
afterAll(() => cleanup())

describe('release.sh notes', () => {
  it('prints exactly the section of the version, matched literally', async () => {
    const work = path.join(dir, 'notes')
    await import('node:fs/promises').then((fs) => fs.mkdir(work))
    await writeFile(
      path.join(work, 'CHANGELOG.md'),
      changelog(section('1.10.0', 'ten') + section('1.1.0', 'one') + section('1.0.0', 'zero'))
    )
    const r = sh('bash', [SCRIPT, 'notes', '1.1.0'], work)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('### Fixed\n\n- one\n')
    const last = sh('bash', [SCRIPT, 'notes', '1.0.0'], work)
    expect(last.stdout).toBe('### Fixed\n\n- zero\n\n[1.0.0]: https://github.com/o/updatesafe/releases/tag/v1.0.0\n')
    expect(sh('bash', [SCRIPT, 'notes', '1.1'], work).out).toContain("'1.1' is not a semantic version")
    const missing = sh('bash', [SCRIPT, 'notes', '2.0.0'], work)
    expect(missing.code).not.toBe(0)
    expect(missing.out).toContain("CHANGELOG.md has no section '## [2.0.0] - YYYY-MM-DD'")
  })

  it('reads the real CHANGELOG.md for the version in package.json', async () => {
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string }
    const r = sh('bash', [SCRIPT, 'notes', version], process.cwd())
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('### Added')
  })
})

describe('release.sh tag, against a bare repository', () => {
  let first: string
  it('tags v1.0.0 and creates v1 at the released commit, as the Actions bot', async () => {
    first = await commitRelease('1.0.0', changelog(section('1.0.0', 'first')))
    const r = release('1.0.0', { GITHUB_OUTPUT: path.join(dir, 'out-1') })
    expect(r.out).toContain('tagged v1.0.0')
    expect(r.code).toBe(0)
    expect(remoteTag('v1.0.0')).toBe(first)
    expect(remoteTag('v1')).toBe(first)
    expect(
      git(['for-each-ref', '--format=%(objecttype) %(taggername) %(taggeremail)', 'refs/tags/v1.0.0'], remote)
    ).toBe('tag github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>')
    expect(await readFile(path.join(dir, 'out-1'), 'utf8')).toBe('tag=v1.0.0\nmajor=v1\nmoved=true\n')
  })

  let second: string
  it('moves v1 to v1.1.0 and leaves v1.0.0 where it was', async () => {
    second = await commitRelease('1.1.0', changelog(section('1.1.0', 'second') + section('1.0.0', 'first')))
    const r = release('1.1.0')
    expect(r.code).toBe(0)
    expect(remoteTag('v1.1.0')).toBe(second)
    expect(remoteTag('v1')).toBe(second)
    expect(remoteTag('v1.0.0')).toBe(first)
  })

  it('refuses a tag that exists, a version package.json does not say, and one without notes', async () => {
    const again = release('1.1.0')
    expect(again.code).not.toBe(0)
    expect(again.out).toContain('tag v1.1.0 already exists')

    const mismatch = release('1.2.0')
    expect(mismatch.code).not.toBe(0)
    expect(mismatch.out).toContain('package.json says version 1.1.0, not 1.2.0')

    await commitRelease('1.2.0', changelog(section('1.1.0', 'second')))
    const noNotes = release('1.2.0')
    expect(noNotes.code).not.toBe(0)
    expect(noNotes.out).toContain("no section '## [1.2.0]")
    expect(remoteTag('v1.2.0')).toBeNull()
    expect(remoteTag('v1')).toBe(second)
  })

  it('a prerelease gets its tag but does not move v1; v2.0.0 starts v2 and leaves v1 alone', async () => {
    const rc = await commitRelease('1.2.0-rc.1', changelog(section('1.2.0-rc.1', 'candidate')))
    const r = release('1.2.0-rc.1')
    expect(r.code).toBe(0)
    expect(r.out).toContain('1.2.0-rc.1 is a prerelease: v1 stays where it is')
    expect(remoteTag('v1.2.0-rc.1')).toBe(rc)
    expect(remoteTag('v1')).toBe(second)

    const major = await commitRelease('2.0.0', changelog(section('2.0.0', 'major')))
    expect(release('2.0.0').code).toBe(0)
    expect(remoteTag('v2')).toBe(major)
    expect(remoteTag('v1')).toBe(second)
  })

  it('a patch of an older line released later does not move the major tag back', async () => {
    // v1.0.1 on top of v1.0.0's line, after v1.1.0: v1 stays at v1.1.0.
    const work = path.join(dir, 'maintainer')
    git(['checkout', '--quiet', '-b', 'v1.0.x', first], work)
    await writeFile(
      path.join(work, 'package.json'),
      `${JSON.stringify({ name: 'updatesafe', version: '1.0.1' }, null, 2)}\n`
    )
    await writeFile(path.join(work, 'CHANGELOG.md'), changelog(section('1.0.1', 'patch') + section('1.0.0', 'first')))
    git(['add', '.'], work)
    git(['-c', 'user.name=M', '-c', 'user.email=m@example.org', 'commit', '--quiet', '-m', 'Release 1.0.1'], work)
    git(['push', '--quiet', 'origin', 'v1.0.x'], work)
    const clone = path.join(dir, 'runner-patch')
    git(['clone', '--quiet', '--branch', 'v1.0.x', remote, clone], dir)
    const r = sh('bash', [SCRIPT, 'tag', '1.0.1'], clone)
    expect(r.code).toBe(0)
    expect(r.out).toContain('v1 points at v1.1.0, newer than 1.0.1: it stays')
    expect(remoteTag('v1.0.1')).toBe(git(['rev-parse', 'HEAD'], clone))
    expect(remoteTag('v1')).toBe(second)
  })
})
