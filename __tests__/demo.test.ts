// The demo catalog `npm start` builds on a clone with neither the data set nor a token (demo/README.md): made-up
// apps whose notes we wrote to show every class, a history and an upgrade path, judged by the rules. It needs
// nothing beside the clone, so it runs on GitHub's CI too.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { main } from '../src/commands.js'
import { build } from '../src/pipeline/pipeline.js'
import { catalogDocSchema } from '../src/schema/index.js'
import type { Logger } from '../src/util/types.js'
import { tempDir } from './support/tmp.js'

let dir: string
let cleanup: () => Promise<void>
const warnings: string[] = []
const log: Logger = { info: () => {}, warning: (m) => warnings.push(m), error: (m) => warnings.push(m) }
const read = async <T>(file: string) => JSON.parse(await readFile(path.join(dir, 'site', file), 'utf8')) as T

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-demo-'))
  await build(
    {
      catalogDir: path.resolve('demo/catalog'),
      outDir: path.join(dir, 'site'),
      baseUrl: 'http://localhost:8080',
      now: new Date('2026-12-02T06:00:00.000Z'),
      notesFrom: path.resolve('demo/notes.jsonl'),
      demo: true
    },
    { log }
  )
}, 60_000)
afterAll(() => cleanup())

interface Release {
  version: string
  safeToUpdate: string
  breakingKind: string | null
}

describe('the demo catalog', () => {
  it('builds without a warning: every note line is a release of a demo app', () => {
    expect(warnings).toEqual([])
  })

  it('shows every class, each app as its notes were written to read', async () => {
    const doc = catalogDocSchema.parse(await read('api/v1/apps.json'))
    const classes = Object.fromEntries(doc.apps.map((a) => [a.slug, a.safeToUpdate]))
    expect(classes).toEqual({
      brookwatch: 'safe',
      cinderbox: 'safe',
      driftmail: 'unknown',
      harborlight: 'caution',
      lanternshelf: 'breaking',
      mossfeed: 'safe',
      'old-kettle': 'unmaintained',
      quillpad: 'safe',
      tallybook: 'breaking',
      wrenwiki: 'caution'
    })
    expect(doc.apps.find((a) => a.slug === 'old-kettle')?.successor).toBe('updatesafe-demo/quillpad')
  })

  it('holds histories whose upgrade paths cross a breaking release under a safe latest one', async () => {
    const quill = await read<{ releases: Release[] }>('api/v1/apps/quillpad/releases.json')
    expect(quill.releases.map((r) => r.version)).toEqual(['2.1.1', '2.1.0', '2.0.1', '2.0.0', '1.8.1', '1.8.0'])
    expect(quill.releases.find((r) => r.version === '2.0.0')?.safeToUpdate).toBe('breaking')
    const box = await read<{ releases: Release[] }>('api/v1/apps/cinderbox/releases.json')
    expect(box.releases.find((r) => r.version === '2.0.0')?.safeToUpdate).toBe('breaking')
    // The app page's upgrade table: from 1.8.1 the path crosses 2.0.0, which decides.
    const page = await readFile(path.join(dir, 'site/apps/quillpad/index.html'), 'utf8')
    expect(page).toMatch(
      /Updating from 1\.8\.1 to 2\.1\.1 crosses 4 releases; the most severe decides, 2\.0\.0: Breaking/
    )
  })

  it("links an archived app's successor to its own page when the catalog tracks it", async () => {
    const page = await readFile(path.join(dir, 'site/apps/old-kettle/index.html'), 'utf8')
    expect(page).toContain(
      'Maintained successor: <a href="../quillpad/">updatesafe-demo/quillpad</a>, tracked here too'
    )
  })

  it('tells a reader to apply an urgent fix soon, not to plan around it, and a breaking change to plan', async () => {
    const urgent = await readFile(path.join(dir, 'site/apps/lanternshelf/index.html'), 'utf8')
    expect(urgent).toContain('An urgent fix the notes say to apply now: read them and update soon.')
    expect(urgent).not.toContain('plan the update')
    const planned = await readFile(path.join(dir, 'site/apps/tallybook/index.html'), 'utf8')
    expect(planned).toContain('A manual step or hard prerequisite is required: plan the update.')
  })

  it('says on every page that the apps are made up, and how to see real ones', async () => {
    const doc = catalogDocSchema.parse(await read('api/v1/apps.json'))
    for (const page of ['index.html', ...doc.apps.map((a) => `apps/${a.slug}/index.html`)]) {
      const html = await readFile(path.join(dir, 'site', page), 'utf8')
      expect(html).toContain('Demo: these apps are made up.')
      expect(html).toContain('GITHUB_TOKEN')
      expect(html).not.toContain('id="offline"')
    }
  })

  it('gives check a Compose file to try: every verdict, an image it does not track, and exit 1', async () => {
    const out: string[] = []
    const status = await main(
      ['check', '--api', path.join(dir, 'site'), '--compose', 'demo/compose.yml', '--json'],
      log,
      {},
      (t) => out.push(t)
    )
    expect(status).toBe(1)
    const json = JSON.parse(out.join('')) as {
      apps: { slug: string; safeToUpdate: string; source: { service: string } }[]
      untracked: { service: string }[]
    }
    expect(Object.fromEntries(json.apps.map((a) => [a.source.service, [a.slug, a.safeToUpdate]]))).toEqual({
      notes: ['quillpad', 'breaking'],
      proxy: ['harborlight', 'caution'],
      monitor: ['brookwatch', 'safe'],
      budget: ['tallybook', 'breaking'],
      wiki: ['wrenwiki', 'safe'],
      'legacy-notes': ['old-kettle', 'safe'],
      feeds: ['mossfeed', 'unknown']
    })
    expect(json.untracked.map((u) => u.service)).toEqual(['db'])
  })
})
