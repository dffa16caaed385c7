// Carrying unchanged apps over from the previous snapshot (src/pipeline/reuse.ts): a build that does so writes
// the same tree as one that reads every app, and anything an app's files depend on makes it read again.
import { afterEach, beforeEach, expect, it } from '@jest/globals'
import { describe } from '../support/needs-shared-data.js'
import { cp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { lstatSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ModelAsker } from '../../src/pipeline/judge-models.js'
import { build, type BuildDeps } from '../../src/pipeline/pipeline.js'
import { programDigest } from '../../src/pipeline/reuse.js'
import { loadCatalog } from '../../src/catalog/load.js'
import type { CatalogDoc } from '../../src/schema/index.js'
import type { Logger } from '../../src/util/types.js'
import { RELEASE_NOTES } from '../support/shared-data.js'
import { tempDir } from '../support/tmp.js'
import { copyJudgedCatalog } from '../support/catalog.js'

let dir: string
let cleanup: () => Promise<void>
let warnings: string[]
let infos: string[]
const log: Logger = { info: (m) => infos.push(m), warning: (m) => warnings.push(m), error: (m) => warnings.push(m) }
const BASE = 'https://example.org/catalog'
const REUSE = '.updatesafe/reuse.json'
/** Apps of the bundled catalog whose files depend only on their catalog file and record. */
let plain: string[]

beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir())
  warnings = []
  infos = []
  // A third of the records the data set has notes for, the apps edited below, and a sample of the rest: carrying
  // over is per app, so a size that does not grow with the catalog (and keeps this file's builds short).
  await copyJudgedCatalog(path.join(dir, 'catalog'), RELEASE_NOTES, {
    judgedEvery: 3,
    also: ['adguard-home', 'adminer', 'alertmanager', 'gogs', 'linkding']
  })
  plain = (await loadCatalog(path.join(dir, 'catalog')))
    .filter((e) => !e.entry.lifecycle && !e.entry.override)
    .map((e) => e.slug)
})
afterEach(() => cleanup())

async function run(
  out: string,
  now: string,
  extra: { previous?: string; baseUrl?: string; refresh?: boolean; notesFrom?: string } = {},
  deps: Partial<BuildDeps> = { program: 'program-1' }
) {
  infos = []
  const result = await build(
    {
      catalogDir: 'catalog',
      outDir: out,
      baseUrl: extra.baseUrl ?? BASE,
      now: new Date(now),
      cwd: dir,
      ...(extra.previous ? { previousDir: extra.previous } : {}),
      ...(extra.refresh ? { refresh: true } : { notesFrom: extra.notesFrom ?? RELEASE_NOTES })
    },
    { log, ...deps }
  )
  const carried = /; (\d+) apps unchanged since it, carried over unread/.exec(infos.join('\n'))
  return { result, carried: carried ? Number(carried[1]) : 0 }
}

async function files(out: string): Promise<Map<string, string>> {
  const all = new Map<string, string>()
  for (const e of await readdir(path.join(dir, out), { recursive: true, withFileTypes: true }))
    if (e.isFile())
      all.set(
        path.relative(path.join(dir, out), path.join(e.parentPath, e.name)),
        await readFile(path.join(e.parentPath, e.name), 'utf8')
      )
  return all
}

/** The same build from a copy of `previous` without its reuse record: every app read. */
async function full(out: string, now: string, previous: string, notesFrom?: string) {
  await cp(path.join(dir, previous), path.join(dir, `${previous}-full`), { recursive: true })
  await rm(path.join(dir, `${previous}-full`, REUSE))
  const r = await run(out, now, { previous: `${previous}-full`, ...(notesFrom ? { notesFrom } : {}) })
  expect(r.carried).toBe(0)
  return r
}

/** A new release of `slug` in the catalog (a later version and checked day, other notes). */
async function bump(slug: string, version: string) {
  const file = path.join(dir, 'catalog/apps', `${slug}.yml`)
  const text = await readFile(file, 'utf8')
  const next = text
    .replace(/^ {2}version: .*$/m, `  version: ${version}`)
    .replace(/^ {2}checked: .*$/m, '  checked: 2026-12-02')
  expect(next).not.toBe(text)
  await writeFile(file, next)
}

describe('carrying unchanged apps over from the previous snapshot', () => {
  it('carries over every app without end-of-life product or override, into the tree a full build writes', async () => {
    // Categories of a carried app reach categories.json and the index from the reuse record, as from its file.
    for (const [slug, categories] of [
      ['adguard-home', ['DNS', 'Proxy']],
      ['linkding', ['Bookmarks and Link Sharing']]
    ] as const)
      await writeFile(
        path.join(dir, 'catalog/apps', `${slug}.yml`),
        `${(await readFile(path.join(dir, 'catalog/apps', `${slug}.yml`), 'utf8')).replace(/^categories:\n(?: {2}- .*\n)*/m, '')}categories:\n${categories.map((c) => `  - ${c}\n`).join('')}`
      )
    await run('d0', '2026-12-01T06:00:00.000Z')
    expect(plain.length).toBeGreaterThan(50)
    await bump('linkding', 'v1.47.0')
    await bump('adminer', '6.9.9')
    const day1 = await run('d1', '2026-12-02T06:00:00.000Z', { previous: 'd0' })
    expect(day1.carried).toBe(plain.length - 2)
    expect(day1.result.changed).toEqual(['adminer', 'linkding'])
    await full('d1-full', '2026-12-02T06:00:00.000Z', 'd0')
    expect(await files('d1')).toEqual(await files('d1-full'))
    const categories = JSON.parse((await files('d1')).get('api/v1/categories.json')!).categories as {
      name: string
      slugs: string[]
    }[]
    const of = (slug: string) => categories.filter((c) => c.slugs.includes(slug)).map((c) => c.name)
    expect([of('linkding'), of('adguard-home')]).toEqual([['Bookmarks and Link Sharing'], ['DNS', 'Proxy']])
    // The carried files are the previous snapshot's, linked; the per-app document is written (new generatedAt).
    const ino = (out: string, f: string) => lstatSync(path.join(dir, out, f)).ino
    expect(ino('d1', 'badge/adguard-home.svg')).toBe(ino('d0', 'badge/adguard-home.svg'))
    // Its feed too: its entries in the change history are those of its previous feed.
    expect(ino('d1', 'apps/adguard-home/feed.xml')).toBe(ino('d0', 'apps/adguard-home/feed.xml'))
    expect(ino('d1', 'api/v1/apps/adguard-home.json')).not.toBe(ino('d0', 'api/v1/apps/adguard-home.json'))
    // A second day from a snapshot that carried: the same again.
    await bump('linkding', 'v1.48.0')
    const day2 = await run('d2', '2026-12-03T06:00:00.000Z', { previous: 'd1' })
    expect(day2.carried).toBe(plain.length - 1)
    await full('d2-full', '2026-12-03T06:00:00.000Z', 'd1')
    expect(await files('d2')).toEqual(await files('d2-full'))
  })

  it('reads an app again when its catalog file changes at all, even in a comment', async () => {
    await run('d0', '2026-12-01T06:00:00.000Z')
    const file = path.join(dir, 'catalog/apps/adminer.yml')
    await writeFile(file, `# reviewed again\n${await readFile(file, 'utf8')}`)
    const day1 = await run('d1', '2026-12-02T06:00:00.000Z', { previous: 'd0' })
    expect(day1.carried).toBe(plain.length - 1)
    // Nothing changed for anyone: only the run's time and the reuse record (adminer's file digest) moved.
    const [a, b] = [await files('d0'), await files('d1')]
    expect([...b.keys()].filter((f) => a.get(f) !== b.get(f)).sort()).toEqual([
      REUSE,
      'api/v1/status.json',
      'index.html'
    ])
    await full('d1-full', '2026-12-02T06:00:00.000Z', 'd0')
    expect(b).toEqual(await files('d1-full'))
  })

  it('reads an app again when its releases in the notes file change, and only that app', async () => {
    await run('d0', '2026-12-01T06:00:00.000Z')
    // adminer's newest release gets other notes (made up here): a breaking step it must now judge.
    const edited = path.join(dir, 'notes.jsonl')
    const adminer = (await loadCatalog(path.join(dir, 'catalog'))).find((e) => e.slug === 'adminer')!.entry
    const lines = (await readFile(RELEASE_NOTES, 'utf8')).split('\n').map((line) => {
      if (line.trim() === '') return line
      const e = JSON.parse(line) as { repo: string; version: string }
      if (e.repo !== adminer.repo || e.version !== adminer.release!.version) return line
      return JSON.stringify({ ...e, notes: '## Breaking changes\n\n- The DEMO_LOGIN setting was removed.' })
    })
    await writeFile(edited, lines.join('\n'))
    const day1 = await run('d1', '2026-12-02T06:00:00.000Z', { previous: 'd0', notesFrom: edited })
    expect(day1.carried).toBe(plain.length - 1)
    expect((await files('d1')).get('badge/adminer.svg')).toContain('breaking')
  })

  it('a notes-file run with nothing new carries every app over and moves only what a refresh run moves', async () => {
    // The file holds a release newer than the catalog records for two apps (made-up notes): their facts are read on
    // the build's day, as on a day the data set gained releases and the catalog did not.
    const notes = path.join(dir, 'notes.jsonl')
    const entries = (await loadCatalog(path.join(dir, 'catalog'))).filter((e) =>
      ['adminer', 'linkding'].includes(e.slug)
    )
    const newer = entries.map(({ entry }) =>
      JSON.stringify({
        repo: entry.repo,
        version: `${entry.release!.version}.1`,
        tag: null,
        date: '2026-11-30',
        notes: '### Fixes\n\n- The login form keeps its focus after a wrong password.'
      })
    )
    await writeFile(notes, `${await readFile(RELEASE_NOTES, 'utf8')}${newer.join('\n')}\n`)
    await run('d0', '2026-12-01T06:00:00.000Z', { notesFrom: notes })
    const day1 = await run('d1', '2026-12-02T06:00:00.000Z', { previous: 'd0', notesFrom: notes })
    expect(day1.result.changed).toEqual([])
    const [a, b] = [await files('d0'), await files('d1')]
    expect([...b.keys()].filter((f) => a.get(f) !== b.get(f)).sort()).toEqual(['api/v1/status.json', 'index.html'])
    // Read on day 0, carried since: nothing of theirs is built again.
    expect(b.get('api/v1/apps/adminer.json')).toContain(`"latestVersion": "${entries[0]!.entry.release!.version}.1"`)
    expect(day1.carried).toBe(plain.length)
    // The tree a build that reads every app writes.
    await full('d1-full', '2026-12-02T06:00:00.000Z', 'd0', notes)
    expect(b).toEqual(await files('d1-full'))
    // The same again a day later, from a snapshot that carried them.
    const day2 = await run('d2', '2026-12-03T06:00:00.000Z', { previous: 'd1', notesFrom: notes })
    expect(day2.carried).toBe(plain.length)
    const c = await files('d2')
    expect([...c.keys()].filter((f) => b.get(f) !== c.get(f)).sort()).toEqual(['api/v1/status.json', 'index.html'])
  })

  it('a notes file under another name each day changes no app page and carries every app over', async () => {
    // A daily job that names its file by the day: the index names the file, the app pages only say what kind of
    // source it was, so an app whose notes did not change keeps its files.
    const [monday, tuesday] = [path.join(dir, 'notes-2026-12-01.jsonl'), path.join(dir, 'notes-2026-12-02.jsonl')]
    await cp(RELEASE_NOTES, monday)
    await cp(RELEASE_NOTES, tuesday)
    await run('n0', '2026-12-01T06:00:00.000Z', { notesFrom: monday })
    const day1 = await run('n1', '2026-12-02T06:00:00.000Z', { previous: 'n0', notesFrom: tuesday })
    expect(day1.result.changed).toEqual([])
    expect(day1.carried).toBe(plain.length)
    const [a, b] = [await files('n0'), await files('n1')]
    expect([...b.keys()].filter((f) => a.get(f) !== b.get(f)).sort()).toEqual(['api/v1/status.json', 'index.html'])
    expect(b.get('index.html')).toContain('notes-2026-12-02.jsonl')
    expect(b.get('apps/adminer/index.html')).not.toContain('notes-2026-12-0')
  })

  it('carries nothing over for another program or another base URL', async () => {
    await run('d0', '2026-12-01T06:00:00.000Z')
    await bump('linkding', 'v1.47.0')
    expect((await run('d1', '2026-12-02T06:00:00.000Z', { previous: 'd0' }, { program: 'program-2' })).carried).toBe(0)
    const moved = await run('d1b', '2026-12-02T06:00:00.000Z', { previous: 'd0', baseUrl: 'https://example.net/x' })
    expect(moved.carried).toBe(0)
    expect((await files('d1b')).get('api/v1/apps/adminer.json')).toContain(
      '"url": "https://example.net/x/apps/adminer/"'
    )
  })

  it('carries nothing over for another judge, nor an app a model was to judge and did not', async () => {
    await run('d0', '2026-12-01T06:00:00.000Z')
    // A model whose service gives no answer: every release falls to the rules, and stays to be asked.
    const asked: string[] = []
    const silent: ModelAsker = {
      judge: 'model:test/silent',
      model: 'test/silent',
      models: ['test/silent'],
      calls: 0,
      stopped: null,
      stopKind: null,
      ask: async (app) => {
        asked.push(app)
        return null
      }
    }
    const d1 = await run(
      'd1',
      '2026-12-02T06:00:00.000Z',
      { previous: 'd0' },
      { program: 'program-1', modelJudge: silent }
    )
    expect(d1.carried).toBe(0)
    expect(asked.length).toBeGreaterThan(0)
    const n = asked.length
    const d2 = await run(
      'd2',
      '2026-12-03T06:00:00.000Z',
      { previous: 'd1' },
      { program: 'program-1', modelJudge: silent }
    )
    // Carried: only the apps with nothing for a model to read (archived, no notes).
    const names = new Map((await loadCatalog(path.join(dir, 'catalog'))).map((e) => [e.slug, e.entry.name]))
    expect(d2.carried).toBe(plain.filter((slug) => !asked.includes(names.get(slug)!)).length)
    expect(d2.carried).toBeLessThan(plain.length / 2)
    expect(asked.length).toBe(2 * n)
    // Back to the rules: another judge again, so nothing is carried from the model's snapshot.
    expect((await run('d3', '2026-12-04T06:00:00.000Z', { previous: 'd2' })).carried).toBe(0)
    expect((await run('d4', '2026-12-05T06:00:00.000Z', { previous: 'd3' })).carried).toBe(plain.length)
  })

  it('reads an app again whose published record was edited, or whose carried files are missing or links', async () => {
    await run('d0', '2026-12-01T06:00:00.000Z')
    const catalogFile = path.join(dir, 'd0/api/v1/apps.json')
    const doc = JSON.parse(await readFile(catalogFile, 'utf8')) as CatalogDoc
    doc.apps.find((a) => a.slug === 'adminer')!.rationale = 'edited by hand'
    await writeFile(catalogFile, `${JSON.stringify(doc, null, 2)}\n`)
    // The image names kept for gogs no longer those of its catalog file: read again.
    const reuseFile = path.join(dir, 'd0', REUSE)
    const reuse = JSON.parse(await readFile(reuseFile, 'utf8')) as { apps: Record<string, { images?: string[] }> }
    expect(reuse.apps.gogs!.images).toEqual(['gogs/gogs', 'ghcr.io/gogs/gogs', 'registry.digitalocean.com/gogs/gogs'])
    reuse.apps.gogs!.images = ['attacker/image']
    await writeFile(reuseFile, JSON.stringify(reuse))
    await rm(path.join(dir, 'd0/apps/alertmanager/index.html'))
    const outside = path.join(dir, 'outside.svg')
    await writeFile(outside, '<svg>not ours</svg>')
    await rm(path.join(dir, 'd0/badge/adguard-home.svg'))
    await symlink(outside, path.join(dir, 'd0/badge/adguard-home.svg'))
    await bump('linkding', 'v1.47.0')
    const day1 = await run('d1', '2026-12-02T06:00:00.000Z', { previous: 'd0' })
    expect(day1.carried).toBe(plain.length - 5)
    const tree = await files('d1')
    expect(tree.get('api/v1/images.json')).not.toContain('attacker/image')
    expect(tree.get('apps/alertmanager/index.html')).toContain('<title>')
    expect(lstatSync(path.join(dir, 'd1/badge/adguard-home.svg')).isFile()).toBe(true)
    expect(tree.get('badge/adguard-home.svg')).not.toContain('not ours')
    await full('d1-full', '2026-12-02T06:00:00.000Z', 'd0')
    expect(tree).toEqual(await files('d1-full'))
  })

  it("keeps a carried app's community builds in images.json, and reads it again when they were edited", async () => {
    const file = path.join(dir, 'catalog/apps/gogs.yml')
    await writeFile(
      file,
      `${await readFile(file, 'utf8')}community:\n  - image: someone/gogs-build\n    tags: as-is\n    channel: stable\n`
    )
    await run('c0', '2026-12-01T06:00:00.000Z')
    const item = { image: 'someone/gogs-build', slug: 'gogs', tags: 'as-is', channel: 'stable' }
    const imagesOf = async (out: string) =>
      (JSON.parse((await files(out)).get('api/v1/images.json')!) as { images: unknown[] }).images
    expect(await imagesOf('c0')).toContainEqual(item)
    const c1 = await run('c1', '2026-12-02T06:00:00.000Z', { previous: 'c0' })
    expect(c1.carried).toBe(plain.length)
    expect(await imagesOf('c1')).toContainEqual(item)
    // The builds kept for gogs no longer those of its catalog file: read again, and published as the file says.
    const reuseFile = path.join(dir, 'c1', REUSE)
    const reuse = JSON.parse(await readFile(reuseFile, 'utf8')) as { apps: Record<string, { community?: unknown[] }> }
    reuse.apps.gogs!.community = [{ image: 'attacker/image', tags: 'as-is' }]
    await writeFile(reuseFile, JSON.stringify(reuse))
    const c2 = await run('c2', '2026-12-03T06:00:00.000Z', { previous: 'c1' })
    expect(c2.carried).toBe(plain.length - 1)
    const images = await imagesOf('c2')
    expect(images).toContainEqual(item)
    expect(JSON.stringify(images)).not.toContain('attacker/image')
  })

  it('never carries an app with an override, and a changed override is read', async () => {
    const file = path.join(dir, 'catalog/apps/linkding.yml')
    const text = await readFile(file, 'utf8')
    const override = (cls: string) =>
      text.replace(
        'release:',
        `override:\n  class: ${cls}\n  reason: The upgrade guide requires a manual step.\n  version: v1.46.2\nrelease:`
      )
    await writeFile(file, override('breaking'))
    await run('d0', '2026-12-01T06:00:00.000Z')
    await writeFile(file, override('caution'))
    const day1 = await run('d1', '2026-12-02T06:00:00.000Z', { previous: 'd0' })
    expect(day1.carried).toBe(plain.length - 1)
    expect((await files('d1')).get('badge/linkding.svg')).toContain('caution')
    const reuse = JSON.parse((await files('d1')).get(REUSE)!) as { apps: Record<string, unknown> }
    expect(Object.keys(reuse.apps)).not.toContain('linkding')
  })

  it('a refresh carries nothing over and leaves no reuse record; a bad reuse record is said and ignored', async () => {
    await run('d0', '2026-12-01T06:00:00.000Z')
    const refresh: BuildDeps['refresh'] = async () => ({
      outcomes: new Map(),
      stats: { requests: 0, graphqlPoints: 0, remaining: null, batches: 0 }
    })
    const r = await run(
      'd1',
      '2026-12-02T06:00:00.000Z',
      { previous: 'd0', refresh: true },
      { program: 'program-1', refresh }
    )
    expect(r.carried).toBe(0)
    expect((await files('d1')).has(REUSE)).toBe(false)
    await writeFile(path.join(dir, 'd0', REUSE), '{"schema": "updatesafe.reuse.v1"}')
    await bump('linkding', 'v1.47.0')
    expect((await run('d2', '2026-12-02T06:00:00.000Z', { previous: 'd0' })).carried).toBe(0)
    expect(warnings.some((w) => w.includes('is not a valid reuse record; every app is built again'))).toBe(true)
  })

  it('names the program by every script of its bundle: the entry and each chunk ncc splits off', async () => {
    const bundle = path.join(dir, 'bundle')
    await mkdir(bundle)
    await writeFile(path.join(bundle, 'licenses.txt'), 'MIT')
    await writeFile(path.join(bundle, 'index.js'), 'entry')
    await writeFile(path.join(bundle, '568.index.js'), 'the build')
    await writeFile(path.join(bundle, '568.index.js.map'), '{}')
    const named = () => programDigest(pathToFileURL(path.join(bundle, '568.index.js')).href)
    const first = named()
    expect(first).toMatch(/^[0-9a-f]{32}$/)
    // A source map or another file is not the program; any script is.
    await writeFile(path.join(bundle, '568.index.js.map'), '{"version":3}')
    await writeFile(path.join(bundle, 'licenses.txt'), 'MIT, Apache-2.0')
    expect(named()).toBe(first)
    await writeFile(path.join(bundle, 'index.js'), 'entry, rebuilt')
    expect(named()).not.toBe(first)
    await writeFile(path.join(bundle, 'index.js'), 'entry')
    expect(named()).toBe(first)
    await writeFile(path.join(bundle, '239.index.js'), 'the GitHub client')
    expect(named()).not.toBe(first)
  })

  it('running from source there is no program to name, so nothing is recorded', async () => {
    expect(programDigest(import.meta.url)).toBeNull()
    await run('d0', '2026-12-01T06:00:00.000Z', {}, {})
    expect((await files('d0')).has(REUSE)).toBe(false)
  })
})
