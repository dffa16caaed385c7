// Runs the committed bundle dist/cli/index.js exactly as a user would, and checks
// each bad-input case: a clear message naming file and field, a non-zero exit,
// and the previously written site left byte-identical.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { SEMI_SPACE_FLAG } from '../src/util/heap.js'
import { startFakeGitHub } from './support/fake-github.js'
import { it as itShared } from './support/needs-shared-data.js'
import { readSharedJsonl, RELEASE_NOTES } from './support/shared-data.js'
import { tempDir } from './support/tmp.js'

const CLI = path.resolve('dist/cli/index.js')
const NOW = '2026-11-21T12:00:00.000Z'
let dir: string
let cleanup: () => Promise<void>

function cli(args: string[], opts: { cwd?: string; input?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? dir,
    encoding: 'utf8',
    input: opts.input ?? '',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env }
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** A digest of every file of a tree, paths included; `except`: site paths left out. */
async function treeHash(root: string, except: string[] = []): Promise<string> {
  const h = createHash('sha256')
  const entries = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
  const files = entries.map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort()
  for (const f of files.filter((f) => !except.includes(f.split(path.sep).join('/'))))
    h.update(`${f}\0`)
      .update(await readFile(path.join(root, f)))
      .update('\0')
  return h.digest('hex')
}

/**
 * A fixed handful of the bundled records, for the tests that need a real catalog but not the whole bundled one:
 * their cost stays the same as the bundled catalog grows. gitea is the record the bad-input cases break.
 */
const SAMPLE_APPS = ['gitea', 'grafana', 'linkding', 'mariadb', 'nextcloud', 'prometheus', 'traefik', 'watchtower']

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir())
  await cp('catalog', path.join(dir, 'catalog'), { recursive: true })
  await cp('catalog/endoflife', path.join(dir, 'sample/endoflife'), { recursive: true })
  await mkdir(path.join(dir, 'sample/apps'))
  for (const slug of SAMPLE_APPS) await cp(`catalog/apps/${slug}.yml`, path.join(dir, `sample/apps/${slug}.yml`))
})
afterAll(() => cleanup())

describe('updatesafe CLI (dist bundle)', () => {
  it('validates the bundled catalog', () => {
    const r = cli(['validate', '--catalog', 'catalog'])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/catalog: \d+ records, all valid/)
  })

  it('runs a build again with a small young generation from Node 24 on, and every other command at once', async () => {
    // Preloaded into each process the command starts (NODE_OPTIONS is inherited): says how its heap was set.
    const reporter = path.join(dir, 'report-process.mjs')
    const small = JSON.stringify(SEMI_SPACE_FLAG)
    await writeFile(
      reporter,
      `process.stderr.write('PROCESS ' + (process.execArgv.includes(${small}) ? 'small' : 'default') + '\\n')\n`
    )
    const processes = (args: string[]) => {
      const r = cli(args, { env: { NODE_OPTIONS: `--import=${reporter}` } })
      expect(r.code).toBe(0)
      return [...r.stderr.matchAll(/^PROCESS (\w+)$/gm)].map((m) => m[1])
    }
    const rerun = Number(process.versions.node.split('.')[0]) >= 24
    const build = [
      'build',
      '--catalog',
      'sample',
      '--out',
      'young',
      '--base-url',
      'https://example.org/c',
      '--now',
      NOW
    ]
    expect(processes(build)).toEqual(rerun ? ['default', 'small'] : ['default'])
    expect(processes(['validate', '--catalog', 'catalog'])).toEqual(['default'])
  })

  it('builds a byte-identical tree from the same input and --now', async () => {
    const a = cli(['build', '--catalog', 'sample', '--out', 'a', '--base-url', 'https://example.org/c', '--now', NOW])
    expect(a.code).toBe(0)
    expect(a.stdout).toBe('')
    expect(a.stderr).toMatch(/changed: all \d+ apps \(no --previous snapshot to compare with\)/)
    const b = cli(['build', '--catalog', 'sample', '--out', 'b', '--base-url', 'https://example.org/c/', '--now', NOW])
    expect(b.code).toBe(0)
    expect(await treeHash(path.join(dir, 'a'))).toBe(await treeHash(path.join(dir, 'b')))
    const doc = JSON.parse(await readFile(path.join(dir, 'a/api/v1/apps.json'), 'utf8'))
    expect(doc.generatedAt).toBe(NOW)
    expect(doc.apps[0].url).toBe(`https://example.org/c/apps/${doc.apps[0].slug}/`)
  })

  itShared(
    'builds the bundled catalog and a 1,000-app catalog with --previous into the recorded trees',
    async () => {
      // The digests in fixtures/golden-trees.json were recorded from the build before a refactor; a change
      // of output is deliberate only when the recording is renewed: UPDATE_GOLDEN=1 npm test -- cli.test
      // (GOLDEN_CLI=path/to/cli/index.js records another bundle's output, e.g. the one before a change).
      const golden = '__tests__/fixtures/golden-trees.json'
      const bin = process.env.GOLDEN_CLI ? path.resolve(process.env.GOLDEN_CLI) : CLI
      // Asynchronous, so that builds that do not wait for each other run side by side.
      const run = async (args: string[]) => {
        const child = spawn(process.execPath, [bin, 'build', ...args, '--base-url', 'https://example.org/c'], {
          cwd: dir,
          stdio: ['ignore', 'ignore', 'pipe']
        })
        let stderr = ''
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
        await new Promise((resolve) => child.on('close', resolve))
        expect(stderr).toContain('wrote')
        return stderr
      }
      const notes = readSharedJsonl<Record<string, string>>(RELEASE_NOTES)
      /** Day 0, and day 1 when 1% of the apps have a newer release: records of facts, their notes in a notes file. */
      const synthetic = async (name: string, day: number) => {
        await mkdir(path.join(dir, name, 'apps'), { recursive: true })
        const lines: string[] = []
        for (let i = 0; i < 1000; i++) {
          const bumped = day > 0 && i % 100 === 7
          const n = notes[(i + (bumped ? 1 : 0)) % notes.length]!
          const version = bumped ? `${n.version}.${day}` : n.version!
          const release = {
            version,
            url: `https://github.com/owner/app-${i}/releases/tag/${encodeURIComponent(n.tag ?? n.version!)}`,
            ...(n.date ? { date: n.date } : {}),
            checked: bumped ? '2026-11-22' : '2026-11-21'
          }
          const record = { name: `${notes[i % notes.length]!.app} ${i}`, repo: `owner/app-${i}`, release }
          await writeFile(
            path.join(dir, name, 'apps', `app-${i}.yml`),
            `# synthetic, notes of ${n.id}\n${JSON.stringify(record)}\n`
          )
          lines.push(JSON.stringify({ repo: `owner/app-${i}`, version, tag: null, date: n.date, notes: n.notes }))
        }
        await writeFile(path.join(dir, name, 'notes.jsonl'), `${lines.join('\n')}\n`)
      }
      // The bundled build waits for nothing; day 1 and the full day 1 below wait only for day 0.
      const bundled = run(['--catalog', 'catalog', '--notes-from', RELEASE_NOTES, '--out', 'g-bundled', '--now', NOW])
      bundled.catch(() => {}) // awaited below; a failure is reported there, not as an unhandled rejection
      await synthetic('syn0', 0)
      await synthetic('syn1', 1)
      await run(['--catalog', 'syn0', '--notes-from', 'syn0/notes.jsonl', '--out', 'g-day0', '--now', NOW])
      const day1Args = (previous: string) => [
        '--catalog',
        'syn1',
        '--notes-from',
        'syn1/notes.jsonl',
        '--out',
        previous === 'g-day0' ? 'g-day1' : 'g-day1-full',
        '--previous',
        previous,
        '--now',
        '2026-11-22T12:00:00.000Z'
      ]
      /** Day 1 again from a copy of day 0 without its reuse record: a build that reads every app (checked below). */
      const fullDay1 = async () => {
        await cp(path.join(dir, 'g-day0'), path.join(dir, 'g-day0-full'), { recursive: true })
        await rm(path.join(dir, 'g-day0-full/.updatesafe/reuse.json'))
        return run(day1Args('g-day0-full'))
      }
      const [day1, full] = await Promise.all([
        run(day1Args('g-day0')),
        process.env.GOLDEN_CLI ? Promise.resolve('') : fullDay1()
      ])
      await bundled
      // The reuse record names the program that wrote it, so it moves with every change of code: not recorded.
      const trees: Record<string, string> = {}
      for (const t of ['bundled', 'day0', 'day1'])
        trees[t] = await treeHash(path.join(dir, `g-${t}`), ['.updatesafe/reuse.json'])
      if (process.env.UPDATE_GOLDEN === '1') await writeFile(golden, `${JSON.stringify(trees, null, 2)}\n`)
      expect(trees).toEqual(JSON.parse(await readFile(golden, 'utf8')))
      if (process.env.GOLDEN_CLI) return
      // Day 1 carried the 990 unchanged apps over unread, and built the same tree as a build that reads every app
      // (from a copy of day 0 without its reuse record), the reuse record included.
      expect(day1).toContain('990 apps unchanged since it, carried over unread')
      expect(full).not.toContain('carried over')
      expect(await treeHash(path.join(dir, 'g-day1-full'))).toBe(await treeHash(path.join(dir, 'g-day1')))
      // Four builds, three of them of 1,000 apps, fixed by the recording: it took 45 of the default 60 s alone and
      // ran out of them beside other work, so it has its own limit (at least twice what it takes under load).
    },
    240_000
  )

  it('refreshes from GitHub with --refresh (the client is loaded only then, from its own chunk of the bundle)', async () => {
    const token = 'fake-token-for-cli-tests'
    const fake = await startFakeGitHub({
      token,
      repos: [
        {
          owner: 'sissbruecker',
          name: 'linkding',
          releases: [{ tagName: 'v1.46.3', body: '### Fixes\n\n* Fix tag links', createdAt: '2026-11-01T10:00:00Z' }]
        }
      ]
    })
    try {
      const catalog = path.join(dir, 'cli-refresh-catalog')
      await mkdir(path.join(catalog, 'apps'), { recursive: true })
      await writeFile(path.join(catalog, 'apps/linkding.yml'), 'name: linkding\nrepo: sissbruecker/linkding\n')
      const env = {
        PATH: process.env.PATH ?? '',
        GITHUB_TOKEN: token,
        GITHUB_API_URL: fake.apiUrl,
        GITHUB_GRAPHQL_URL: fake.graphqlUrl
      }
      // Asynchronous: the fake server answers from this process.
      const args = [
        CLI,
        'build',
        '--catalog',
        catalog,
        '--out',
        path.join(dir, 'cli-refreshed'),
        '--refresh',
        '--now',
        NOW
      ]
      const child = spawn(process.execPath, args, { cwd: dir, env })
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
      expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) })
      expect(fake.counts.graphql).toBeGreaterThan(0)
      expect(fake.invalid).toEqual([])
      expect(stderr).not.toContain(token)
      const doc = JSON.parse(await readFile(path.join(dir, 'cli-refreshed/api/v1/apps.json'), 'utf8'))
      expect(doc.apps.map((a: { latestVersion: string }) => a.latestVersion)).toEqual(['v1.46.3'])
    } finally {
      await fake.close()
    }
  })

  it('defaults the base URL to the Pages address inside GitHub Actions', async () => {
    const r = spawnSync(process.execPath, [CLI, 'build', '--catalog', 'sample', '--out', 'gh', '--now', NOW], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'someone/updatesafe' }
    })
    expect(r.status).toBe(0)
    const doc = JSON.parse(await readFile(path.join(dir, 'gh/api/v1/apps.json'), 'utf8'))
    expect(doc.apps[0].badge).toBe(`https://someone.github.io/updatesafe/badge/${doc.apps[0].slug}.svg`)
  })

  it('refuses to write the site over the catalog or a repository root', async () => {
    expect(cli(['build', '--catalog', 'catalog', '--out', 'catalog']).stderr).toContain(
      'refusing the output directory catalog (--out, input output)'
    )
    await mkdir(path.join(dir, 'repo', '.git'), { recursive: true })
    const r = cli(['build', '--catalog', 'catalog', '--out', 'repo'])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('git repository root')
  })

  it('names a file outside the working folder as typed, and says who judges only once the inputs are accepted', async () => {
    const { dir: elsewhere, cleanup: done } = await tempDir()
    try {
      const missing = path.join(elsewhere, 'none.jsonl')
      const notes = cli(['build', '--catalog', 'catalog', '--out', 'site-x', '--notes-from', missing])
      expect(notes.stderr).toContain(`error: ${missing}: --notes-from cannot be read (ENOENT)`)
      const catalog = cli(['build', '--catalog', elsewhere, '--out', 'site-x'])
      // A folder has no line or column to point at.
      expect(catalog.stderr).toContain(`error: ${path.join(elsewhere, 'apps')}: catalog has no apps/ directory`)
      const previous = cli(['build', '--catalog', 'catalog', '--out', 'site-x', '--previous', missing])
      expect(previous.code).toBe(2)
      for (const r of [notes, catalog, previous]) expect(r.stdout + r.stderr).not.toContain('the rules judge')
      for (const [flag, file] of [
        ['--notes-file', missing],
        ['--jsonl', missing],
        ['--jsonl', elsewhere]
      ] as const) {
        const r = cli(['classify', flag, file])
        expect({ code: r.code, stderr: r.stderr.trim() }).toEqual({
          code: 1,
          stderr:
            file === elsewhere
              ? `error: ${file}: --jsonl is not a regular file (a folder, a device or a pipe is never read)`
              : `error: ${file}: ${flag} cannot be read (ENOENT)`
        })
      }
    } finally {
      await done()
    }
  })

  it('rejects bad flags with usage and exit 2', () => {
    expect(cli(['build', '--catalog', 'catalog', '--out', 'x', '--now', 'yesterday']).code).toBe(2)
    expect(cli(['build', '--bogus']).code).toBe(2)
    expect(cli(['frobnicate']).code).toBe(2)
    for (const command of ['build', 'serve', 'classify', 'validate']) {
      const help = cli([command, '--help'])
      expect({ command, code: help.code }).toEqual({ command, code: 0 })
      expect(help.stdout).toContain(`  ${command} `)
    }
  })

  describe('bad input leaves the published site untouched', () => {
    const cases: [string, (apps: string) => Promise<void>, RegExp][] = [
      [
        'an unknown key',
        (apps) => writeFile(`${apps}/gitea.yml`, 'name: Gitea\nrepo: go-gitea/gitea\nhompage: x\n'),
        /gitea\.yml:3:1: hompage: unknown key/
      ],
      [
        'a missing name',
        (apps) => writeFile(`${apps}/gitea.yml`, 'repo: go-gitea/gitea\n'),
        /gitea\.yml:1:1: name: is required/
      ],
      [
        'a bad slug file name',
        (apps) => writeFile(`${apps}/Foo_Bar.yml`, 'name: F\nrepo: a/f\n'),
        /Foo_Bar\.yml:1:1: file name "Foo_Bar\.yml" is not a valid slug/
      ],
      [
        'a dotted file name',
        (apps) => writeFile(`${apps}/..x.yml`, 'name: F\nrepo: a/f\n'),
        /\.\.x\.yml:1:1: .*not a valid slug/
      ],
      [
        'a repo that is not owner/name',
        (apps) => writeFile(`${apps}/gitea.yml`, 'name: Gitea\nrepo: gitea\n'),
        /gitea\.yml:2:7: repo: must be "<owner>\/<name>"/
      ],
      [
        'a YAML syntax error',
        (apps) => writeFile(`${apps}/gitea.yml`, 'name: Gitea\nrepo: [go-gitea/gitea\n'),
        /gitea\.yml:\d+:\d+: YAML syntax error/
      ],
      [
        'the same repo twice',
        (apps) => writeFile(`${apps}/gitea-copy.yml`, 'name: Gitea again\nrepo: go-gitea/gitea\n'),
        /gitea\.yml:\d+:1: repo: repository go-gitea\/gitea is already tracked by .*gitea-copy\.yml/
      ],
      [
        'a non-UTF-8 file',
        (apps) => writeFile(`${apps}/latin.yml`, Buffer.from('name: Caf\xe9\nrepo: a/b\n', 'latin1')),
        /latin\.yml:1:1: is not valid UTF-8 text/
      ],
      [
        'an empty catalog',
        async (apps) => {
          for (const f of await readdir(apps)) await rm(`${apps}/${f}`)
        },
        /catalog is empty/
      ],
      [
        'a record that links to a file outside the catalog',
        async (apps) => {
          await writeFile(path.join(dir, 'secret.txt'), 'token: hunter2\n')
          await symlink(path.join(dir, 'secret.txt'), `${apps}/evil.yml`)
        },
        /evil\.yml:1:1: is a symbolic link; a record must be a regular file in the catalog/
      ]
    ]
    // The site every case starts from is built once: a build of the same input and --now is byte-identical
    // (tested above), so each case gets a copy of it instead of building it again.
    let ok: ReturnType<typeof cli>
    let before: string
    beforeAll(async () => {
      await cp(path.join(dir, 'sample'), path.join(dir, 'bad-base', 'catalog'), { recursive: true })
      ok = cli(['build', '--catalog', 'catalog', '--out', 'site', '--now', NOW], { cwd: path.join(dir, 'bad-base') })
      before = await treeHash(path.join(dir, 'bad-base', 'site'))
    })
    it.each(cases)('%s', async (_label, breakIt, message) => {
      const work = path.join(dir, `bad-${Math.random().toString(36).slice(2)}`)
      await cp(path.join(dir, 'bad-base'), work, { recursive: true })
      expect(ok.code).toBe(0)
      expect(await treeHash(path.join(work, 'site'))).toBe(before)
      await breakIt(path.join(work, 'catalog', 'apps'))
      const r = cli(['build', '--catalog', 'catalog', '--out', 'site', '--now', '2026-11-22T12:00:00.000Z'], {
        cwd: work
      })
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(message)
      expect(r.stderr).not.toContain('hunter2')
      expect(await treeHash(path.join(work, 'site'))).toBe(before)
      expect((await readdir(work)).sort()).toEqual(['catalog', 'site'])
      if (!/release data/.test(message.source)) {
        const v = cli(['validate', '--catalog', 'catalog'], { cwd: work })
        expect(v.code).toBe(1)
        expect(v.stderr).toMatch(message)
        // validate never writes, so its summary does not say that nothing was.
        expect(v.stderr).toMatch(/\d+ catalog errors?\n$/)
      }
    })
  })

  it('classifies JSONL in input order, nothing else on stdout, and names a malformed line', async () => {
    const input = [
      { id: 'a', notes: '## Breaking changes\n- The `--legacy` flag was removed; update your config.' },
      { id: 'b', notes: '' },
      { id: 'c', notes: '### Bug fixes\n- Fix a typo in the settings page.' }
    ]
    await writeFile(path.join(dir, 'in.jsonl'), input.map((l) => JSON.stringify(l)).join('\n') + '\n')
    const r = cli(['classify', '--jsonl', 'in.jsonl'])
    expect(r.code).toBe(0)
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(out.map((o) => o.id)).toEqual(['a', 'b', 'c'])
    // The learned classifier keeps doubt at caution for one-line notes: never safe for a removal, never breaking for a typo fix.
    expect(out[0].safeToUpdate).toMatch(/^(?:caution|breaking)$/)
    expect(out[1].safeToUpdate).toBe('unknown')
    expect(out[2].safeToUpdate).toMatch(/^(?:safe|caution)$/)
    expect(out[1].changelogSummary).toBe('...')
    for (const o of out) expect(Object.keys(o)).toEqual(['id', 'safeToUpdate', 'rationale', 'changelogSummary'])
    await writeFile(path.join(dir, 'bad.jsonl'), `${JSON.stringify(input[0])}\n{not json\n`)
    const bad = cli(['classify', '--jsonl', 'bad.jsonl'])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/line 2/)
  })
})
