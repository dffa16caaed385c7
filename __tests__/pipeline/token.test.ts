// A token GitHub refuses (HTTP 401) on a first run: there is no last-known-good to fall back on, so the run fails
// (exit 1, nothing published) instead of publishing an empty catalog with exit 0 (issue 48, item 5). With a
// previous snapshot the apps keep last-known-good, stale, as before.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { access, mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { main } from '../../src/commands.js'
import type { Logger } from '../../src/util/types.js'
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js'
import { tempDir } from '../support/tmp.js'

const TOKEN = 'ghs_goodtoken0123456789abcdef'
const WRONG = 'ghs_wrongtoken0123456789abcdef'
let dir: string
let cleanup: () => Promise<void>
let fake: FakeGitHub

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir())
  await mkdir(path.join(dir, 'catalog/apps'), { recursive: true })
  // No release block: only a refresh can publish it.
  await writeFile(path.join(dir, 'catalog/apps/demo.yml'), 'name: Demo\nrepo: demo-org/demo\n')
  fake = await startFakeGitHub({
    token: TOKEN,
    repos: [
      {
        owner: 'demo-org',
        name: 'demo',
        releases: [{ tagName: 'v1.0.0', createdAt: '2026-10-01T12:00:00Z', body: '## Fixes\n\n- A made-up fix' }]
      }
    ]
  })
})
afterAll(async () => {
  await fake.close()
  await cleanup()
})

async function build(out: string, token: string, previous?: string): Promise<{ status: number; lines: string[] }> {
  const lines: string[] = []
  const log: Logger = { info: (m) => lines.push(m), warning: (m) => lines.push(m), error: (m) => lines.push(m) }
  const args = ['build', '--catalog', path.join(dir, 'catalog'), '--out', path.join(dir, out), '--refresh']
  const env = { GITHUB_TOKEN: token, GITHUB_API_URL: fake.apiUrl, GITHUB_GRAPHQL_URL: fake.graphqlUrl }
  const status = await main(
    [...args, '--base-url', 'https://example.org/c', ...(previous ? ['--previous', path.join(dir, previous)] : [])],
    log,
    env,
    () => {}
  )
  return { status, lines }
}

describe('a refused token', () => {
  it('on a first run fails it: exit 1, nothing published, the refusal named and the token never shown', async () => {
    const r = await build('first', WRONG)
    expect(r.status).toBe(1)
    expect(r.lines.join('\n')).toContain('GitHub refused the token')
    expect(r.lines.join('\n')).not.toContain(WRONG)
    await expect(access(path.join(dir, 'first'))).rejects.toThrow()
  })

  it('with a previous snapshot keeps last-known-good (stale), exit 0', async () => {
    expect((await build('good', TOKEN)).status).toBe(0)
    const r = await build('later', WRONG, 'good')
    expect(r.status).toBe(0)
    const status = JSON.parse(await readFile(path.join(dir, 'later/api/v1/status.json'), 'utf8')) as {
      stale: { slug: string }[]
    }
    expect(status.stale.map((s) => s.slug)).toEqual(['demo'])
  })
})
