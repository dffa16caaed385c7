// Runs the committed bundle dist/index.js as the runner runs it: inputs as
// INPUT_* variables (hyphens kept), outputs and the job summary in real files
// named by GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, annotations on stdout.
// Offline (refresh: false), on a temporary copy of the bundled catalog.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { startFakeGitHub } from './support/fake-github.js'
import { copyCatalogSample, writeSeededCatalog } from './support/catalog.js'
import { tempDir } from './support/tmp.js'

const ACTION = path.resolve('dist/index.js')
let dir: string
let cleanup: () => Promise<void>
let slugs: string[]

interface Run {
  code: number | null
  stdout: string
  outputs: Record<string, string>
  summary: string
}

/** Parses the `name<<delimiter\nvalue\ndelimiter` records @actions/core writes. */
function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!)
    if (!m) continue
    const value: string[] = []
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!)
    out[m[1]!] = value.join('\n')
  }
  return out
}

let runs = 0
async function runAction(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<Run> {
  const n = ++runs
  const outputFile = path.join(dir, `output-${n}.txt`)
  const summaryFile = path.join(dir, `summary-${n}.md`)
  // The runner creates both files before the step; core refuses missing ones.
  await writeFile(outputFile, '')
  await writeFile(summaryFile, '')
  // Asynchronous, so a fake server in this process can answer the action.
  const child = spawn(process.execPath, [ACTION], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
      ...env
    }
  })
  let stdout = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stdout += d.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return {
    code,
    stdout,
    outputs: parseOutputFile(await readFile(outputFile, 'utf8')),
    summary: await readFile(summaryFile, 'utf8')
  }
}

/** What every run rewrites: the run report and the index that shows the last run. */
const RUN_FILES = ['api/v1/status.json', 'index.html']

async function treeHash(root: string, except: string[] = []): Promise<string> {
  const h = createHash('sha256')
  const entries = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
  const files = entries.map((e) => path.relative(root, path.join(e.parentPath, e.name)))
  for (const f of files.filter((f) => !except.includes(f)).sort()) {
    h.update(`${f}\0`)
      .update(await readFile(path.join(root, f)))
      .update('\0')
  }
  return h.digest('hex')
}

// What the runner passes when a workflow gives only `output` (action.yml's defaults).
const DEFAULTS = {
  catalog: 'catalog',
  'base-url': '',
  refresh: 'false',
  'github-token': '',
  previous: '',
  'endoflife-url': ''
}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-action-'))
  // The action's shell does not grow with the catalog: a sample of its shapes, the apps read below included.
  await copyCatalogSample(path.join(dir, 'catalog'), { also: ['adminer', 'linkding'] })
  slugs = (await readdir(path.join(dir, 'catalog/apps'))).map((f) => f.replace(/\.yml$/, '')).sort()
})
afterAll(() => cleanup())

describe('dist/index.js as the runner runs it', () => {
  it('builds the catalog offline and sets every output (first publication: every app changed)', async () => {
    const r = await runAction(
      { ...DEFAULTS, output: 'site' },
      { GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'someone/my-catalog' }
    )
    expect(r.stdout).not.toContain('::error')
    expect(r.code).toBe(0)
    expect(r.outputs).toEqual({
      count: String(slugs.length),
      changed: JSON.stringify(slugs),
      'changed-count': String(slugs.length),
      stale: '[]',
      'left-out': '[]',
      output: path.join(dir, 'site')
    })
    const doc = JSON.parse(await readFile(path.join(dir, 'site/api/v1/apps.json'), 'utf8'))
    expect(doc.count).toBe(slugs.length)
    // Without base-url the records point at the repository's Pages address.
    expect(doc.apps[0].url).toBe(`https://someone.github.io/my-catalog/apps/${doc.apps[0].slug}/`)
    expect(r.summary).toContain(`${slugs.length} apps · ${slugs.length} changed · 0 stale`)
    // Offline, the records alone: no notes are read, so no release is judged yet (a refresh reads them).
    expect(r.summary).toMatch(/\| adminer \| `6\.0\.1` \(new app\) \| \*\*unknown\*\* \|/)
  })

  it('changes nothing on a second run against the published snapshot (byte-identical tree)', async () => {
    const r = await runAction({
      ...DEFAULTS,
      output: 'site-2',
      previous: 'site',
      'base-url': 'https://someone.github.io/my-catalog/'
    })
    expect(r.code).toBe(0)
    expect(r.outputs.changed).toBe('[]')
    expect(r.outputs['changed-count']).toBe('0')
    // A later run: only the run report and the index moved.
    expect(await treeHash(path.join(dir, 'site-2'), RUN_FILES)).toBe(await treeHash(path.join(dir, 'site'), RUN_FILES))
    const status = (d: string) => readFile(path.join(dir, d, 'api/v1/status.json'), 'utf8').then(JSON.parse)
    expect((await status('site-2')).lastChange).toBe((await status('site')).lastChange)
    expect(r.summary).toContain('No record changed since the previous snapshot')
  })

  it('reports exactly the app whose release changed, old → new, in outputs and summary', async () => {
    const file = path.join(dir, 'catalog/apps/linkding.yml')
    const original = await readFile(file, 'utf8')
    try {
      await writeFile(file, original.replaceAll('v1.46.2', 'v1.46.3'))
      const r = await runAction({
        ...DEFAULTS,
        output: 'site-3',
        previous: 'site',
        'base-url': 'https://someone.github.io/my-catalog'
      })
      expect(r.code).toBe(0)
      expect(r.outputs.changed).toBe('["linkding"]')
      expect(r.outputs['changed-count']).toBe('1')
      expect(r.outputs.count).toBe(String(slugs.length))
      expect(r.summary).toMatch(/\| linkding \| `v1\.46\.2` → `v1\.46\.3` \| \*\*unknown\*\* \|/)
    } finally {
      await writeFile(file, original)
    }
  })

  it('annotates catalog errors on their file and line, publishes nothing and fails', async () => {
    const file = path.join(dir, 'catalog/apps/linkding.yml')
    const original = await readFile(file, 'utf8')
    const before = await treeHash(path.join(dir, 'site'))
    try {
      await writeFile(file, original.replace('repo: sissbruecker/linkding', 'repo: sissbruecker/linkding\nrepoo: typo'))
      const r = await runAction({ ...DEFAULTS, output: 'site' })
      expect(r.code).toBe(1)
      const line = original.split('\n').findIndex((l) => l.startsWith('repo:')) + 2
      expect(r.stdout).toContain(`::error file=catalog/apps/linkding.yml,line=${line},col=1::repoo: unknown key`)
      expect(r.stdout).toContain('::error::1 catalog error; nothing was published')
      expect(r.outputs).toEqual({})
      expect(r.summary).toContain('**Failed: nothing was published.** 1 error:')
      expect(r.summary).toContain(`catalog/apps/linkding.yml:${line}:1: repoo: unknown key`)
      expect(await treeHash(path.join(dir, 'site'))).toBe(before)
    } finally {
      await writeFile(file, original)
    }
  })

  it('gives annotation paths relative to the workspace when the catalog path is absolute', async () => {
    const file = path.join(dir, 'catalog/apps/linkding.yml')
    const original = await readFile(file, 'utf8')
    try {
      await writeFile(file, original.replace(/^name: .*$/m, 'name: 42'))
      const r = await runAction(
        { ...DEFAULTS, catalog: path.join(dir, 'catalog'), output: 'site-err' },
        { GITHUB_WORKSPACE: dir }
      )
      expect(r.code).toBe(1)
      expect(r.stdout).toMatch(/::error file=catalog\/apps\/linkding\.yml,line=\d+,col=\d+::name: /)
    } finally {
      await writeFile(file, original)
    }
  })

  it('publishes a record with no release data, offline, as unknown: not read yet (issue 57)', async () => {
    const file = path.join(dir, 'catalog/apps/zz-new.yml')
    await writeFile(file, 'name: New\nrepo: example/new\n')
    try {
      const r = await runAction({ ...DEFAULTS, output: 'site-new' })
      expect(r.code).toBe(0)
      const app = JSON.parse(await readFile(path.join(dir, 'site-new/api/v1/apps/zz-new.json'), 'utf8')) as {
        safeToUpdate: string
        rationale: string
      }
      expect(app.safeToUpdate).toBe('unknown')
      expect(app.rationale).toContain('the releases of example/new are not read yet')
    } finally {
      await rm(file)
    }
  })

  it('annotates an error with no place once, naming the input, and fails', async () => {
    const r = await runAction({ ...DEFAULTS, output: 'catalog' })
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
      '::error::refusing the output directory catalog (--out, input output): it is, or contains, the catalog directory catalog'
    ])
  })

  it('rejects a refresh input that is not a boolean', async () => {
    const r = await runAction({ ...DEFAULTS, output: 'site-x', refresh: 'maybe' })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('::error::Input does not meet YAML 1.2 "Core Schema" specification: refresh')
  })

  it('runs with no inputs at all (defaults: catalog/, site/, no refresh) and without a summary file', async () => {
    const r = spawnSync(process.execPath, [ACTION], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' }
    })
    expect(r.stdout).not.toContain('::error')
    expect(r.status).toBe(0)
    // Without GITHUB_OUTPUT core falls back to the deprecated stdout command.
    expect(r.stdout).toContain(`::set-output name=count::${slugs.length}`)
  })

  it('refreshes from GitHub (GITHUB_API_URL / GITHUB_GRAPHQL_URL) with the github-token input, and a rerun changes nothing', async () => {
    const token = 'fake-token-for-tests'
    const fake = await startFakeGitHub({
      token,
      repos: [
        {
          owner: 'sissbruecker',
          name: 'linkding',
          releases: [
            { tagName: 'v1.46.3', body: '### Fixes\n\n* Fix tag links', createdAt: '2026-11-01T10:00:00Z' },
            { tagName: 'v1.47.0-rc1', body: 'testing', prerelease: true, createdAt: '2026-11-10T10:00:00Z' }
          ]
        },
        {
          owner: 'example',
          name: 'old-tool',
          archived: true,
          releases: [{ tagName: '2.0', body: 'Last release.', createdAt: '2024-01-01T00:00:00Z' }]
        }
      ]
    })
    try {
      // A catalog of two records that carry no release data: only a refresh can build them.
      const catalog = path.join(dir, 'refresh-catalog')
      await mkdir(path.join(catalog, 'apps'), { recursive: true })
      await writeFile(path.join(catalog, 'apps/linkding.yml'), 'name: linkding\nrepo: sissbruecker/linkding\n')
      await writeFile(
        path.join(catalog, 'apps/old-tool.yml'),
        'name: Old Tool\nrepo: example/old-tool\nsuccessor: example/new-tool\n'
      )
      const inputs = {
        ...DEFAULTS,
        catalog: 'refresh-catalog',
        refresh: 'true',
        'github-token': token,
        'base-url': 'https://example.org'
      }
      const env = { GITHUB_API_URL: fake.apiUrl, GITHUB_GRAPHQL_URL: fake.graphqlUrl }

      const first = await runAction({ ...inputs, output: 'refreshed' }, env)
      expect(first.stdout).not.toContain('::error')
      expect(first.code).toBe(0)
      expect(first.outputs).toEqual({
        count: '2',
        changed: '["linkding","old-tool"]',
        'changed-count': '2',
        stale: '[]',
        'left-out': '[]',
        output: path.join(dir, 'refreshed')
      })
      expect(fake.counts.graphql).toBeGreaterThan(0)
      expect(fake.invalid).toEqual([])
      // The token is masked in the log and never printed otherwise.
      expect(first.stdout.replace(`::add-mask::${token}`, '')).not.toContain(token)
      const doc = JSON.parse(await readFile(path.join(dir, 'refreshed/api/v1/apps.json'), 'utf8'))
      expect(
        doc.apps.map((a: { latestVersion: string; safeToUpdate: string }) => [a.latestVersion, a.safeToUpdate])
      ).toEqual([
        ['v1.46.3', expect.any(String)],
        ['2.0', 'unmaintained']
      ])
      expect(first.summary).toContain('2 apps · 2 changed · 0 stale')
      expect(first.summary).toMatch(/GitHub: \d+ requests/)

      const second = await runAction({ ...inputs, output: 'refreshed-2', previous: 'refreshed' }, env)
      expect(second.code).toBe(0)
      expect(second.outputs.changed).toBe('[]')
      expect(await treeHash(path.join(dir, 'refreshed-2'), RUN_FILES)).toBe(
        await treeHash(path.join(dir, 'refreshed'), RUN_FILES)
      )
    } finally {
      await fake.close()
    }
  })

  it('redacts the token when an upstream echoes it: log, annotations and job summary', async () => {
    // Not shaped like a GitHub token, so only the value itself can find it.
    const token = 'enterprise-token-0123456789'
    const fake = await startFakeGitHub({ token: 'the-right-one', echoAuthorization: true, repos: [] })
    try {
      const catalog = path.join(dir, 'echo-catalog')
      await writeSeededCatalog(catalog)
      const inputs = { ...DEFAULTS, catalog: 'echo-catalog', refresh: 'true', 'github-token': token, output: 'echo' }
      const r = await runAction(inputs, { GITHUB_API_URL: fake.apiUrl, GITHUB_GRAPHQL_URL: fake.graphqlUrl })
      expect(fake.counts.total).toBeGreaterThan(0)
      expect(r.stdout).toContain('Bad credentials for token ***')
      expect(r.stdout.replace(`::add-mask::${token}`, '')).not.toContain(token)
      expect(r.summary).not.toContain(token)
    } finally {
      await fake.close()
    }
  })
})
