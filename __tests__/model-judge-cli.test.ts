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

describe('answers that cannot be used', () => {
  it('are recorded in the history, not asked for again of that model, and not pending', async () => {
    // qa/a answers with something that is not JSON, every time; qa/b reads carefully.
    fake = await startFakeModels((req) => (req.body.model === 'qa/a' ? { content: 'Looks fine to me!' } : reader(req)))
    const notes = '### Fixes\n\n* Fixed the OPML importer'
    const app = await feeds('unusable', [{ version: '1.0.0', date: '2026-11-20', notes }])
    const env = { GITHUB_TOKEN: TOKEN }
    const flags = ['--now', '2026-11-27', '--judge', 'models', '--models-endpoint', fake.endpoint, '--model', 'qa/a']
    const asked = () => fake!.requests.map((r) => r.body.model)
    expect(await main(app.build('run1', flags), collecting().log, env)).toBe(0)
    // Asked, and asked once more saying why; then the rules judge it.
    expect(asked()).toEqual(['qa/a', 'qa/a'])
    const s1 = await app.read('run1', 'api/v1/status.json')
    expect(s1.judging).toEqual({ judge: 'model:qa/a', calls: 2, verdicts: { rules: 1 }, pending: 0, unusable: 1 })
    const [entry] = (await app.read('run1', 'api/v1/apps/feeds/releases.json')).releases
    expect(entry).toMatchObject({ version: '1.0.0', judge: 'rules', model: null })
    expect(entry.unusable).toEqual({ models: ['qa/a'], prompt: 1, notes: expect.stringMatching(/^[0-9a-f]{12}$/) })
    // The next run does not ask qa/a again: nothing is pending, nothing spent.
    expect(
      await main(app.build('run2', [...flags, '--previous', path.join(dir, 'unusable/run1')]), collecting().log, env)
    ).toBe(0)
    expect(asked()).toEqual(['qa/a', 'qa/a'])
    const s2 = await app.read('run2', 'api/v1/status.json')
    expect(s2.judging).toEqual({ judge: 'model:qa/a', calls: 0, verdicts: {}, pending: 0 })
    expect((await app.read('run2', 'api/v1/apps/feeds/releases.json')).releases[0].unusable).toEqual(entry.unusable)
    // A later model of a list may still answer: it is asked, qa/a is not, and its answer stands with the record kept.
    const list = [...flags, '--model', 'qa/b', '--previous', path.join(dir, 'unusable/run2')]
    expect(await main(app.build('run3', list), collecting().log, env)).toBe(0)
    expect(asked()).toEqual(['qa/a', 'qa/a', 'qa/b'])
    const s3 = await app.read('run3', 'api/v1/status.json')
    expect(s3.judging).toMatchObject({ calls: 1, verdicts: { 'model:qa/b': 1 }, pending: 0 })
    const [byNext] = (await app.read('run3', 'api/v1/apps/feeds/releases.json')).releases
    expect(byNext).toMatchObject({ judge: 'model:qa/b', unusable: entry.unusable })
    // And that stands: qa/a is not asked again for it, nothing is pending.
    const again = [...flags, '--model', 'qa/b', '--previous', path.join(dir, 'unusable/run3')]
    expect(await main(app.build('run4', again), collecting().log, env)).toBe(0)
    expect(asked()).toEqual(['qa/a', 'qa/a', 'qa/b'])
    expect((await app.read('run4', 'api/v1/status.json')).judging).toMatchObject({ calls: 0, pending: 0 })
  })
})

describe('a list of models over several runs', () => {
  it('asks the first model again about older releases a later model judged, not only the latest', async () => {
    let limited = true
    // qa/a's daily limit is spent on the first run only; qa/b reads carefully.
    fake = await startFakeModels((req) =>
      req.body.model === 'qa/a' && limited
        ? { status: 429, headers: { 'retry-after': '36000', 'x-ratelimit-type': 'UserByModelByDay' } }
        : reader(req)
    )
    const app = await feeds('fallback', [
      { version: '1.0.0', date: '2026-11-01', notes: '### Fixes\n\n* Fixed the OPML importer' },
      { version: '1.1.0', date: '2026-11-10', notes: '### Changes\n\n* Changed the default refresh interval' },
      { version: '1.2.0', date: '2026-11-20', notes: '### Fixes\n\n* Fixed the feed list' }
    ])
    const env = { GITHUB_TOKEN: TOKEN }
    const flags = ['--now', '2026-11-27', '--judge', 'models', '--models-endpoint', fake.endpoint]
    const list = [...flags, '--model', 'qa/a,qa/b']
    const judges = async (out: string) =>
      ((await app.read(out, 'api/v1/apps/feeds/releases.json')).releases as { version: string; judge: string }[]).map(
        (e) => [e.version, e.judge]
      )
    expect(await main(app.build('run1', list), collecting().log, env)).toBe(0)
    expect(await judges('run1')).toEqual([
      ['1.2.0', 'model:qa/b'],
      ['1.1.0', 'model:qa/b'],
      ['1.0.0', 'model:qa/b']
    ])
    // All three wait for the first model.
    expect((await app.read('run1', 'api/v1/status.json')).judging).toMatchObject({ pending: 3 })
    limited = false
    fake.requests.length = 0
    const run2 = [...list, '--previous', path.join(dir, 'fallback/run1')]
    expect(await main(app.build('run2', run2), collecting().log, env)).toBe(0)
    // The latest first, then the older ones, of the first model alone.
    expect(fake.requests.map((r) => [r.body.model, releaseOf(r)])).toEqual([
      ['qa/a', '1.2.0'],
      ['qa/a', '1.1.0'],
      ['qa/a', '1.0.0']
    ])
    expect(await judges('run2')).toEqual([
      ['1.2.0', 'model:qa/a'],
      ['1.1.0', 'model:qa/a'],
      ['1.0.0', 'model:qa/a']
    ])
    expect((await app.read('run2', 'api/v1/status.json')).judging).toMatchObject({
      calls: 3,
      verdicts: { 'model:qa/a': 3 },
      pending: 0
    })
    // Nothing is left to ask: the next run spends nothing.
    fake.requests.length = 0
    const run3 = [...list, '--previous', path.join(dir, 'fallback/run2')]
    expect(await main(app.build('run3', run3), collecting().log, env)).toBe(0)
    expect(fake.requests).toEqual([])
    expect(await judges('run3')).toEqual(await judges('run2'))
  })
})
