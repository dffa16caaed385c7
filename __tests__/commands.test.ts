// The CLI's commands in this process (the bundle itself is run by cli.test.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { main, stderrLogger } from '../src/commands.js'
import type { Logger } from '../src/util/types.js'
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js'
import { writeSeededCatalog } from './support/catalog.js'
import { tempDir } from './support/tmp.js'

let dir: string
let cleanup: () => Promise<void>
beforeAll(async () => ({ dir, cleanup } = await tempDir()))
afterAll(() => cleanup())

function collecting(): { log: Logger; text: () => string } {
  const lines: string[] = []
  return {
    log: { info: (m) => lines.push(m), warning: (m) => lines.push(m), error: (m) => lines.push(m) },
    text: () => lines.join('\n')
  }
}

describe('main (the CLI)', () => {
  let fake: FakeGitHub
  beforeAll(async () => {
    // An upstream that quotes the Authorization header it was sent when it refuses it.
    fake = await startFakeGitHub({ token: 'the-right-one', echoAuthorization: true, repos: [] })
  })
  afterAll(() => fake.close())

  it('redacts the token an upstream echoes, and anything shaped like a GitHub token', async () => {
    const token = `ghp_${'Q7w8E9r0T1'.repeat(3)}abcdef`
    const catalog = path.join(dir, 'catalog')
    await writeSeededCatalog(catalog)
    const out = collecting()
    const env = { GITHUB_TOKEN: token, GITHUB_API_URL: fake.apiUrl, GITHUB_GRAPHQL_URL: fake.graphqlUrl }
    const args = ['build', '--catalog', catalog, '--out', path.join(dir, 'site'), '--refresh', '--now', '2026-11-21']
    await main(args, out.log, env)
    expect(fake.counts.total).toBeGreaterThan(0)
    expect(out.text()).toContain('Bad credentials for token ***')
    expect(out.text()).not.toContain(token)
    expect(out.text()).not.toMatch(/ghp_\w/)
  })
})

describe('build --notes-from', () => {
  it('reads every file given, not only the last', async () => {
    const catalog = path.join(dir, 'notes-catalog')
    await writeSeededCatalog(catalog)
    await writeFile(
      path.join(catalog, 'apps/demo.yml'),
      'name: demo\nrepo: demo-org/demo\nrelease:\n  version: 1.0.0\n' +
        '  url: https://github.com/demo-org/demo/releases/tag/1.0.0\n  checked: 2026-11-01\n'
    )
    const note = (repo: string, version: string, notes: string) =>
      JSON.stringify({ repo, version, tag: version, date: '2026-11-20', notes })
    const a = path.join(dir, 'notes-a.jsonl')
    const b = path.join(dir, 'notes-b.jsonl')
    await writeFile(a, `${note('sissbruecker/linkding', 'v1.46.4', 'Fixes a crash when saving a bookmark.')}\n`)
    await writeFile(b, `${note('demo-org/demo', '1.0.1', 'Fixes the start page.')}\n`)
    const out = collecting()
    const site = path.join(dir, 'notes-site')
    const args = ['build', '--catalog', catalog, '--out', site, '--now', '2026-11-27']
    expect(await main([...args, '--notes-from', a, '--notes-from', b], out.log, {})).toBe(0)
    const apps = JSON.parse(await readFile(path.join(site, 'api/v1/apps.json'), 'utf8')) as {
      apps: { slug: string; latestVersion: string }[]
    }
    expect(apps.apps.map((x) => [x.slug, x.latestVersion]).sort()).toEqual([
      ['demo', '1.0.1'],
      ['linkding', 'v1.46.4']
    ])
    const index = await readFile(path.join(site, 'index.html'), 'utf8')
    expect(index).toContain('the release notes in notes-a.jsonl and notes-b.jsonl')
    // With --refresh, either is a usage error.
    expect(await main([...args, '--refresh', '--notes-from', a, '--notes-from', b], collecting().log, {})).toBe(2)

    // A --previous that names nothing is a typo, never a first publication: exit 2, the site untouched.
    const before = await tree(site)
    const typo = collecting()
    const again = [...args, '--notes-from', a, '--notes-from', b]
    expect(await main([...again, '--previous', path.join(dir, 'notes-sit')], typo.log, {})).toBe(2)
    expect(typo.text()).toMatch(/previous snapshot ".*notes-sit" does not exist: give the published site/)
    expect(await tree(site)).toEqual(before)
    // An empty folder is a first publication.
    await mkdir(path.join(dir, 'empty-pages'))
    const first = collecting()
    expect(await main([...again, '--previous', path.join(dir, 'empty-pages')], first.log, {})).toBe(0)
    expect(first.text()).toContain('this is a first publication')
  })
})

/** Every file of a built tree, by path. */
async function tree(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const e of await readdir(root, { recursive: true, withFileTypes: true }))
    if (e.isFile())
      files.set(
        path.relative(root, path.join(e.parentPath, e.name)),
        await readFile(path.join(e.parentPath, e.name), 'utf8')
      )
  return files
}

const atomIds = (xml: string) => [...xml.matchAll(/<id>([^<]*)<\/id>/g)].map((m) => m[1]!)

const CNAME_SAMPLE = ['adguard-home', 'caddy', 'freshrss', 'gitea', 'gogs', 'grafana', 'linkding', 'mariadb'].concat([
  'miniflux',
  'nextcloud',
  'prometheus',
  'traefik',
  'watchtower'
])

describe('a custom domain on the Pages branch', () => {
  it('moves every URL to https://<domain> and keeps every feed id', async () => {
    // A sample of the bundled catalog: the whole of it holds more changes than changes.json keeps.
    const catalog = path.join(dir, 'cname-catalog')
    await cp('catalog/endoflife', path.join(catalog, 'endoflife'), { recursive: true })
    for (const slug of CNAME_SAMPLE) await cp(`catalog/apps/${slug}.yml`, path.join(catalog, `apps/${slug}.yml`))
    const env = { GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'someone/my-catalog' }
    const pages = path.join(dir, 'cname-pages')
    await main(
      ['build', '--catalog', catalog, '--out', pages, '--now', '2026-11-21T04:23:00.000Z'],
      collecting().log,
      env
    )
    const before = await tree(pages)
    expect(before.get('api/v1/apps.json')).toContain('https://someone.github.io/my-catalog/apps/')

    // Pages settings commit the domain to the branch; a new release arrives the same day the domain is set.
    await writeFile(path.join(pages, 'CNAME'), 'Updates.Example.org\n')
    const file = path.join(catalog, 'apps/linkding.yml')
    const yml = await readFile(file, 'utf8')
    await writeFile(file, yml.replaceAll('v1.46.2', 'v1.46.3').replace(/checked: .*/, 'checked: 2026-11-24'))
    const out = collecting()
    const site = path.join(dir, 'cname-site')
    const args = [
      'build',
      '--catalog',
      catalog,
      '--out',
      site,
      '--previous',
      pages,
      '--now',
      '2026-11-24T04:23:00.000Z'
    ]
    await main(args, out.log, env)
    expect(out.text()).toContain("base URL https://updates.example.org, from the Pages branch's CNAME")
    const after = await tree(site)

    for (const [f, text] of after) expect([f, text.includes('https://someone.github.io')]).toEqual([f, false])
    const catalogDoc = JSON.parse(after.get('api/v1/apps.json')!) as {
      apps: { slug: string; url: string; badge: string }[]
    }
    for (const a of catalogDoc.apps) {
      expect(a.url).toBe(`https://updates.example.org/apps/${a.slug}/`)
      expect(a.badge).toBe(`https://updates.example.org/badge/${a.slug}.svg`)
    }
    // Feed ids: every id published again is one published before, and the new entry shares their prefix.
    const changeIds = (t: Map<string, string>) =>
      (JSON.parse(t.get('api/v1/changes.json')!) as { changes: { id: string }[] }).changes.map((c) => c.id)
    expect(changeIds(after)).toEqual(expect.arrayContaining(changeIds(before)))
    const feeds = [...before.keys()].filter((f) => f.endsWith('.xml'))
    expect(feeds.length).toBeGreaterThan(10)
    const prefix = 'tag:someone.github.io,2026-11-21:/my-catalog/'
    for (const f of feeds) {
      const [was, now] = [atomIds(before.get(f)!), atomIds(after.get(f)!)]
      expect(now[0]).toBe(`${prefix}${f}`)
      // Entries are the newest 50: the new one may push the oldest out, but none comes back under another id.
      for (const id of now.slice(1).filter((i) => !i.includes('/linkding/v1.46.3/'))) expect(was).toContain(id)
      for (const id of now) expect(id.startsWith(prefix)).toBe(true)
    }
    expect(atomIds(after.get('apps/linkding/feed.xml')!)).toContain(
      `${prefix}apps/linkding/v1.46.3/${JSON.parse(after.get('api/v1/apps/linkding.json')!).safeToUpdate}`
    )
    expect(after.get('feed.xml')).toContain(
      '<link rel="self" type="application/atom+xml" href="https://updates.example.org/feed.xml"/>'
    )
  })
})

describe('validate', () => {
  it('warns of a release day years after today by file, line and field, and still passes', async () => {
    const catalog = path.join(dir, 'future-day')
    await mkdir(path.join(catalog, 'apps'), { recursive: true })
    await writeFile(
      path.join(catalog, 'apps', 'late.yml'),
      'name: Late\nrepo: a/late\nrelease:\n  version: v1.0.0\n  url: https://github.com/a/late/releases/tag/v1.0.0\n  checked: 2999-01-01\n'
    )
    const warned: { message: string; file?: string; line?: number }[] = []
    const log = {
      info: () => {},
      error: () => {},
      warning: (message: string, ref?: { file?: string; line?: number }) => warned.push({ message, ...ref })
    }
    expect(await main(['validate', '--catalog', catalog], log, {})).toBe(0)
    expect(warned).toEqual([
      {
        message: expect.stringMatching(
          /^release\.checked: 2999-01-01 is more than a year after today \(\d{4}-\d{2}-\d{2}\)/
        ),
        file: path.join(catalog, 'apps', 'late.yml'),
        line: 6
      }
    ])
  })
})

describe('stderrLogger', () => {
  it('prints a file name with ESC or U+202E escaped, never raw', async () => {
    const catalog = path.join(dir, 'hostile-names')
    await mkdir(path.join(catalog, 'apps'), { recursive: true })
    await writeFile(path.join(catalog, 'apps', 'a\u001b[31m.yml'), 'name: A\nrepo: a/a\n')
    await writeFile(path.join(catalog, 'apps', 'b\u202e.yml'), 'name: B\nrepo: a/b\n')
    const stream = new PassThrough()
    let text = ''
    stream.on('data', (d: Buffer) => (text += d.toString()))
    expect(await main(['validate', '--catalog', catalog], stderrLogger(stream), {})).toBe(1)
    expect(text).toContain('a\\u{1b}[31m.yml')
    expect(text).toContain('b\\u{202e}.yml')
    expect(text).not.toMatch(/[\u001b\u202e]/u)
  })
})

describe('serve', () => {
  let taken: http.Server
  let port: number
  let site: string
  beforeAll(async () => {
    site = path.join(dir, 'serve-site')
    await mkdir(site, { recursive: true })
    await writeFile(path.join(site, 'index.html'), '<!doctype html><title>home</title>')
    taken = http.createServer()
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r))
    port = (taken.address() as { port: number }).port
  })
  afterAll(() => new Promise((r) => taken.close(r)))

  it('says in one line that a taken port is taken and names the option, not a bare EADDRINUSE', async () => {
    const out = collecting()
    expect(await main(['serve', '--dir', site, '--port', String(port)], out.log, {})).toBe(1)
    expect(out.text()).toBe(
      `port ${port} on 127.0.0.1 is taken by another program; choose another with --port PORT (or PORT=...)`
    )
  })

  it('takes the port from PORT when --port is not given, and --port over PORT', async () => {
    const fromEnv = collecting()
    expect(await main(['serve', '--dir', site], fromEnv.log, { PORT: String(port) })).toBe(1)
    expect(fromEnv.text()).toContain(`port ${port} on 127.0.0.1 is taken`)
    const bad = collecting()
    expect(await main(['serve', '--dir', site], bad.log, { PORT: 'eighty' })).toBe(2)
    expect(bad.text()).toContain('PORT "eighty" is not a port number')
    const flag = collecting()
    expect(await main(['serve', '--dir', site, '--port', String(port)], flag.log, { PORT: 'eighty' })).toBe(1)
    expect(flag.text()).toContain(`port ${port} on 127.0.0.1 is taken`)
  })

  it('documents --port and PORT in the usage text', async () => {
    const written: string[] = []
    const write = process.stdout.write
    process.stdout.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stdout.write
    try {
      await main(['serve', '--help'], collecting().log, {})
    } finally {
      process.stdout.write = write
    }
    expect(written.join('')).toMatch(/serve +--dir DIR \[--port PORT\][^]*PORT environment variable, else 8080/)
  })
})

describe('a mistyped command line', () => {
  it('names the flag or command it most likely meant, with the usage of that command alone', async () => {
    const flag = collecting()
    expect(await main(['check', '--api', 'site', '--compsoe', 'compose.yml'], flag.log, {})).toBe(2)
    expect(flag.text()).toContain('unknown option --compsoe: did you mean --compose?')
    expect(flag.text()).toContain('updatesafe check [options]')
    expect(flag.text()).not.toContain('  build     --catalog')
    const command = collecting()
    expect(await main(['biuld', '--catalog', 'catalog'], command.log, {})).toBe(2)
    expect(command.text()).toContain('unknown command "biuld": did you mean "build"?')
    // Nothing near: the parser's own words, and no guess.
    const far = collecting()
    expect(await main(['serve', '--zzzzzzzz'], far.log, {})).toBe(2)
    expect(far.text()).toContain("Unknown option '--zzzzzzzz'")
    expect(far.text()).not.toContain('did you mean')
    const none = collecting()
    expect(await main(['qqqqqq'], none.log, {})).toBe(2)
    expect(none.text()).not.toContain('did you mean')
    expect(none.text()).toContain('Commands:')
  })
})

describe('add, validate and build --only: a new app in a few minutes', () => {
  let fake: FakeGitHub
  let env: Record<string, string>
  beforeAll(async () => {
    // Made-up repositories: a release line, a renamed repository, one with tags only, an archived one.
    fake = await startFakeGitHub({
      token: 'a-token',
      repos: [
        {
          owner: 'example-org',
          name: 'notes-app',
          releases: [
            { tagName: 'v2.3.0', body: '## Fixes\n- Fix the export', createdAt: '2026-11-02T10:00:00Z' },
            { tagName: 'v2.4.0-rc.1', prerelease: true, body: 'rc', createdAt: '2026-11-20T10:00:00Z' },
            { tagName: 'v2.2.0', body: '## Fixes\n- Fix the import', createdAt: '2026-10-01T10:00:00Z' }
          ]
        },
        {
          owner: 'new-owner',
          name: 'photo-server',
          releases: [{ tagName: '1.0.1', body: '- Fix', createdAt: '2026-09-09T09:00:00Z' }]
        },
        { owner: 'example-org', name: 'tags-only', tags: [{ name: 'v0.9.0', date: '2026-08-08T08:00:00Z' }] },
        {
          owner: 'example-org',
          name: 'old-tool',
          archived: true,
          releases: [{ tagName: '3.0.0', body: '- Last', createdAt: '2024-01-01T00:00:00Z' }]
        }
      ],
      renames: { 'old-owner/photo-server': 'new-owner/photo-server' }
    })
    env = { GITHUB_TOKEN: 'a-token', GITHUB_API_URL: fake.apiUrl, GITHUB_GRAPHQL_URL: fake.graphqlUrl }
  })
  afterAll(() => fake.close())

  const add = async (args: string[], e: Record<string, string> = env) => {
    const out = collecting()
    const code = await main(['add', ...args, '--now', '2026-11-27'], out.log, e)
    return { code, text: out.text() }
  }

  it('writes a valid record of GitHub facts, and refuses to overwrite it', async () => {
    const catalog = path.join(dir, 'add-catalog')
    const r = await add(['example-org/notes-app', '--image', 'ghcr.io/example-org/notes', '--catalog', catalog])
    expect(r).toMatchObject({ code: 0 })
    expect(r.text).toContain('latest release v2.3.0 of 2026-11-02 (from the GitHub API)')
    const file = path.join(catalog, 'apps/notes-app.yml')
    const { parse } = await import('yaml')
    expect(parse(await readFile(file, 'utf8'))).toEqual({
      name: 'notes-app',
      repo: 'example-org/notes-app',
      images: ['ghcr.io/example-org/notes'],
      release: {
        version: 'v2.3.0',
        url: 'https://github.com/example-org/notes-app/releases/tag/v2.3.0',
        date: '2026-11-02',
        checked: '2026-11-27'
      }
    })
    const again = await add(['example-org/notes-app', '--catalog', catalog])
    expect(again.code).toBe(1)
    expect(again.text).toBe(`${file}: example-org/notes-app is already tracked by this record; edit it`)
    // Another slug for the same repository (in any case) would fail validate: refused, naming the record to edit.
    const otherSlug = await add(['Example-Org/Notes-App', '--slug', 'notes-2', '--catalog', catalog])
    expect(otherSlug.code).toBe(1)
    expect(otherSlug.text).toBe(`${file}: Example-Org/Notes-App is already tracked by this record; edit it`)
    // A renamed repository is recorded under its new name; an archived one says so; tags stand in for releases.
    expect((await add(['old-owner/photo-server', '--catalog', catalog])).code).toBe(0)
    expect(await readFile(path.join(catalog, 'apps/photo-server.yml'), 'utf8')).toContain(
      'repo: new-owner/photo-server'
    )
    expect((await add(['example-org/old-tool', '--catalog', catalog])).code).toBe(0)
    expect(await readFile(path.join(catalog, 'apps/old-tool.yml'), 'utf8')).toMatch(
      /archived: true[^]*version: 3\.0\.0/
    )
    expect((await add(['example-org/tags-only', '--slug', 'tagged', '--catalog', catalog])).code).toBe(0)
    expect(await readFile(path.join(catalog, 'apps/tagged.yml'), 'utf8')).toContain('version: v0.9.0')
    // Every record written loads, and builds offline at once.
    const v = collecting()
    expect(await main(['validate', '--catalog', catalog], v.log, {})).toBe(0)
    expect(v.text()).toBe(`${catalog}: 4 records, all valid`)
    const b = collecting()
    expect(
      await main(['build', '--catalog', catalog, '--out', path.join(dir, 'add-site'), '--now', '2026-11-27'], b.log, {})
    ).toBe(0)
  })

  it('without a token writes a minimal record; validate warns that a build publishes it as unknown until read', async () => {
    const catalog = path.join(dir, 'minimal-catalog')
    const asked = fake.requests.length
    const r = await add(['example-org/notes-app', '--catalog', catalog], {})
    expect(r.code).toBe(0)
    expect(r.text).toContain(
      'no GITHUB_TOKEN: no release facts; preview it with GITHUB_TOKEN=... updatesafe build --refresh --only notes-app'
    )
    expect(fake.requests.length).toBe(asked)
    const v = collecting()
    expect(await main(['validate', '--catalog', catalog], v.log, {})).toBe(0)
    expect(v.text()).toBe(
      'notes-app has no release facts: a build publishes it as unknown (not read yet) until build --refresh (with GITHUB_TOKEN) or --notes-from reads its releases; or add a release: {version, url, checked} block\n' +
        `${catalog}: 1 record, all valid; 1 with no release facts yet`
    )
    // Another repository whose slug is taken may take another slug.
    const taken = await add(['other-org/notes-app', '--catalog', catalog], {})
    expect(taken.text).toBe(
      `${path.join(catalog, 'apps/notes-app.yml')}: already exists; edit it, or give another --slug`
    )
    // A name that is not a repository, a slug or image that is not one: usage errors, nothing written.
    expect((await add(['notes-app', '--catalog', catalog], {})).code).toBe(2)
    expect((await add(['a/b', '--slug', 'Bad_Slug', '--catalog', catalog], {})).code).toBe(2)
    const noSlug = await add(['a/---', '--catalog', catalog], {})
    expect([noSlug.code, noSlug.text]).toEqual([
      2,
      expect.stringMatching(/^a\/--- gives no slug .*: give one with --slug/)
    ])
    expect((await add(['a/b', '--image', 'nginx:1.27', '--catalog', catalog], {})).code).toBe(2)
    expect((await add(['example-org/missing', '--catalog', catalog])).text).toContain(
      'GitHub has no repository example-org/missing'
    )
    expect(await readdir(path.join(catalog, 'apps'))).toEqual(['notes-app.yml'])
  })

  it('build --refresh --only previews one app: it alone is read and published', async () => {
    const catalog = path.join(dir, 'only-catalog')
    await add(['example-org/notes-app', '--catalog', catalog], {})
    await add(['example-org/old-tool', '--catalog', catalog], {})
    const before = fake.requests.length
    const out = collecting()
    const site = path.join(dir, 'only-site')
    const code = await main(
      ['build', '--catalog', catalog, '--out', site, '--refresh', '--only', 'notes-app', '--now', '2026-11-27'],
      out.log,
      env
    )
    expect([code, out.text()]).toEqual([0, expect.stringContaining('wrote')])
    expect(fake.queries.slice(-1)[0]).not.toContain('old-tool')
    expect(fake.requests.length).toBeGreaterThan(before)
    const apps = JSON.parse(await readFile(path.join(site, 'api/v1/apps.json'), 'utf8')) as {
      apps: { slug: string; latestVersion: string }[]
    }
    expect(apps.apps.map((a) => [a.slug, a.latestVersion])).toEqual([['notes-app', 'v2.3.0']])
    const bad = collecting()
    expect(
      await main(['build', '--catalog', catalog, '--out', path.join(dir, 'only-bad'), '--only', 'nope'], bad.log, {})
    ).toBe(1)
    expect(bad.text()).toContain('--only nope: no such record in the catalog')
  })
})
