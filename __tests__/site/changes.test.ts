import { afterEach, describe, expect, test } from '@jest/globals'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  CHANGES_SCHEMA_ID,
  FEED_ENTRIES,
  RECENT_CHANGES,
  changesDocSchema,
  mergeChanges,
  mintIdPrefix,
  renderChangesDoc,
  type Change,
  type ChangesInput,
  type VersionClassChange
} from '../../src/site/changes.js'
import { CLASSES, type AppRecord } from '../../src/schema/index.js'
import type { Logger } from '../../src/util/types.js'
import { BASE, HOSTILE, REALISTIC } from './fixtures.js'
import { child, parseXml, type XmlNode } from './markup.js'
import { tempDir } from '../support/tmp.js'
import { readPreviousChanges } from '../../src/pipeline/previous.js'
import { atomFiles } from '../../src/site/atom.js'
import { paths } from '../../src/site/paths.js'
import { joinJson } from '../../src/util/json.js'

/** The site's Atom id prefix, as minted on its first publication. */
const ID = mintIdPrefix(BASE, '2026-11-21T03:00:00.000Z')

/** The change history and its feeds, as the build writes them. */
function feedFiles(given: Omit<ChangesInput, 'idPrefix'> & { idPrefix?: string }): Map<string, string> {
  const input = { idPrefix: ID, ...given }
  const history = mergeChanges(input)
  return new Map([
    [paths.changes, joinJson(renderChangesDoc(history, input.baseUrl, input.idPrefix)).toString()],
    ...atomFiles(history, input.records, input.generatedAt, input.baseUrl, input.idPrefix)
  ])
}

const T1 = '2026-11-21T03:00:00.000Z'
const T2 = '2026-11-22T03:00:00.000Z'
const T3 = '2026-11-23T03:00:00.000Z'
const RECORDS: AppRecord[] = REALISTIC.map((p) => p.record)

const brief = (r: AppRecord) => ({ latestVersion: r.latestVersion, safeToUpdate: r.safeToUpdate })
const firstPublication = (records: AppRecord[]): VersionClassChange[] =>
  records.map((r) => ({ slug: r.slug, before: null, after: brief(r) }))

function recorder(): Logger & { infos: string[]; warnings: string[] } {
  const infos: string[] = []
  const warnings: string[] = []
  return {
    infos,
    warnings,
    info: (m) => infos.push(m),
    warning: (m) => warnings.push(m),
    error: (m) => warnings.push(m)
  }
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

/** Write a run's files as a published tree (with a catalog marker) and read the changes back like the next run does. */
async function publishAndReadBack(files: Map<string, string>, log = recorder()): Promise<Change[]> {
  const t = await tempDir('updatesafe-feeds-')
  cleanups.push(t.cleanup)
  for (const [file, text] of [...files, ['api/v1/apps.json', '{}'] as const]) {
    await mkdir(path.dirname(path.join(t.dir, file)), { recursive: true })
    await writeFile(path.join(t.dir, file), text)
  }
  const { changes, idPrefix } = await readPreviousChanges(t.dir, log)
  expect(log.warnings).toEqual([])
  expect(idPrefix).toBe(JSON.parse(files.get(paths.changes)!).idPrefix)
  return changes
}

function run(
  input: Partial<ChangesInput> & Pick<ChangesInput, 'changes' | 'generatedAt'>
): Map<string, string> {
  return feedFiles({ records: RECORDS, previous: [], baseUrl: BASE, ...input })
}

function atom(files: Map<string, string>, file: string): XmlNode {
  const text = files.get(file)
  if (text === undefined) throw new Error(`${file} was not written`)
  const root = parseXml(text)
  expect(root.name).toBe('feed')
  expect(root.attrs.xmlns).toBe('http://www.w3.org/2005/Atom')
  for (const name of ['id', 'title', 'updated', 'author']) expect(child(root, name)).toBeDefined()
  expect(child(root, 'id')!.text).toBe(`${ID}${file}`)
  return root
}

const entries = (feed: XmlNode) => feed.children.filter((c) => c.name === 'entry')
const titles = (feed: XmlNode) => entries(feed).map((e) => child(e, 'title')!.text)
const updates = (feed: XmlNode) => entries(feed).map((e) => child(e, 'updated')!.text)

function changesOf(files: Map<string, string>): Change[] {
  return changesDocSchema.parse(JSON.parse(files.get('api/v1/changes.json')!)).changes
}

describe('feedFiles', () => {
  test('first publication: every app gets one entry, and every feed is well-formed Atom', () => {
    const files = run({ changes: firstPublication(RECORDS), generatedAt: T1 })
    const doc = JSON.parse(files.get('api/v1/changes.json')!)
    expect(doc.schema).toBe(CHANGES_SCHEMA_ID)
    expect(doc.count).toBe(RECORDS.length)
    expect(changesOf(files).map((c) => c.slug)).toEqual(RECORDS.map((r) => r.slug).sort())

    const all = atom(files, 'feed.xml')
    expect(entries(all)).toHaveLength(RECORDS.length)
    expect(titles(all)).toContain('Gitea 1.23.5: caution')
    expect(child(all, 'updated')!.text).toBe(T1)
    const gitea = entries(all).find((e) => child(e, 'title')!.text.startsWith('Gitea'))!
    expect(child(gitea, 'link')!.attrs.href).toBe(`${BASE}/apps/gitea/`)
    expect(child(gitea, 'id')!.text).toBe(`${ID}apps/gitea/1.23.5/caution`)
    expect(ID).toBe('tag:example-owner.github.io,2026-11-21:/updatesafe/')
    expect(child(gitea, 'summary')!.text).toMatch(
      /^Caution\. Release 1\.23\.5 has a "SECURITY" section.* First published\.$/
    )

    for (const c of CLASSES) atom(files, `feeds/${c}.xml`)
    for (const r of RECORDS) expect(entries(atom(files, `apps/${r.slug}/feed.xml`))).toHaveLength(1)
  })

  test('the id prefix is read back for a site at the root of its host too', async () => {
    for (const baseUrl of ['http://localhost:8080', 'https://owner.github.io']) {
      const idPrefix = mintIdPrefix(baseUrl, T1)
      const files = run({ changes: firstPublication(RECORDS), generatedAt: T1, baseUrl, idPrefix })
      expect(idPrefix).toMatch(/^tag:(localhost|owner\.github\.io),2026-11-21:\/$/)
      expect(await publishAndReadBack(files)).toHaveLength(RECORDS.length)
    }
  })

  test('entries persist across runs through the published changes.json, newest first', async () => {
    const run1 = run({ changes: firstPublication(RECORDS), generatedAt: T1 })
    const previous1 = await publishAndReadBack(run1)
    expect(previous1).toHaveLength(RECORDS.length)

    // Run 2: gitea gets a new version and class.
    const gitea = RECORDS.find((r) => r.slug === 'gitea')!
    const gitea2: AppRecord = {
      ...gitea,
      latestVersion: '1.24.0',
      safeToUpdate: 'breaking',
      rationale: 'Release 1.24.0 has a "BREAKING" section.'
    }
    const records2 = RECORDS.map((r) => (r.slug === 'gitea' ? gitea2 : r))
    const run2 = feedFiles({
      records: records2,
      changes: [{ slug: 'gitea', before: brief(gitea), after: brief(gitea2) }],
      previous: previous1,
      generatedAt: T2,
      baseUrl: BASE
    })
    const all = atom(run2, 'feed.xml')
    expect(entries(all)).toHaveLength(RECORDS.length + 1)
    expect(titles(all)[0]).toBe('Gitea 1.24.0: breaking')
    expect(child(entries(all)[0]!, 'summary')!.text).toMatch(/Before: 1\.23\.5, caution\.$/)
    expect(child(all, 'updated')!.text).toBe(T2)
    const stamps = updates(all)
    expect([...stamps].sort().reverse()).toEqual(stamps)

    const appFeed = atom(run2, 'apps/gitea/feed.xml')
    expect(titles(appFeed)).toEqual(['Gitea 1.24.0: breaking', 'Gitea 1.23.5: caution'])
    // A feed whose entries did not change keeps its bytes, even though the build time moved.
    expect(run2.get('apps/traefik/feed.xml')).toBe(run1.get('apps/traefik/feed.xml'))

    // Run 3 sees both earlier runs.
    const previous2 = await publishAndReadBack(run2)
    expect(previous2.map((c) => c.at)).toEqual([T2, ...Array(RECORDS.length).fill(T1)])
    const run3 = feedFiles({ records: records2, changes: [], previous: previous2, generatedAt: T3, baseUrl: BASE })
    expect(run3.get('api/v1/changes.json')).toBe(run2.get('api/v1/changes.json'))
  })

  test('a run where nothing changed gives byte-identical files', async () => {
    const run1 = run({ changes: firstPublication(RECORDS), generatedAt: T1 })
    const again = run({ changes: [], previous: await publishAndReadBack(run1), generatedAt: T1 })
    expect([...again.keys()].sort()).toEqual([...run1.keys()].sort())
    for (const [file, text] of run1) expect(again.get(file)).toBe(text)
  })

  test('only version or class changes make entries: not a rationale edit, not a removed app', () => {
    const [a, b] = RECORDS
    const changes: VersionClassChange[] = [
      { slug: a!.slug, before: brief(a!), after: brief(a!) },
      { slug: 'gone', before: { latestVersion: '1.0', safeToUpdate: 'safe' }, after: null },
      { slug: b!.slug, before: { latestVersion: b!.latestVersion, safeToUpdate: 'unknown' }, after: brief(b!) }
    ]
    const got = changesOf(run({ changes, generatedAt: T1 }))
    expect(got.map((c) => c.slug)).toEqual([b!.slug])
    expect(got[0]).toMatchObject({
      version: b!.latestVersion,
      safeToUpdate: b!.safeToUpdate,
      previousVersion: b!.latestVersion,
      previousSafeToUpdate: 'unknown'
    })
  })

  test('per-class feeds hold only entries that reached that class; per-app feeds only that app', () => {
    const files = run({ changes: firstPublication(RECORDS), generatedAt: T1 })
    for (const c of CLASSES) {
      const want = RECORDS.filter((r) => r.safeToUpdate === c)
        .map((r) => `${BASE}/apps/${r.slug}/`)
        .sort()
      const got = entries(atom(files, `feeds/${c}.xml`)).map((e) => child(e, 'link')!.attrs.href!)
      expect(got.sort()).toEqual(want)
    }
    expect(entries(atom(files, 'feeds/safe.xml')).length).toBeGreaterThan(0)
    for (const r of RECORDS) {
      const links = entries(atom(files, `apps/${r.slug}/feed.xml`)).map((e) => child(e, 'link')!.attrs.href)
      expect(links).toEqual([`${BASE}/apps/${r.slug}/`])
    }
  })

  test('a state seen again is a new entry with an id of its own, and the older one stays', async () => {
    const gitea = RECORDS.find((r) => r.slug === 'gitea')!
    const flipped = { ...gitea, safeToUpdate: 'safe' as const }
    const p1 = await publishAndReadBack(run({ changes: firstPublication([gitea]), records: [gitea], generatedAt: T1 }))
    const p2 = await publishAndReadBack(
      feedFiles({
        records: [flipped],
        changes: [{ slug: 'gitea', before: brief(gitea), after: brief(flipped) }],
        previous: p1,
        generatedAt: T2,
        baseUrl: BASE
      })
    )
    const run3 = feedFiles({
      records: [gitea],
      changes: [{ slug: 'gitea', before: brief(flipped), after: brief(gitea) }],
      previous: p2,
      generatedAt: T3,
      baseUrl: BASE
    })
    const feed = atom(run3, 'apps/gitea/feed.xml')
    expect(titles(feed)).toEqual(['Gitea 1.23.5: caution', 'Gitea 1.23.5: safe', 'Gitea 1.23.5: caution'])
    expect(updates(feed)).toEqual([T3, T2, T1])
    // A reader that knows the first caution entry's id still sees the second one as new.
    const ids = entries(feed).map((e) => child(e, 'id')!.text)
    expect(new Set(ids).size).toBe(3)
    expect(ids[0]).toBe(`${ids[2]}/${T3.slice(0, 19).replace(/[-:]/g, '')}`)
  })

  test(`bounded: the newest ${RECENT_CHANGES} changes plus the newest of every current app; ${FEED_ENTRIES} per feed`, () => {
    // 700 old changes of removed apps, then one old change of a current app, all older than this run.
    const old: Change[] = Array.from({ length: 700 }, (_, i) => {
      const at = new Date(Date.parse('2026-01-01T00:00:00.000Z') + (700 - i) * 60_000).toISOString()
      return {
        id: `${BASE}/apps/old-${i}/#1/safe`,
        at,
        slug: `old-${i}`,
        name: `Old ${i}`,
        url: `${BASE}/apps/old-${i}/`,
        version: '1',
        safeToUpdate: 'safe',
        previousVersion: null,
        previousSafeToUpdate: null,
        title: `Old ${i} 1: safe`,
        summary: 'Safe.'
      }
    })
    const traefik = RECORDS.find((r) => r.slug === 'traefik')!
    const ancient: Change = {
      ...old[0]!,
      id: `${BASE}/apps/traefik/#v3.7.9/safe`,
      at: '2025-01-01T00:00:00.000Z',
      slug: 'traefik',
      name: 'Traefik',
      url: traefik.url,
      title: 'Traefik v3.7.9: safe'
    }
    const gitea = RECORDS.find((r) => r.slug === 'gitea')!
    const files = run({ changes: firstPublication([gitea]), previous: [...old, ancient], generatedAt: T1 })
    const kept = changesOf(files)
    expect(kept).toHaveLength(RECENT_CHANGES + 1)
    expect(kept[0]!.slug).toBe('gitea')
    expect(kept.at(-2)!.slug).toBe(`old-${RECENT_CHANGES - 2}`)
    expect(kept.at(-1)!.slug).toBe('traefik')
    expect(entries(atom(files, 'feed.xml'))).toHaveLength(FEED_ENTRIES)
    expect(entries(atom(files, 'feeds/safe.xml'))).toHaveLength(FEED_ENTRIES)
    expect(titles(atom(files, 'apps/traefik/feed.xml'))).toEqual(['Traefik v3.7.9: safe'])
  })

  test('hostile names, versions and rationales stay inert and bounded in every feed', () => {
    const hostile = HOSTILE.map((p) => p.record)
    const files = feedFiles({
      records: hostile,
      changes: firstPublication(hostile),
      previous: [],
      generatedAt: T1,
      baseUrl: BASE
    })
    for (const [file, text] of files) {
      if (!file.endsWith('.xml')) continue
      const feed = atom(files, file)
      expect(text).not.toMatch(/<script|<svg|<img|[\u202A-\u202E\u2066-\u2069\u0000-\u0008]/)
      expect(text.length).toBeLessThan(20_000)
      for (const e of entries(feed))
        expect(child(e, 'link')!.attrs.href).toMatch(
          /^https:\/\/example-owner\.github\.io\/updatesafe\/apps\/[a-z-]+\/$/
        )
    }
    // The 10 MB rationale is cut before it is stored.
    expect(files.get('api/v1/changes.json')!.length).toBeLessThan(20_000)
    expect(titles(atom(files, 'apps/xss-name/feed.xml'))[0]).toContain('<script>window.__pwned=1</script>')
  })
})

describe('readPreviousChanges', () => {
  async function dirWith(files: Record<string, string>): Promise<string> {
    const t = await tempDir('updatesafe-feeds-')
    cleanups.push(t.cleanup)
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(t.dir, file)), { recursive: true })
      await writeFile(path.join(t.dir, file), text)
    }
    return t.dir
  }

  test('no previous snapshot at all: empty, and no warning', async () => {
    const log = recorder()
    expect((await readPreviousChanges(await dirWith({}), log)).changes).toEqual([])
    expect((await readPreviousChanges(undefined, log)).changes).toEqual([])
    expect(log.warnings).toEqual([])
  })

  test.each([
    ['missing beside a catalog', undefined, /has no api\/v1\/changes\.json/],
    ['not JSON', '{"schema":', /is not JSON/],
    [
      'another schema',
      JSON.stringify({ schema: 'updatesafe.changes.v2', docs: '', count: 0, changes: [] }),
      /does not match updatesafe\.changes\.v1/
    ],
    [
      'an entry that would not render',
      JSON.stringify({
        schema: CHANGES_SCHEMA_ID,
        docs: '',
        count: 1,
        changes: [
          {
            ...({} as object),
            id: 'not an iri',
            at: T1,
            slug: 'x',
            name: 'x',
            url: `${BASE}/apps/x/`,
            version: '1',
            safeToUpdate: 'safe',
            previousVersion: null,
            previousSafeToUpdate: null,
            title: 't',
            summary: ''
          }
        ]
      }),
      /changes\.0\.id/
    ]
  ])('%s: a warning, and the history starts empty', async (_, text, message) => {
    const log = recorder()
    const dir = await dirWith({
      'api/v1/apps.json': '{}',
      ...(text === undefined ? {} : { 'api/v1/changes.json': text })
    })
    expect((await readPreviousChanges(dir, log)).changes).toEqual([])
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toMatch(message)
  })
})
