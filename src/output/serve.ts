// Local preview with GitHub Pages semantics, on sirv (a maintained static
// server): index.html for a directory, a redirect from /dir to /dir/,
// 404.html with status 404, and content types by extension. A redirect never
// leaves the site: a path that starts with `//` (or `/\`, which browsers read the
// same way) answers 404, and the Location is rebuilt from the file found under
// the root, so nothing of the request's own spelling can name another host. A symbolic link that
// resolves outside the root answers 404, as Pages serves no such link: the preview never hands out
// a file of the machine (`ln -s /etc/passwd site/x`).
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import sirv from 'sirv'

/** `root` through every link on its way, or null when it cannot be resolved (then nothing is inside it). */
function realRootOf(root: string): string | null {
  try {
    return realpathSync(root)
  } catch {
    return null
  }
}

/** Whether `abs` (which exists) resolves, through every link on its way, to a place inside `realRoot`. */
function staysInside(realRoot: string | null, abs: string): boolean {
  if (realRoot === null) return false
  try {
    const real = realpathSync(abs)
    return real === realRoot || real.startsWith(realRoot + path.sep)
  } catch {
    return false
  }
}

/**
 * The file sirv (dev mode, extensions ['html']) would send for `url`, found the way sirv finds it:
 * the path up to `?` or `#`, decodeURI'd, then `x`, `x/index`, `x.html`, `x/index.html`, the first
 * that exists and is not a folder. Null when none does.
 *
 * Mirrors sirv 3's internals (node_modules/sirv/build.mjs), which it does not export: the request
 * handler's pathname (@polka/url's `parse(req).pathname`, then `decodeURI` when it holds `%`),
 * `toAssume` (the candidate names) and `viaLocal` (the dev-mode lookup: `normalize(join(dir, name))`,
 * kept under `dir + sep`, folders skipped). A sirv upgrade that changes these must change this too.
 */
function sirvFile(root: string, url: string): string | null {
  let pathname = url
  for (const mark of ['#', '?']) {
    const at = pathname.indexOf(mark, 1)
    if (at !== -1) pathname = pathname.slice(0, at)
  }
  if (pathname.includes('%')) {
    try {
      pathname = decodeURI(pathname)
    } catch {
      // sirv keeps a malformed path as it is
    }
  }
  const uri = pathname.endsWith('/') ? pathname.slice(0, -1) : pathname
  const names: string[] = []
  for (const x of ['', '.html']) {
    if (uri) names.push(uri + x)
    names.push(`${uri}/index${x}`)
  }
  for (const name of names) {
    const abs = path.normalize(path.join(root, name))
    if (!abs.startsWith(root + path.sep)) continue
    try {
      if (!statSync(abs).isDirectory()) return abs
    } catch {
      // not there: the next name
    }
  }
  return null
}

export function createSiteHandler(dir: string): http.RequestListener {
  const root = path.resolve(dir)
  // dev: re-read the tree on every request, so a rebuild (directory swap) shows at once.
  const files = sirv(root, {
    dev: true,
    dotfiles: false,
    extensions: ['html'],
    setHeaders: (res, pathname) => {
      if (pathname.endsWith('.xml')) res.setHeader('Content-Type', 'application/xml; charset=utf-8')
    }
  })
  const page = path.join(root, '404.html')
  return (req, res) => {
    // The root's real path, resolved at most once per request: a rebuild may swap what `dir` names.
    let realRoot: string | null | undefined
    const inside = (abs: string) => {
      if (realRoot === undefined) realRoot = realRootOf(root)
      return staysInside(realRoot, abs)
    }
    const notFound = () => {
      res.statusCode = 404
      res.setHeader('Content-Type', 'text/html; charset=utf-8')
      res.end(existsSync(page) && inside(page) ? readFileSync(page) : 'Not found\n')
    }
    res.setHeader('Access-Control-Allow-Origin', '*')
    const raw = req.url ?? '/'
    // An absolute-form or `//host` request target would make the URL parser take the host from the request.
    if (!raw.startsWith('/') || /^[/\\]{2}/.test(raw)) return notFound()
    const url = new URL(raw, 'http://localhost')
    if (url.host !== 'localhost') return notFound()
    let pathname: string
    try {
      pathname = decodeURIComponent(url.pathname)
    } catch {
      return notFound()
    }
    // `//host` and `/\host` are network-path references (also after `.` segments are removed or %2F decoded).
    if (/^[/\\]{2}/.test(url.pathname) || /^[/\\]{2}/.test(pathname) || pathname.includes('\\')) return notFound()
    if (!pathname.endsWith('/')) {
      const full = path.join(root, pathname)
      // Pages answers /apps/x with a redirect to /apps/x/ when x is a directory.
      if (full.startsWith(root + path.sep) && existsSync(full) && statSync(full).isDirectory() && inside(full)) {
        const local = path.relative(root, full).split(path.sep).map(encodeURIComponent).join('/')
        res.writeHead(301, { Location: `/${local}/${url.search}` })
        return res.end()
      }
    }
    const file = sirvFile(root, raw)
    if (file !== null && !inside(file)) return notFound()
    files(req, res, () => notFound())
  }
}

export async function serveSite(opts: {
  dir: string
  port: number
  host?: string
}): Promise<{ server: http.Server; url: string }> {
  if (!existsSync(path.join(opts.dir, 'index.html')))
    throw new Error(`${opts.dir} holds no index.html; build the site first`)
  const server = http.createServer(createSiteHandler(opts.dir))
  const host = opts.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, host, () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : opts.port
  const shown = host === '127.0.0.1' || host === '::1' ? 'localhost' : host
  return { server, url: `http://${shown}:${port}/` }
}
