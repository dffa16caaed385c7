// `--resolve-images`: an image the catalog does not map, resolved by its
// `org.opencontainers.image.source` label (the label Renovate reads to find changelogs), read from
// the registry over the OCI distribution API with an anonymous pull token. Only when the user
// allows network; every failure is a reason, never an exception.
import { readBoundedBody } from '../util/bounded-body.js'
import { hostOf, networkFailure } from '../util/network.js'
import type { ImageRef } from './images.js'

export interface OciDeps {
  fetch?: typeof fetch
  /** Longest wait for one request, in ms. Default 10,000. */
  timeoutMs?: number
}

const SOURCE_LABEL = 'org.opencontainers.image.source'
/** Manifests and image configs are small; anything larger is not read. */
const MAX_BYTES = 4 * 1024 * 1024
const ACCEPT = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.docker.distribution.manifest.v2+json'
].join(', ')

/** The registry's base URL and the repository path in it; Docker Hub's implicit parts made explicit. */
export function registryOf(name: string): { base: string; path: string } {
  const parts = name.split('/')
  const first = parts[0]!
  const hasRegistry = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost')
  let host = hasRegistry ? first.toLowerCase() : 'registry-1.docker.io'
  let path = (hasRegistry ? parts.slice(1) : parts).join('/')
  if (host === 'docker.io' || host === 'index.docker.io') host = 'registry-1.docker.io'
  if (host === 'registry-1.docker.io' && !path.includes('/')) path = `library/${path}`
  // As Docker does, a registry on this machine is spoken to over plain HTTP.
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host)
  return { base: `${local ? 'http' : 'https'}://${host}`, path }
}

/** `Bearer realm="…",service="…",scope="…"` */
function bearerChallenge(header: string | null): Record<string, string> | null {
  if (!header || !/^bearer\s/i.test(header)) return null
  const out: Record<string, string> = {}
  for (const m of header.slice(7).matchAll(/(\w+)="([^"]*)"/g)) out[m[1]!.toLowerCase()] = m[2]!
  return out.realm ? out : null
}

/** The GitHub repository (`owner/name`) a source URL names, or null. */
export function githubRepoOf(source: string): string | null {
  const m = /^(?:https?:\/\/|git@)github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/i.exec(source.trim())
  return m ? `${m[1]}/${m[2]}` : null
}

/** The image's source label, or why it could not be read. */
export async function imageSourceLabel(
  ref: ImageRef,
  deps: OciDeps = {}
): Promise<{ source: string } | { why: string }> {
  const doFetch = deps.fetch ?? fetch
  const timeoutMs = deps.timeoutMs ?? 10_000
  const { base, path } = registryOf(ref.name)
  let token: string | null = null
  /** An answer, and the request's timeout, which bounds reading its body too. */
  type Answer = { url: string; res: Response; timeout: AbortSignal }
  const get = async (url: string, accept: string): Promise<Answer> => {
    const timeout = AbortSignal.timeout(timeoutMs)
    try {
      const res = await doFetch(url, {
        signal: timeout,
        redirect: 'follow',
        headers: { accept, ...(token ? { authorization: `Bearer ${token}` } : {}) }
      })
      return { url, res, timeout }
    } catch (e) {
      throw new Error(networkFailure(e, hostOf(url), { timeout, timeoutMs })?.message ?? (e as Error).message)
    }
  }
  const discard = (a: Answer) => a.res.body?.cancel().catch(() => {})
  // The registry's host comes from a Compose file: its body is streamed under the cap, never read whole first.
  const json = async ({ url, res, timeout }: Answer): Promise<unknown> => {
    const body = await readBoundedBody(res, MAX_BYTES, timeout, timeoutMs)
    if ('cut' in body) throw new Error(`${res.url || url} ${body.cut}`)
    return JSON.parse(new TextDecoder().decode(body.bytes)) as unknown
  }
  /** A document of the registry, asking for an anonymous pull token once when challenged. */
  const read = async (url: string, accept: string): Promise<unknown> => {
    let answer = await get(url, accept)
    if (answer.res.status === 401 && token === null) {
      await discard(answer)
      const c = bearerChallenge(answer.res.headers.get('www-authenticate'))
      if (!c) throw new Error(`${hostOf(url)} asks for credentials this check does not have`)
      const t = new URL(c.realm!)
      if (c.service) t.searchParams.set('service', c.service)
      t.searchParams.set('scope', c.scope ?? `repository:${path}:pull`)
      const tr = await get(t.href, 'application/json')
      if (!tr.res.ok) {
        await discard(tr)
        throw new Error(`${hostOf(t.href)} gave no anonymous pull token (HTTP ${tr.res.status})`)
      }
      const doc = (await json(tr)) as { token?: string; access_token?: string }
      token = doc.token ?? doc.access_token ?? null
      if (!token) throw new Error(`${hostOf(t.href)} answered without a token`)
      answer = await get(url, accept)
    }
    if (!answer.res.ok) {
      await discard(answer)
      throw new Error(`${url} answered HTTP ${answer.res.status}`)
    }
    return json(answer)
  }
  type Manifest = {
    manifests?: { digest: string; platform?: { os?: string; architecture?: string } }[]
    config?: { digest: string }
    annotations?: Record<string, string>
  }
  try {
    const reference = ref.digest ?? ref.tag ?? 'latest'
    let m = (await read(`${base}/v2/${path}/manifests/${reference}`, ACCEPT)) as Manifest
    if (m.annotations?.[SOURCE_LABEL]) return { source: m.annotations[SOURCE_LABEL] }
    if (Array.isArray(m.manifests)) {
      const pick =
        m.manifests.find((x) => x.platform?.os === 'linux' && x.platform.architecture === 'amd64') ?? m.manifests[0]
      if (!pick) return { why: 'its image index lists no image' }
      m = (await read(`${base}/v2/${path}/manifests/${pick.digest}`, ACCEPT)) as Manifest
      if (m.annotations?.[SOURCE_LABEL]) return { source: m.annotations[SOURCE_LABEL] }
    }
    if (!m.config?.digest) return { why: 'its manifest names no image configuration' }
    const config = (await read(`${base}/v2/${path}/blobs/${m.config.digest}`, '*/*')) as {
      config?: { Labels?: Record<string, string> | null }
    }
    const source = config.config?.Labels?.[SOURCE_LABEL]
    return source ? { source } : { why: `the image has no ${SOURCE_LABEL} label` }
  } catch (e) {
    return { why: `its registry could not be read: ${(e as Error).message}` }
  }
}
