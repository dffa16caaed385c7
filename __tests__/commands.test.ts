// The CLI's commands in this process (the bundle itself is run by cli.test.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, writeFile } from 'node:fs/promises'
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
