// Docker Compose files, read for one thing: each service's image and the line it is on, as Compose
// itself would see it. A service takes its keys from merge keys (`<<: *fragment`, YAML's and the
// Compose documentation's way to share fragments), from `extends:` (in the same file or another one)
// and from the files a top-level `include:` names; `${VAR}`, `${VAR:-default}`, `${VAR-default}` and
// `$$` are interpolated from the environment `check` was given. Whatever cannot be read that way is a
// bad input named by file and line, never a service "built from source": `check` judges only what it read.
import path from 'node:path'
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type Document,
  type Node as YamlNode,
  type YAMLMap
} from 'yaml'
import { formatProblem, ProblemsError, type Problem } from '../util/problems.js'
import { readRegularText } from '../util/regular-file.js'
import { interpolate } from './interpolate.js'

export interface ComposeService {
  /** The Compose file that defines the service (a file `include:` names, for its services). */
  file: string
  service: string
  /** The line of the image as written in `file`, or of the service's name when the image comes from elsewhere. */
  line: number
  /** The image reference after interpolation, or null for a service built from source (`build:` only). */
  image: string | null
}

export interface ComposeDeps {
  /** The variables `${VAR}` reads: the environment `check` runs in, passed in. */
  env?: Readonly<Record<string, string | undefined>>
}

/** Compose files are small; a megabyte is far past any real one. */
const MAX_BYTES = 1024 * 1024
/** Files one `check` reads through `extends:` and `include:`, and links in one `extends:` chain. */
const MAX_FILES = 64
const MAX_CHAIN = 32

const bad = (problems: Problem[]) => new ProblemsError('bad-input', problems, problems.map((p) => p.message).join('; '))

/** A Compose file named on the command line, or by `extends: {file}` or `include:`; at most MAX_BYTES. */
function readComposeText(file: string): string {
  const read = readRegularText(file, MAX_BYTES, { followLinks: true })
  if ('problem' in read) throw bad([{ file, message: read.problem }])
  return read.text
}

interface Parsed {
  file: string
  doc: Document
  lc: LineCounter
  /** The merged value of the whole file (merge keys applied by the yaml package). */
  js: Record<string, unknown>
  services: YAMLMap
  /** The node each alias stands for, found in one pass (yaml's Alias.resolve walks the whole document each time). */
  aliases: Map<YamlNode, YamlNode | undefined>
  /** The services' pairs by name, made on first use. */
  byName?: Map<string, YAMLMap['items'][number]>
}

interface Resolved {
  image: { value: string; file: string; line: number } | null
  build: boolean
}

/** Why `raw` could not be interpolated, quoting its start. */
const notInterpolated = (raw: string, problem: string) => `${JSON.stringify(raw.slice(0, 120))}: ${problem}`

/** Raised inside a resolution; collected into the file's problems. */
class Bad extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message)
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Reads one Compose file (and what it extends or includes) into its services, in the file's order. */
export function readComposeFile(file: string, deps: ComposeDeps = {}): ComposeService[] {
  return readCompose(file, readComposeText(file), deps)
}

/** The services of one Compose file given its text, in the file's order; then those of the files it includes. */
export function readCompose(file: string, text: string, deps: ComposeDeps = {}): ComposeService[] {
  const env = deps.env ?? {}
  const files = new Map<string, Parsed>()
  const load = (name: string, from: Omit<Problem, 'message'>): Parsed => {
    const cached = files.get(path.resolve(name))
    if (cached) return cached
    if (files.size >= MAX_FILES)
      throw new Bad({ ...from, message: `reads more than ${MAX_FILES} Compose files through extends: and include:` })
    // A file that cannot be read, or is no Compose file, is a problem of the place that names it:
    // walk collects it with the others.
    let parsed: Parsed
    try {
      parsed = parse(name, readComposeText(name))
    } catch (e) {
      if (e instanceof ProblemsError) {
        const first = e.problems[0]
        throw new Bad({ ...from, message: first ? formatProblem(first) : `${name}: ${e.message}` })
      }
      throw e
    }
    files.set(path.resolve(name), parsed)
    return parsed
  }
  const top = parse(file, text)
  files.set(path.resolve(file), top)

  const out: ComposeService[] = []
  const problems: Problem[] = []
  const seenIncludes = new Set<string>([path.resolve(file)])
  const walk = (p: Parsed) => {
    for (const pair of p.services.items) {
      const name = isScalar(pair.key) ? String(pair.key.value) : '?'
      const line = lineOf(p, pair.key as YamlNode)
      try {
        const r = resolve(p, name, [], { env, load })
        if (r.image === null && !r.build)
          throw new Bad({
            file: p.file,
            line,
            field: `services.${name}`,
            message:
              'has neither image: nor build: (after merge keys and extends:), so Compose cannot run it and check cannot place it'
          })
        out.push(
          r.image === null
            ? { file: p.file, service: name, line, image: null }
            : { file: p.file, service: name, line: r.image.file === p.file ? r.image.line : line, image: r.image.value }
        )
      } catch (e) {
        if (!(e instanceof Bad)) throw e
        problems.push(e.problem)
      }
    }
    for (const inc of includes(p, env)) {
      try {
        if ('problem' in inc) throw new Bad(inc.problem)
        const target = beside(p.file, inc.path)
        if (seenIncludes.has(path.resolve(target))) continue
        seenIncludes.add(path.resolve(target))
        walk(load(target, { file: p.file, line: inc.line, field: 'include' }))
      } catch (e) {
        if (!(e instanceof Bad)) throw e
        problems.push(e.problem)
      }
    }
  }
  walk(top)
  if (problems.length > 0) throw bad(problems)
  return out
}

/** A path a Compose file names, relative to that file's folder unless absolute. */
const beside = (file: string, name: string) => (path.isAbsolute(name) ? name : path.join(path.dirname(file), name))

const lineOf = (p: Parsed, node: YamlNode | null | undefined) => p.lc.linePos(node?.range?.[0] ?? 0).line

function parse(file: string, text: string): Parsed {
  const lc = new LineCounter()
  // merge: Compose files are YAML 1.2 documents that still use YAML 1.1's `<<` merge key.
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true, merge: true })
  const at = (node: YamlNode | null | undefined) => lc.linePos(node?.range?.[0] ?? 0).line
  if (doc.errors.length > 0) {
    throw bad(
      doc.errors.map((e) => {
        const pos = lc.linePos(e.pos[0])
        // The library's own hint for several documents names its API, not what to do with the file.
        const message =
          e.code === 'MULTIPLE_DOCS'
            ? 'holds more than one YAML document (a "---" line): a Compose file is one document; split it into files, or read Kubernetes manifests with --manifest'
            : `is not YAML: ${e.message.split('\n')[0]}`
        return { file, line: pos.line, column: pos.col, message }
      })
    )
  }
  const root = doc.contents
  if (!isMap(root))
    throw bad([{ file, line: at(root), message: 'is not a Compose file: its top level is not a mapping' }])
  let js: unknown
  try {
    // maxAliasCount keeps an alias bomb (a billion laughs) from growing without bound.
    js = doc.toJS({ maxAliasCount: 10_000 })
  } catch (e) {
    throw bad([
      { file, line: 1, message: `cannot be read as Compose reads it: ${(e as Error).message.split('\n')[0]}` }
    ])
  }
  const aliases = aliasTargets(doc)
  const node = root.get('services', true)
  const services = isAlias(node) ? aliases.get(node) : node
  const jsServices = isRecord(js) ? js.services : undefined
  if (!isMap(services) || !isRecord(jsServices) || Object.keys(jsServices).length === 0) {
    // A file that only includes others may have no services of its own.
    if (root.has('include'))
      return { file, doc, lc, js: js as Record<string, unknown>, services: doc.createNode({}), aliases }
    throw bad([
      {
        file,
        line: at(node ?? root),
        // A Kubernetes object or a Flux HelmRelease given to --compose by mistake: say which flag reads it.
        message: `has no services: a Compose file lists them under "services:"${root.has('apiVersion') || root.has('kind') ? '; this looks like a Kubernetes or Helm file: read it with --manifest' : ''}`
      }
    ])
  }
  return { file, doc, lc, js: js as Record<string, unknown>, services, aliases }
}

/** Each alias of the document and the node it stands for: the last node before it with that anchor. */
function aliasTargets(doc: Document): Map<YamlNode, YamlNode | undefined> {
  const anchors = new Map<string, YamlNode>()
  const out = new Map<YamlNode, YamlNode | undefined>()
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) out.set(node, anchors.get(node.source))
      else if (node.anchor) anchors.set(node.anchor, node)
    }
  })
  return out
}

const resolved = (p: Parsed, node: unknown) => (isAlias(node) ? p.aliases.get(node) : node)

/** The node of `key` in a service's mapping: its own, else the first merge source (in order) that has it. */
function locate(p: Parsed, map: YAMLMap, key: string, depth = 0): YamlNode | null {
  if (depth > MAX_CHAIN) return null
  for (const pair of map.items) if (isScalar(pair.key) && pair.key.value === key) return pair.value as YamlNode
  for (const pair of map.items) {
    const k = pair.key
    if (!isScalar(k) || typeof k.value !== 'symbol') continue // a merge key is a Symbol('<<') when merge is on
    const sources = isSeq(pair.value) ? pair.value.items : [pair.value]
    for (const s of sources) {
      const m = resolved(p, s)
      if (!isMap(m)) continue
      const found = locate(p, m, key, depth + 1)
      if (found) return found
    }
  }
  return null
}

interface Context {
  env: Readonly<Record<string, string | undefined>>
  load: (file: string, from: Omit<Problem, 'message'>) => Parsed
}

/** A service's image and build after merge keys, `extends:` and interpolation. */
function resolve(p: Parsed, name: string, chain: string[], ctx: Context): Resolved {
  const id = `${path.resolve(p.file)}\0${name}`
  const services = p.js.services as Record<string, unknown>
  p.byName ??= new Map(p.services.items.map((i) => [isScalar(i.key) ? String(i.key.value) : '?', i]))
  const pair = p.byName.get(name)
  const keyLine = lineOf(p, pair?.key as YamlNode)
  const where = { file: p.file, line: keyLine, field: `services.${name}` }
  if (chain.includes(id)) throw new Bad({ ...where, message: 'extends itself (an extends: cycle)' })
  if (chain.length >= MAX_CHAIN) throw new Bad({ ...where, message: `extends: goes more than ${MAX_CHAIN} deep` })
  const svc = services[name]
  const node = pair?.value
  const map = resolved(p, node)
  if (!isRecord(svc) || !isMap(map)) throw new Bad({ ...where, message: 'is not a mapping' })

  let image: Resolved['image'] = null
  if (svc.image !== undefined && svc.image !== null) {
    const imageNode = locate(p, map, 'image')
    const line = imageNode ? lineOf(p, imageNode) : keyLine
    if (typeof svc.image !== 'string')
      throw new Bad({ file: p.file, line, field: `${where.field}.image`, message: 'is not a string' })
    const v = interpolate(svc.image, ctx.env)
    if ('problem' in v)
      throw new Bad({
        file: p.file,
        line,
        field: `${where.field}.image`,
        message: notInterpolated(svc.image, v.problem)
      })
    image = { value: v.value, file: p.file, line }
  }
  let build = svc.build !== undefined && svc.build !== null
  if (svc.extends === undefined || svc.extends === null) return { image, build }

  // `extends: name` or `extends: {service, file}`; the file is relative to the file that says it.
  const ext = svc.extends
  const extNode = locate(p, map, 'extends')
  const extWhere = { file: p.file, line: extNode ? lineOf(p, extNode) : keyLine, field: `${where.field}.extends` }
  const field = (v: unknown, what: string): string => {
    if (typeof v !== 'string' || v === '') throw new Bad({ ...extWhere, message: `${what} is not a name` })
    const r = interpolate(v, ctx.env)
    if ('problem' in r) throw new Bad({ ...extWhere, message: notInterpolated(v, r.problem) })
    return r.value
  }
  let baseName: string
  let base: Parsed = p
  if (typeof ext === 'string') baseName = field(ext, 'the service it extends')
  else if (isRecord(ext)) {
    baseName = field(ext.service, 'extends.service')
    if (ext.file !== undefined && ext.file !== null) {
      const other = field(ext.file, 'extends.file')
      base = ctx.load(beside(p.file, other), extWhere)
    }
  } else throw new Bad({ ...extWhere, message: 'is neither a service name nor {service, file}' })
  if (!(baseName in (base.js.services as Record<string, unknown>)))
    throw new Bad({ ...extWhere, message: `names no service "${baseName}" in ${base.file}` })
  const inherited = resolve(base, baseName, [...chain, id], ctx)
  build ||= inherited.build
  return { image: image ?? inherited.image, build }
}

type Include = { path: string; line: number } | { problem: Problem }

/** The local files a top-level `include:` names (a path, or `{path: one or more}`), relative to the file. */
function includes(p: Parsed, env: Readonly<Record<string, string | undefined>>): Include[] {
  const inc = p.js.include
  if (inc === undefined || inc === null) return []
  const root = p.doc.contents as YAMLMap
  const node = root.get('include', true) as YamlNode | undefined
  const line = lineOf(p, node)
  const at = { file: p.file, line, field: 'include' }
  if (!Array.isArray(inc)) return [{ problem: { ...at, message: 'is not a list' } }]
  const out: Include[] = []
  const seq = isSeq(node) ? node.items : []
  inc.forEach((entry, i) => {
    const entryLine = lineOf(p, seq[i] as YamlNode | undefined) || line
    const paths: unknown[] = typeof entry === 'string' ? [entry] : isRecord(entry) ? [entry.path].flat() : [undefined]
    for (const raw of paths) {
      const here = { file: p.file, line: entryLine, field: `include.${i}` }
      if (typeof raw !== 'string' || raw === '') {
        out.push({ problem: { ...here, message: 'names no file (a path, or {path: ...})' } })
        continue
      }
      const v = interpolate(raw, env)
      if ('problem' in v) out.push({ problem: { ...here, message: notInterpolated(raw, v.problem) } })
      else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v.value) || v.value.startsWith('oci:') || v.value.startsWith('git@'))
        out.push({
          problem: {
            ...here,
            message: `names a remote file (${JSON.stringify(v.value.slice(0, 120))}), which check does not fetch`
          }
        })
      else out.push({ path: v.value, line: entryLine })
    }
  })
  return out
}
