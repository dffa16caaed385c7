// `build` with the model judge, run in this process through main() (src/commands.ts) against a stand-in GitHub
// Models on loopback, from a notes file: what the CLI hands the judge, and what the published files keep of a
// model's answers across runs. The notes are made up here, each saying what it exercises.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { main } from '../src/commands.js'
import type { Logger } from '../src/util/types.js'
import { answer, reader, releaseOf, startFakeModels, type FakeModels } from './support/fake-models.js'
import { tempDir } from './support/tmp.js'

const TOKEN = 'fake-models-token-for-tests'

let dir: string
let cleanup: () => Promise<void>
let fake: FakeModels | null = null
beforeAll(async () => ({ dir, cleanup } = await tempDir('updatesafe-model-cli-')))
afterAll(() => cleanup())
afterEach(async () => {
  await fake?.close()
  fake = null
})

function collecting(): { log: Logger; text: () => string } {
  const lines: string[] = []
  return {
    log: { info: (m) => lines.push(m), warning: (m) => lines.push(m), error: (m) => lines.push(m) },
    text: () => lines.join('\n')
  }
}

/** A catalog of one app (Feeds, example/feeds) and a notes file of its releases, in `dir/name`. */
async function feeds(name: string, releases: { version: string; date: string; notes: string }[]) {
  const root = path.join(dir, name)
  await mkdir(path.join(root, 'catalog/apps'), { recursive: true })
  await writeFile(path.join(root, 'catalog/apps/feeds.yml'), 'name: Feeds\nrepo: example/feeds\n')
  const notes = path.join(root, 'notes.jsonl')
  await writeFile(
    notes,
    releases.map((r) => JSON.stringify({ repo: 'example/feeds', tag: r.version, ...r })).join('\n') + '\n'
  )
  const build = (out: string, more: string[] = []) => [
    'build',
    '--catalog',
    path.join(root, 'catalog'),
    '--out',
    path.join(root, out),
    '--notes-from',
    notes,
    ...more
  ]
  const read = async (out: string, file: string) => JSON.parse(await readFile(path.join(root, out, file), 'utf8'))
  return { build, read }
}

describe('build --model', () => {
  it('takes --model more than once, each adding to the ordered list', async () => {
    // The first model's daily limit is spent: its release goes to the second, which the CLI must have kept.
    fake = await startFakeModels((req) =>
      req.body.model === 'qa/a'
        ? { status: 429, headers: { 'retry-after': '36000', 'x-ratelimit-type': 'UserByModelByDay' } }
        : reader(req)
    )
    const app = await feeds('repeated', [
      { version: '1.0.0', date: '2026-11-20', notes: '### Fixes\n\n* Fixed the OPML importer' }
    ])
    const out = collecting()
    const env = { GITHUB_TOKEN: TOKEN }
    const flags = ['--now', '2026-11-27', '--judge', 'models', '--models-endpoint', fake.endpoint]
    expect(await main(app.build('site', [...flags, '--model', 'qa/a', '--model', 'qa/b']), out.log, env)).toBe(0)
    expect(out.text()).toContain('judge: model qa/a, then qa/b')
    expect(fake.requests.map((r) => [r.body.model, releaseOf(r)])).toEqual([
      ['qa/a', '1.0.0'],
      ['qa/b', '1.0.0']
    ])
    const status = await app.read('site', 'api/v1/status.json')
    expect(status.judging).toMatchObject({ models: ['qa/a', 'qa/b'], verdicts: { 'model:qa/b': 1 } })
    // Commas still make a list, and mix with a repeated --model in the order given.
    const mixed = collecting()
    expect(await main(app.build('mixed', [...flags, '--model', 'qa/a,qa/b', '--model', 'qa/c']), mixed.log, env)).toBe(
      0
    )
    expect(mixed.text()).toContain('judge: model qa/a, then qa/b, then qa/c')
  })
})

describe('what a model writes', () => {
  it('never publishes the token, even when the endpoint echoes it into the answer', async () => {
    // An endpoint that writes the Authorization header it was sent, and the bare token, into its reason.
    fake = await startFakeModels((req) => ({
      content: answer(
        'safe',
        'Fixed the OPML importer',
        `Sent as ${req.authorization}; key ${req.authorization?.replace(/^Bearer /, '')}.`
      )
    }))
    const app = await feeds('echo', [
      { version: '1.0.0', date: '2026-11-20', notes: '### Fixes\n\n* Fixed the OPML importer' }
    ])
    const flags = ['--now', '2026-11-27', '--judge', 'models', '--models-endpoint', fake.endpoint, '--model', 'qa/a']
    expect(await main(app.build('site', flags), collecting().log, { GITHUB_TOKEN: TOKEN })).toBe(0)
    expect(fake.requests[0]!.authorization).toBe(`Bearer ${TOKEN}`)
    const releases = await app.read('site', 'api/v1/apps/feeds/releases.json')
    expect(releases.releases[0].judge).toBe('model:qa/a')
    expect(releases.releases[0].model.reason).toBe('Sent as Bearer ***; key ***.')
    // Nowhere in the site: not the record's rationale, not the page.
    for (const file of ['api/v1/apps/feeds/releases.json', 'api/v1/apps/feeds.json', 'apps/feeds/index.html'])
      expect(await readFile(path.join(dir, 'echo/site', file), 'utf8')).not.toContain(TOKEN)
  })
})
