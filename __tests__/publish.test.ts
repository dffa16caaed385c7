// The publish step of .github/workflows/publish.yml, end to end against a
// local bare repository standing in for GitHub: scripts/publish.sh prepares the
// Pages checkout, dist/index.js builds with it as `previous`, and
// scripts/publish.sh commits and pushes. Each run starts from a fresh Pages
// checkout, as on a runner.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { tempDir } from './support/tmp.js'
import { copyCatalogSample } from './support/catalog.js'

const ACTION = path.resolve('dist/index.js')
const SCRIPT = path.resolve('scripts/publish.sh')
const BASE_URL = 'https://someone.github.io/my-catalog'
let dir: string
let cleanup: () => Promise<void>
let remote: string
let work: string
let env: NodeJS.ProcessEnv

function sh(cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...env, ...extra } })
  return { code: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout }
}

function git(args: string[], cwd = work): string {
  const r = sh('git', args, cwd)
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.out}`)
  return r.stdout.trim()
}

/** Commits on the remote's Pages branch, newest first; [] when it does not exist. */
function pagesLog(): string[] {
  const r = sh('git', ['log', '--format=%H', 'gh-pages'], remote)
  return r.code === 0 ? r.stdout.trim().split('\n') : []
}

function readOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const heredoc = /^([^<\n]+)<<(.+)\n([\s\S]*?)\n\2$/gm
  for (const m of text.matchAll(heredoc)) out[m[1]!] = m[3]!
  for (const m of text.matchAll(/^([a-z]+)=(.*)$/gm)) out[m[1]!] = m[2]!
  return out
}

/** One scheduled run of the workflow: prepare, build with the action, commit. */
async function publishRun(): Promise<{ action: Record<string, string>; publish: Record<string, string>; log: string }> {
  const pages = path.join(dir, 'runner-temp/pages')
  const site = path.join(dir, 'runner-temp/site')
  // A fresh runner: no Pages worktree and no site from an earlier run.
  await rm(path.join(dir, 'runner-temp'), { recursive: true, force: true })
  git(['worktree', 'prune'])
  const logs: string[] = []

  const prepared = sh('bash', [SCRIPT, 'prepare', pages], work)
  logs.push(prepared.out)
  if (prepared.code !== 0) throw new Error(`prepare failed: ${prepared.out}`)

  const actionOut = path.join(dir, 'action-output.txt')
  await writeFile(actionOut, '')
  const built = sh('node', [ACTION], work, {
    GITHUB_OUTPUT: actionOut,
    INPUT_CATALOG: 'catalog',
    INPUT_OUTPUT: site,
    INPUT_PREVIOUS: pages,
    INPUT_REFRESH: 'false',
    'INPUT_BASE-URL': BASE_URL
  })
  logs.push(built.out)
  if (built.code !== 0) throw new Error(`action failed: ${built.out}`)
  const action = readOutputs(await readFile(actionOut, 'utf8'))

  const publishOut = path.join(dir, 'publish-output.txt')
  await writeFile(publishOut, '')
  const committed = sh('bash', [SCRIPT, 'commit', site, pages, action.changed ?? ''], work, {
    GITHUB_OUTPUT: publishOut
  })
  logs.push(committed.out)
  if (committed.code !== 0) throw new Error(`commit failed: ${committed.out}`)
  return { action, publish: readOutputs(await readFile(publishOut, 'utf8')), log: logs.join('') }
}

/** Paths a commit on the remote Pages branch touched, from `git show --stat`. */
function touched(sha: string): string[] {
  const stat = git(['show', '--stat=1000', '--format=', sha], remote)
  return stat
    .split('\n')
    .filter((l) => l.includes('|'))
    .map((l) => l.split('|')[0]!.trim())
    .sort()
}

/** The +/- lines of a file's diff with build timestamps blanked: equal when only the timestamps moved. */
function onlyTimestampsMoved(from: string, to: string, file: string): boolean {
  const diff = git(['diff', '-U0', from, to, '--', file], remote).split('\n')
  const blank = (l: string) =>
    l.slice(1).replace(/\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}\.\d{3}Z| \d{2}:\d{2} UTC)/g, '<time>')
  const removed = diff.filter((l) => l.startsWith('-') && !l.startsWith('---')).map(blank)
  const added = diff.filter((l) => l.startsWith('+') && !l.startsWith('+++')).map(blank)
  return removed.length > 0 && JSON.stringify(removed) === JSON.stringify(added)
}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-publish-'))
  // A hermetic git: no user or system configuration, no identity (the script must bring the bot's).
  env = { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' }
  remote = path.join(dir, 'remote.git')
  work = path.join(dir, 'work')
  git(['init', '--quiet', '--bare', '--initial-branch=main', remote], dir)
  git(['clone', '--quiet', remote, work], dir)
  // The publish script's work does not grow with the catalog: a sample of its shapes, the apps edited below included.
  await copyCatalogSample(path.join(work, 'catalog'), { also: ['linkding', 'watchtower'] })
  // A CNAME left on main from serving Pages from it: it must not reach the Pages branch or name the base URL.
  await writeFile(path.join(work, 'CNAME'), 'old-blog.example.org\n')
  git(['add', '.'])
  git(['-c', 'user.name=Maintainer', '-c', 'user.email=m@example.org', 'commit', '--quiet', '-m', 'Catalog'])
  git(['push', '--quiet', 'origin', 'main'])
})
afterAll(() => cleanup())

describe('scripts/publish.sh with dist/index.js', () => {
  let first: string

  it('creates the Pages branch on the first run, holding the site and .nojekyll', async () => {
    expect(pagesLog()).toEqual([])
    const run = await publishRun()
    expect(run.log).toContain('gh-pages does not exist yet')
    expect(run.publish.committed).toBe('true')
    const log = pagesLog()
    expect(log).toHaveLength(1)
    first = log[0]!
    expect(run.publish.sha).toBe(first)
    const files = git(['ls-tree', '-r', '--name-only', first], remote).split('\n')
    expect(files).toContain('.nojekyll')
    expect(files).toContain('api/v1/apps.json')
    expect(files).toContain('index.html')
    // Nothing of main's tree: the orphan worktree started empty.
    expect(files).not.toContain('CNAME')
    expect(files.filter((f) => f.startsWith('catalog/'))).toEqual([])
    expect(run.log).not.toContain('old-blog.example.org')
    expect(files).toContain('badge/linkding.svg')
    expect(files.filter((f) => f.startsWith('catalog/'))).toEqual([])
    // An orphan branch: nothing of main's history comes along.
    expect(git(['rev-list', '--count', first], remote)).toBe('1')
    const count = Number(run.action.count)
    expect(git(['log', '-1', '--format=%an <%ae>%n%s', first], remote)).toBe(
      `github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>\nPublish catalog: ${count} apps changed`
    )
    expect(git(['log', '-1', '--format=%b', first], remote)).toContain('- linkding\n')
  })

  let quiet: string
  it('commits only the run report and the index when a later run finds no change', async () => {
    const run = await publishRun()
    expect(run.action.changed).toBe('[]')
    expect(run.publish.committed).toBe('true')
    const log = pagesLog()
    expect(log).toHaveLength(2)
    expect(log[1]).toBe(first)
    quiet = log[0]!
    expect(git(['log', '-1', '--format=%s', quiet], remote)).toBe('Publish run status: no app changed')
    expect(touched(quiet)).toEqual(['api/v1/status.json', 'index.html'])
  })

  let second: string
  it('makes exactly one commit, touching only the site tree, when one app changed', async () => {
    const file = path.join(work, 'catalog/apps/linkding.yml')
    const yml = await readFile(file, 'utf8')
    await writeFile(file, yml.replaceAll('v1.46.2', 'v1.46.3'))
    const run = await publishRun()
    expect(run.action.changed).toBe('["linkding"]')
    const log = pagesLog()
    expect(log).toHaveLength(3)
    second = log[0]!
    expect(log[1]).toBe(quiet)
    expect(git(['log', '-1', '--format=%s%n%n%b', second], remote).trim()).toBe(
      'Publish catalog: linkding\n\nChanged apps:\n- linkding'
    )

    const paths = touched(second)
    // The app's own files and the catalog-wide documents change in substance …
    const own = [
      'api/v1/apps/linkding.json',
      'api/v1/badge/linkding.json',
      'apps/linkding/index.html',
      'badge/linkding.svg'
    ]
    // (.updatesafe/reuse.json: the build cache records what linkding's files were built from now.)
    const catalogWide = ['api/v1/apps.json', 'api/v1/changes.json', 'index.html', '.updatesafe/reuse.json']
    for (const p of [...own, ...catalogWide]) expect(paths).toContain(p)
    // … and every other file that moved (other apps' documents) moved only by the snapshot's timestamp.
    const others = paths.filter(
      (p) => !own.includes(p) && !catalogWide.includes(p) && !p.includes('linkding') && !p.endsWith('.xml')
    )
    for (const p of others) expect([p, onlyTimestampsMoved(quiet, second, p)]).toEqual([p, true])
    expect(paths.some((p) => p.startsWith('catalog/') || p === '.nojekyll')).toBe(false)
  })

  it('removes a deleted app from the branch and keeps .nojekyll and a custom-domain CNAME', async () => {
    // The Pages settings commit a CNAME to the branch when a custom domain is set.
    const other = path.join(dir, 'other')
    git(['clone', '--quiet', '--branch', 'gh-pages', remote, other], dir)
    await writeFile(path.join(other, 'CNAME'), 'updates.example.org\n')
    git(['add', 'CNAME'], other)
    git(['-c', 'user.name=Pages', '-c', 'user.email=p@example.org', 'commit', '--quiet', '-m', 'Create CNAME'], other)
    git(['push', '--quiet', 'origin', 'gh-pages'], other)

    await rm(path.join(work, 'catalog/apps/watchtower.yml'))
    const run = await publishRun()
    expect(run.action.changed).toBe('["watchtower"]')
    const tip = pagesLog()[0]!
    const files = git(['ls-tree', '-r', '--name-only', tip], remote).split('\n')
    expect(files.filter((f) => f.includes('watchtower'))).toEqual([])
    expect(files).toContain('.nojekyll')
    expect(files).toContain('CNAME')
    expect(git(['log', '-1', '--format=%s', tip], remote)).toBe('Publish catalog: watchtower')
  })

  it('refuses to treat an unreachable remote as a first run', () => {
    const broken = path.join(dir, 'broken')
    git(['clone', '--quiet', remote, broken], dir)
    git(['remote', 'set-url', 'origin', path.join(dir, 'nowhere.git')], broken)
    const r = sh('bash', [SCRIPT, 'prepare', path.join(dir, 'broken-pages')], broken)
    expect(r.code).not.toBe(0)
    expect(r.out).toContain('could not list the branches of origin')
  })
})

// README's workflow is the template's publish.yml byte for byte (workflows.test.ts), and template.test.ts runs that
// workflow step by step as a runner would.
