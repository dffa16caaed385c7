import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  EndoflifeError,
  fetchProduct,
  MAX_RESPONSE_BYTES,
  productUrl,
  readStoredProduct,
  serializeProduct,
  writeStoredProduct,
  type EndoflifeProduct
} from '../../src/upstream/endoflife.js'
import type { Logger } from '../../src/util/types.js'
import { buildLifecycle } from '../../src/lifecycle/index.js'
import { FIXTURE_DIR, fixtureProducts, fixtureText, loadFixture } from '../fixtures/endoflife/load.js'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** A local endoflife.date stand-in: each request takes the next handler in the script. */
let server: Server
let base: string
let script: Handler[] = []
let seen: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '')
    const next = script.shift()
    if (next) next(req, res)
    else {
      res.statusCode = 500
      res.end('no scripted response left')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

afterEach(() => {
  script = []
  seen = []
})

const json =
  (body: string, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(body)
  }

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = []
  return { warnings, info: () => {}, warning: (m) => void warnings.push(m), error: (m) => void warnings.push(m) }
}

const opts = (log = recordingLog()) => ({ baseUrl: base, log, retries: 2, retryDelayMs: 0 })

describe('fetchProduct against a local stand-in', () => {
  it('GETs /api/v1/products/<product> and returns the validated real document', async () => {
    script = [json(fixtureText('nextcloud'))]
    const doc = await fetchProduct('nextcloud', opts())
    expect(seen).toEqual(['/api/v1/products/nextcloud'])
    expect(doc).toEqual(JSON.parse(fixtureText('nextcloud')))
    expect(doc.result.releases[0]?.name).toBe('34')
  })

  it('keeps a path in the base URL (a stand-in mounted under a folder)', async () => {
    script = [json(fixtureText('gitlab'))]
    const doc = await fetchProduct('gitlab', { ...opts(), baseUrl: `${base}/eol` })
    expect(seen).toEqual(['/eol/api/v1/products/gitlab'])
    // Extra columns survive validation.
    expect(doc.result.releases[0]).toHaveProperty('eoasFrom')
  })

  it('a product that does not exist: 404 is a clear error, not retried', async () => {
    script = [json('{"message":"Product not found"}', 404)]
    await expect(fetchProduct('nosuchproduct', opts())).rejects.toThrow(/no product "nosuchproduct" \(404/)
    expect(seen).toHaveLength(1)
  })

  it('retries a 502 and then succeeds, saying so in a warning', async () => {
    const log = recordingLog()
    script = [json('<html>Bad Gateway</html>', 502), json(fixtureText('postgresql'))]
    const doc = await fetchProduct('postgresql', opts(log))
    expect(doc.result.name).toBe('postgresql')
    expect(seen).toHaveLength(2)
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toMatch(/502.*retrying \(1\/2\)/)
  })

  it('retries a connection reset', async () => {
    script = [(req) => req.socket.destroy(), json(fixtureText('redis'))]
    const doc = await fetchProduct('redis', opts())
    expect(doc.result.name).toBe('redis')
    expect(seen).toHaveLength(2)
  })

  it('gives up after the configured retries', async () => {
    script = [json('', 503), json('', 503), json('', 503), json(fixtureText('redis'))]
    await expect(fetchProduct('redis', opts())).rejects.toThrow(/answered 503/)
    expect(seen).toHaveLength(3)
  })

  it('malformed JSON is an error, not a crash, and is not retried', async () => {
    script = [json(fixtureText('nextcloud').slice(0, 500))]
    await expect(fetchProduct('nextcloud', opts())).rejects.toThrow(/malformed JSON/)
    expect(seen).toHaveLength(1)
  })

  it('a document of the wrong shape is an error naming the field', async () => {
    const doc = JSON.parse(fixtureText('keycloak'))
    doc.result.releases[0].eolFrom = 'next year'
    script = [json(JSON.stringify(doc))]
    await expect(fetchProduct('keycloak', opts())).rejects.toThrow(/releases\[0\]\.eolFrom|eolFrom/)

    script = [json('[]')]
    await expect(fetchProduct('keycloak', opts())).rejects.toThrow(/unexpected document/)

    const hostile = JSON.parse(fixtureText('keycloak'))
    hostile.result.releases[0].latest.link = 'javascript:alert(1)'
    script = [json(JSON.stringify(hostile))]
    await expect(fetchProduct('keycloak', opts())).rejects.toThrow(/latest\.link|link/)
  })

  it('an answer for another product is refused', async () => {
    script = [json(fixtureText('grafana'))]
    await expect(fetchProduct('keycloak', opts())).rejects.toThrow(/answered "keycloak" with product "grafana"/)
  })

  it('refuses a body larger than the cap', async () => {
    const big = fixtureText('redis').replace(/\n}\n$/, `${' '.repeat(MAX_RESPONSE_BYTES)}\n}\n`)
    script = [json(big)]
    await expect(fetchProduct('redis', opts())).rejects.toThrow(/larger than/)
    // Streamed without a declared length too.
    script = [
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write(big.slice(0, 1000))
        res.end(big.slice(1000))
      }
    ]
    await expect(fetchProduct('redis', opts())).rejects.toThrow(/larger than/)
  })

  it('refuses a product id that could steer the URL, before any request', async () => {
    for (const bad of ['../nextcloud', 'next/cloud', 'Nextcloud', '', 'a?b', '.hidden']) {
      await expect(fetchProduct(bad, opts())).rejects.toThrow(/not an endoflife.date product id/)
    }
    expect(seen).toHaveLength(0)
    expect(() => productUrl('file:///etc', 'nextcloud')).toThrow(/http/)
    expect(productUrl('https://endoflife.date', 'nextcloud')).toBe('https://endoflife.date/api/v1/products/nextcloud')
  })
})

describe('stored product data', () => {
  // root/store is the data directory; root/outside.json sits one level above it.
  let root: string
  let dir: string
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'updatesafe-eol-'))
    dir = path.join(root, 'store')
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('reads back byte for byte what it writes, for all 16 real products (a refresh with the same data changes no file)', async () => {
    for (const product of fixtureProducts()) {
      const doc = loadFixture(product)
      expect(serializeProduct(doc)).toBe(fixtureText(product))
      await writeStoredProduct(dir, product, doc)
      expect(await readFile(path.join(dir, `${product}.json`), 'utf8')).toBe(fixtureText(product))
      expect(await readStoredProduct(dir, product)).toEqual(doc)
    }
    // Written aside and renamed: no temporary file stays behind.
    expect((await readdir(dir)).filter((f) => !f.endsWith('.json'))).toEqual([])
  })

  it('reads the seeded fixtures directly', async () => {
    const doc = await readStoredProduct(FIXTURE_DIR, 'authentik')
    expect(doc?.result.releases.map((r) => r.name)).toContain('2026.5')
  })

  it('null when no data is stored for the product', async () => {
    expect(await readStoredProduct(dir, 'nosuchproduct')).toBeNull()
  })

  it('a product id never picks a path outside the directory', async () => {
    const outside = path.join(root, 'outside.json')
    await writeFile(outside, fixtureText('redis'))
    await expect(readStoredProduct(dir, '../outside')).rejects.toThrow(/not an endoflife.date product id/)
    await expect(writeStoredProduct(dir, '../outside', loadFixture('redis'))).rejects.toThrow(
      /not an endoflife.date product id/
    )
    expect(await readFile(outside, 'utf8')).toBe(fixtureText('redis'))
  })

  it('refuses a stored file that is a FIFO or a folder before reading it (a FIFO never hangs the build)', async () => {
    await mkdir(dir, { recursive: true })
    expect(spawnSync('mkfifo', [path.join(dir, 'piped.json')]).status).toBe(0)
    await expect(readStoredProduct(dir, 'piped')).rejects.toThrow(
      `${path.join(dir, 'piped.json')}: is not a regular file`
    )
    await mkdir(path.join(dir, 'folder.json'))
    await expect(readStoredProduct(dir, 'folder')).rejects.toThrow(/folder\.json: is not a regular file/)
  })

  it('refuses a stored file or folder that is a symbolic link, quoting nothing it points at', async () => {
    const secret = path.join(root, 'secret')
    await writeFile(secret, 'root:*:20228:0:99999:7:::\n')
    await mkdir(dir, { recursive: true })
    await symlink(secret, path.join(dir, 'linked-product.json'))
    await expect(readStoredProduct(dir, 'linked-product')).rejects.toThrow(
      new Error(
        `${path.join(dir, 'linked-product.json')}: is a symbolic link; stored end-of-life data must be regular files in the catalog`
      )
    )
    const linked = path.join(root, 'linked')
    await mkdir(linked)
    await symlink(dir, path.join(linked, 'endoflife'))
    await expect(readStoredProduct(path.join(linked, 'endoflife'), 'redis')).rejects.toThrow(
      /endoflife: is a symbolic link/
    )
    await rm(path.join(dir, 'linked-product.json'))
  })

  it('a stored file that does not validate is an error naming the file', async () => {
    await writeFile(path.join(dir, 'caddy.json'), '{"result": {"name": "caddy"}}\n')
    await expect(readStoredProduct(dir, 'caddy')).rejects.toThrow(/caddy\.json: .*unexpected document/)
  })

  it('refuses to store a document for another product', async () => {
    const doc: EndoflifeProduct = loadFixture('grafana')
    await expect(writeStoredProduct(dir, 'keycloak', doc)).rejects.toThrow(/with product "grafana"/)
  })

  it('a refresh from the stand-in renews the stored copy, and the lifecycle follows', async () => {
    // endoflife.date adds a cycle after our snapshot: the stand-in serves the real
    // nextcloud data with a cycle 35 in front, as the generator would write it.
    await writeStoredProduct(dir, 'nextcloud', loadFixture('nextcloud'))
    const now = new Date('2027-07-01T00:00:00Z')
    const before = buildLifecycle('nextcloud', (await readStoredProduct(dir, 'nextcloud'))!, 'v35.0.1', now)
    expect(before.lifecycle).toBeNull()

    const live = JSON.parse(fixtureText('nextcloud'))
    const newest = live.result.releases[0]
    live.result.releases.unshift({
      ...newest,
      name: '35',
      label: '35',
      releaseDate: '2027-06-10',
      eolFrom: '2028-06-30',
      latest: { name: '35.0.1', date: '2027-06-20', link: 'https://nextcloud.com/changelog/#latest35' }
    })
    script = [json(JSON.stringify(live))]
    await writeStoredProduct(dir, 'nextcloud', await fetchProduct('nextcloud', opts()))

    const after = buildLifecycle('nextcloud', (await readStoredProduct(dir, 'nextcloud'))!, 'v35.0.1', now)
    expect(after.lifecycle).toMatchObject({ cycle: '35', eol: '2028-06-30', status: 'eol-scheduled' })
    // Cycle 34 ended 2027-06-30 in the same data: judged against now, not the stale flag.
    expect(
      buildLifecycle(
        'nextcloud',
        (await readStoredProduct(dir, 'nextcloud'))!,
        '34.0.3',
        new Date('2027-07-01T00:00:00Z')
      ).lifecycle?.status
    ).toBe('eol')
  })
})

describe('fetchProduct under deadlines (issue 20, item 2)', () => {
  const quiet: Logger = { info: () => {}, warning: () => {}, error: () => {} }

  it('names a refused connection with its host and does not retry it', async () => {
    const server = createServer()
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    await new Promise((r) => server.close(r))
    const start = Date.now()
    const err = await fetchProduct('nginx', {
      baseUrl: `http://127.0.0.1:${port}`,
      log: quiet,
      retryDelayMs: 2000
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(EndoflifeError)
    expect((err as EndoflifeError).message).toContain(`connection refused by 127.0.0.1:${port} (ECONNREFUSED)`)
    expect((err as EndoflifeError).network).toBe('refused')
    expect(Date.now() - start).toBeLessThan(1500)
  })

  it('gives up at the request timeout and asks nothing once the deadline has passed', async () => {
    const frozen = createServer(() => {})
    await new Promise<void>((r) => frozen.listen(0, '127.0.0.1', r))
    const { port } = frozen.address() as AddressInfo
    try {
      const deadline = AbortSignal.timeout(400)
      const opts = {
        baseUrl: `http://127.0.0.1:${port}`,
        log: quiet,
        timeoutMs: 200,
        retries: 5,
        retryDelayMs: 50,
        deadline
      }
      const start = Date.now()
      const first = (await fetchProduct('nginx', opts).catch((e: unknown) => e)) as EndoflifeError
      expect(first.message).toMatch(/no answer from 127\.0\.0\.1:\d+ within 0\.2 s \(timeout\)|deadline/)
      expect(Date.now() - start).toBeLessThan(1000)
      const after = (await fetchProduct('redis', opts).catch((e: unknown) => e)) as EndoflifeError
      expect(after.message).toContain('the refresh deadline was reached')
    } finally {
      frozen.closeAllConnections()
      await new Promise((r) => frozen.close(r))
    }
  })
})
