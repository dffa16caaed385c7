import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import { MARKER } from '../../src/output/write-tree.js'
import { serveSite } from '../../src/output/serve.js'
import { tempDir } from '../support/tmp.js'
import { writeTree } from '../support/write-tree.js'

let server: http.Server
let base: string
let cleanup: () => Promise<void>

beforeAll(async () => {
  const t = await tempDir()
  cleanup = t.cleanup
  await writeTree(
    `${t.dir}/site`,
    new Map([
      ['index.html', '<!doctype html><title>home</title>'],
      ['404.html', '<!doctype html><title>not found</title>'],
      [MARKER, '{"schema":"x"}'],
      ['apps/gitea/index.html', '<!doctype html><title>gitea</title>'],
      ['badge/gitea.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
      ['feed.xml', '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"/>'],
      ['api/v1/status.json', '{"schema":"updatesafe.status.v1"}']
    ])
  )
  const s = await serveSite({ dir: `${t.dir}/site`, port: 0 })
  server = s.server
  base = s.url.replace('localhost', '127.0.0.1').replace(/\/$/, '')
})
afterAll(async () => {
  await new Promise((r) => server.close(r))
  await cleanup()
})

const get = (p: string) => fetch(`${base}${p}`, { redirect: 'manual' })

/** The request target exactly as written (fetch would normalise `.` segments and `\\`). */
function rawGet(target: string): Promise<{ status: number; location: string | undefined }> {
  const { port } = server.address() as { port: number }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, method: 'GET' }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('serveSite (GitHub Pages semantics)', () => {
  it('lets pages on other origins read every answer, as Pages does (Access-Control-Allow-Origin: *)', async () => {
    for (const p of ['/', '/api/v1/status.json', '/feed.xml', '/badge/gitea.svg', '/apps/gitea', '/nowhere']) {
      const res = await get(p)
      expect([p, res.headers.get('access-control-allow-origin')]).toEqual([p, '*'])
    }
    // What a dashboard on another origin does: the browser sends Origin and reads the JSON only if allowed.
    const res = await fetch(`${base}/api/v1/status.json`, { headers: { Origin: 'https://dashboard.example.org' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  })

  it('serves the feeds as application/xml, as Pages does, not text/xml', async () => {
    const res = await get('/feed.xml')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    expect(await res.text()).toContain('<feed')
  })

  it('serves index.html for a directory', async () => {
    const res = await get('/')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await res.text()).toContain('home')
    expect(await (await get('/apps/gitea/')).text()).toContain('gitea')
  })

  it('redirects a directory without its trailing slash, keeping the query', async () => {
    const res = await get('/apps/gitea?x=1')
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('/apps/gitea/?x=1')
  })

  it('answers JSON and SVG with their content types', async () => {
    expect((await get('/api/v1/apps.json')).headers.get('content-type')).toMatch(/^application\/json/)
    expect((await get('/badge/gitea.svg')).headers.get('content-type')).toMatch(/^image\/svg\+xml/)
  })

  it('answers unknown paths with 404.html and status 404, at any depth and for traversal attempts', async () => {
    for (const p of ['/nope', '/api/v1/apps/nope.json', '/apps/nope/', '/%2e%2e/%2e%2e/etc/passwd', '/%E0%A4%A']) {
      const res = await get(p)
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await res.text()).toContain('not found')
    }
  })

  it('never redirects off-site: the red team probes answer 404', async () => {
    const probes = [
      '/.//evil.com/..%2fapps',
      '//evil.com/..%2fapps',
      '//evil.com/apps',
      '/%2F%2Fevil.com/..%2fapps',
      '/%2f/evil.com/..%2fapps',
      '/\\evil.com/..%2fapps',
      '/./\\evil.com/..%2fapps',
      '/%5Cevil.com/..%2fapps',
      '/..//evil.com/..%2fapps',
      '/apps/..//evil.com/..%2f..%2fapps',
      'http://evil.com/apps'
    ]
    for (const p of probes) {
      const res = await rawGet(p)
      expect({ p, status: res.status, location: res.location }).toEqual({ p, status: 404, location: undefined })
    }
  })

  it('builds the redirect from the directory found, so an encoded or dotted path stays on this site', async () => {
    for (const p of ['/apps/x/..%2fgitea', '/./apps/gitea', '/badge/..%2fapps/gitea']) {
      const res = await rawGet(p)
      expect(res.status).toBe(301)
      expect(res.location).toBe('/apps/gitea/')
    }
  })
})

describe('serveSite and symbolic links', () => {
  it('answers 404 for a link that resolves outside --dir, as Pages serves none, and serves one that stays inside', async () => {
    const t = await tempDir()
    const site = path.join(t.dir, 'site')
    await writeTree(
      site,
      new Map([
        ['index.html', '<!doctype html><title>home</title>'],
        [MARKER, '{"schema":"x"}'],
        ['apps/gitea/index.html', '<!doctype html><title>gitea</title>']
      ])
    )
    const secret = path.join(t.dir, 'outside')
    await mkdir(secret)
    await writeFile(path.join(secret, 'passwd'), 'root:x:0:0:SECRET\n')
    await writeFile(path.join(secret, 'index.html'), '<title>SECRET</title>')
    await symlink(path.join(secret, 'passwd'), path.join(site, 'passwd.txt'))
    await symlink(path.join(secret, 'passwd'), path.join(site, 'page.html'))
    await symlink(secret, path.join(site, 'etc'))
    // Not even as the 404 page.
    await symlink(path.join(secret, 'passwd'), path.join(site, '404.html'))
    await symlink('gitea/index.html', path.join(site, 'apps', 'mirror.html'))
    // The red-team case: the machine's own /etc/passwd through a link in the tree.
    await symlink('/etc/passwd', path.join(site, 'system.txt'))
    const s = await serveSite({ dir: site, port: 0 })
    const url = s.url.replace('localhost', '127.0.0.1').replace(/\/$/, '')
    try {
      for (const p of [
        '/passwd.txt',
        '/page',
        '/page.html',
        '/etc/passwd',
        '/etc/',
        '/etc',
        '/system.txt',
        '/%65tc/passwd'
      ]) {
        const res = await fetch(`${url}${p}`, { redirect: 'manual' })
        const body = await res.text()
        expect({ p, status: res.status, leaked: body.includes('SECRET') || body.includes('root:') }).toEqual({
          p,
          status: 404,
          leaked: false
        })
      }
      const inside = await fetch(`${url}/apps/mirror`)
      expect(inside.status).toBe(200)
      expect(await inside.text()).toContain('gitea')
    } finally {
      await new Promise((r) => s.server.close(r))
      await t.cleanup()
    }
  })
})
