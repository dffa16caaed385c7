// A stand-in for an OCI registry on 127.0.0.1, as Docker Hub and GHCR answer an anonymous pull: a
// 401 with a Bearer challenge, a token endpoint, then for any tag a manifest and an image config
// whose labels are the ones given for that repository (null: no labels).
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeRegistry {
  /** `127.0.0.1:PORT`, the registry part of an image name. */
  host: string
  /** Paths asked, in order. */
  seen: string[]
  close: () => Promise<void>
}

export async function startFakeRegistry(labels: Record<string, Record<string, string> | null>): Promise<FakeRegistry> {
  const seen: string[] = []
  let base = ''
  const digest = (c: string) => `sha256:${c.repeat(64)}`
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x')
    seen.push(u.pathname)
    const send = (status: number, doc: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(doc))
    if (u.pathname === '/token') return send(200, { token: 'anon' })
    if (req.headers.authorization !== 'Bearer anon')
      return send(401, { errors: [{ code: 'UNAUTHORIZED' }] }, { 'www-authenticate': `Bearer realm="${base}/token"` })
    const m = /^\/v2\/(.+)\/(manifests|blobs)\/(.+)$/.exec(u.pathname)
    const repo = m?.[1]
    if (!m || repo === undefined || !(repo in labels)) return send(404, { errors: [{ code: 'NAME_UNKNOWN' }] })
    if (m[2] === 'manifests') return send(200, { schemaVersion: 2, config: { digest: digest('c') } })
    return send(200, { architecture: 'amd64', config: { Labels: labels[repo] } })
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  base = `http://${host}`
  return { host, seen, close: () => new Promise((ok) => server.close(() => ok())) }
}
