// scripts/keep-alive.sh (the keep-alive job of publish.yml) against a local
// HTTP server answering like GitHub's "Enable a workflow" endpoint.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

const SCRIPT = path.resolve('scripts/keep-alive.sh')
const TOKEN = 'ghs_0123456789abcdefghijklmnopqrstuvwxyz'
let server: http.Server
let api: string
const seen: { method: string; url: string; auth: string | undefined; version: string | undefined }[] = []
let answer: { status: number; body: string } = { status: 204, body: '' }

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      auth: req.headers.authorization,
      version: req.headers['x-github-api-version'] as string | undefined
    })
    res.writeHead(answer.status, { 'Content-Type': 'application/json' })
    res.end(answer.body)
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`
})
afterAll(() => new Promise((ok) => server.close(ok)))

function run(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [SCRIPT], { env: { PATH: process.env.PATH ?? '', ...env } })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('close', (code) => resolve({ code, out }))
  })
}

const ENV = {
  GITHUB_TOKEN: TOKEN,
  GITHUB_REPOSITORY: 'someone/my-catalog',
  GITHUB_WORKFLOW_REF: 'someone/my-catalog/.github/workflows/publish.yml@refs/heads/main'
}

describe('keep-alive.sh', () => {
  it('enables the workflow that runs it through the REST API, with the job token', async () => {
    seen.length = 0
    answer = { status: 204, body: '' }
    const r = await run({ ...ENV, GITHUB_API_URL: api })
    expect(r.out).toContain('enabled publish.yml')
    expect(r.code).toBe(0)
    expect(seen).toEqual([
      {
        method: 'PUT',
        url: '/api/v3/repos/someone/my-catalog/actions/workflows/publish.yml/enable',
        auth: `Bearer ${TOKEN}`,
        version: '2022-11-28'
      }
    ])
    expect(r.out).not.toContain(TOKEN)
  })

  it('fails the job, saying why, when GitHub refuses (no actions: write)', async () => {
    answer = { status: 403, body: '{"message":"Resource not accessible by integration","status":"403"}' }
    const r = await run({ ...ENV, GITHUB_API_URL: api })
    expect(r.code).toBe(1)
    expect(r.out).toContain(
      'GitHub answered HTTP 403 to enabling publish.yml: Resource not accessible by integration (does the job have permissions: actions: write?)'
    )
    expect(r.out).not.toContain(TOKEN)
  })

  it('never prints the token when an API error echoes it, nor anything shaped like one', async () => {
    // An API (or a proxy before it) that quotes the request's Authorization header back.
    const other = `ghp_${'Q7'.repeat(18)}`
    answer = {
      status: 401,
      body: JSON.stringify({
        message: `Bad credentials: Bearer ${TOKEN}, also ${other} and github_pat_${'9'.repeat(30)}`
      })
    }
    const r = await run({ ...ENV, GITHUB_API_URL: api })
    expect(r.code).toBe(1)
    expect(r.out).toContain(
      'GitHub answered HTTP 401 to enabling publish.yml: Bad credentials: Bearer ***, also *** and ***'
    )
    expect(r.out).not.toContain(TOKEN)
    expect(r.out).not.toContain(other)
    // A token of no known shape (GitHub Enterprise Server, a PAT of another kind) is removed by its value.
    const plain = 'enterprise-token-value-0042'
    answer = { status: 401, body: JSON.stringify({ message: `token was ${plain}` }) }
    const e = await run({ ...ENV, GITHUB_TOKEN: plain, GITHUB_API_URL: api })
    expect(e.out).toContain('token was ***')
    expect(e.out).not.toContain(plain)
  })

  it('refuses a workflow reference of another repository, asking nothing', async () => {
    seen.length = 0
    for (const ref of [
      'other/repo/.github/workflows/publish.yml@refs/heads/main',
      'someone/my-catalog/.github/workflows/../x.yml@main',
      'someone/my-catalog/.github/workflows/a b.yml@main'
    ]) {
      const r = await run({ ...ENV, GITHUB_API_URL: api, GITHUB_WORKFLOW_REF: ref })
      expect(r.code).toBe(1)
      expect(r.out).toContain('does not name a workflow of someone/my-catalog')
    }
    expect(seen).toEqual([])
  })

  it('says when the API cannot be reached', async () => {
    const r = await run({ ...ENV, GITHUB_API_URL: 'http://127.0.0.1:9' })
    expect(r.code).toBe(1)
    expect(r.out).toContain('could not reach http://127.0.0.1:9')
  })
})
