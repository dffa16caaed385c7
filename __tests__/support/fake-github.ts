// A local stand-in for GitHub on 127.0.0.1 (port 0), for the refresh tests and
// bench/refresh.mjs. GraphQL: every query is validated against GitHub's published
// schema (@octokit/graphql-schema) and executed against that schema with resolvers
// over an in-memory model, so aliases, fragments and variables behave as on GitHub.
// REST: bodies are GitHub's OpenAPI examples with per-repository fields replaced.
// Knobs: latency, injected faults, renamed/archived/hidden repositories, drafts,
// prereleases, tag-only repositories, a GraphQL rate limit, request counters.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { schema as githubSchema, validate as validateAgainstGitHub } from '@octokit/graphql-schema'
// `graphql` comes in with @octokit/graphql-schema (the same copy its validate() uses).
import {
  buildClientSchema,
  execute,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode
} from 'graphql'
import { readSharedJsonl, RELEASE_NOTES } from './shared-data.js'
import restRelease from '../fixtures/github/rest-release.json' with { type: 'json' }
import restRepository from '../fixtures/github/rest-full-repository.json' with { type: 'json' }
import restTagItems from '../fixtures/github/rest-tag-items.json' with { type: 'json' }

export interface FakeRelease {
  tagName: string
  name?: string
  body?: string
  draft?: boolean
  prerelease?: boolean
  /** ISO timestamp. Releases are listed newest first by this. */
  createdAt: string
  /** ISO timestamp; null for drafts. Defaults to createdAt for published releases. */
  publishedAt?: string | null
}

export interface FakeTag {
  name: string
  /** ISO timestamp of the tagged commit. */
  date: string
  /** An annotated tag object rather than a lightweight tag. */
  annotated?: boolean
}

export interface FakeRepo {
  owner: string
  name: string
  archived?: boolean
  disabled?: boolean
  /** Exists, but the token cannot see it: GitHub then answers NOT_FOUND / 404. */
  hidden?: boolean
  /** Protected (e.g. SAML): GraphQL FORBIDDEN, REST 403. */
  forbidden?: boolean
  releases?: FakeRelease[]
  /** Tags without a release; every published release's tag is a tag too. */
  tags?: FakeTag[]
  /** GraphQL fails to resolve this repository this many times (an error on its alias) before it answers. */
  flaky?: number
  /** Any GraphQL query that names this repository times out (GitHub's "Something went wrong"); REST still answers. */
  graphqlTimeout?: boolean
  /** Every answer that holds this repository (a GraphQL batch, its REST releases) arrives cut off: unparsable JSON. */
  brokenAnswer?: boolean
}

export type Fault =
  | { kind: 'status'; status: 500 | 502 | 503; retryAfter?: number }
  | { kind: 'secondary'; retryAfter: number; status?: 403 | 429 }
  | { kind: 'primary'; resetInSeconds: number }
  | { kind: 'reset' }

export interface FakeRequestInfo {
  /** 1-based index over all requests. */
  n: number
  api: 'graphql' | 'rest'
  method: string
  path: string
}

export interface FakeGitHubOptions {
  repos?: FakeRepo[]
  /** Old `owner/name` → current `owner/name` (GitHub follows these). */
  renames?: Record<string, string>
  /** Delay before every answer, in ms. */
  latencyMs?: number
  /** Decide a fault for a request, or null to answer normally. */
  fault?: (info: FakeRequestInfo) => Fault | null
  /** GraphQL budget. Default limit 5000, remaining 5000. */
  rateLimit?: { limit?: number; remaining?: number; resetAt?: Date }
  /** REST prefix, e.g. '/api/v3' for a GHES-like layout. Default ''. */
  restPrefix?: string
  /** GraphQL path. Default '/graphql'. */
  graphqlPath?: string
  /** When set, requests must send `authorization: token <token>` (what getOctokit sends). */
  token?: string
  /** A careless upstream: the 401 for a wrong token quotes the Authorization header it was sent. */
  echoAuthorization?: boolean
  /** A stalled upstream: connections are accepted and requests read, and no answer ever comes. */
  frozen?: boolean
}

export interface FakeRequestRecord extends FakeRequestInfo {
  status: number
  at: number
  fault: Fault['kind'] | null
}

export interface FakeGitHub {
  origin: string
  apiUrl: string
  graphqlUrl: string
  counts: { total: number; graphql: number; rest: number; faults: number }
  /** Every GraphQL query text received, in order. */
  queries: string[]
  /** Schema validation messages of queries that failed validation (should stay empty). */
  invalid: string[]
  requests: FakeRequestRecord[]
  rateLimit: { limit: number; remaining: number; resetAt: Date; used: number }
  close(): Promise<void>
}

const HTML = 'https://github.com'

// --- schema ----------------------------------------------------------------

let builtSchema: GraphQLSchema | null = null
function gitHubSchema(): GraphQLSchema {
  // schema.json is `{ __schema: ... }` without a `data` wrapper.
  builtSchema ??= buildClientSchema(githubSchema.json as Parameters<typeof buildClientSchema>[0])
  return builtSchema
}

/** An answer sent cut in half (declared as JSON, unparsable). */
class CutOff {
  constructor(readonly value: unknown) {}
}

class GitHubError extends Error {
  constructor(
    readonly type: string | undefined,
    message: string
  ) {
    super(message)
  }
}

// --- model -----------------------------------------------------------------

interface Model {
  repos: Map<string, FakeRepo & { id: number }>
  renames: Map<string, string>
}

function key(nwo: string): string {
  return nwo.toLowerCase()
}

function nwoOf(r: FakeRepo): string {
  return `${r.owner}/${r.name}`
}

function lookup(model: Model, owner: string, name: string, followRenames = true) {
  const k = key(`${owner}/${name}`)
  const direct = model.repos.get(k)
  if (direct) return direct
  const to = model.renames.get(k)
  if (to && followRenames) return model.repos.get(key(to))
  return undefined
}

function releasesOf(r: FakeRepo): FakeRelease[] {
  return [...(r.releases ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

function tagsOf(r: FakeRepo): FakeTag[] {
  const tags = new Map<string, FakeTag>()
  for (const rel of r.releases ?? []) {
    if (!rel.draft) tags.set(rel.tagName, { name: rel.tagName, date: rel.createdAt })
  }
  for (const t of r.tags ?? []) tags.set(t.name, t)
  return [...tags.values()]
}

function published(rel: FakeRelease): string | null {
  if (rel.draft) return null
  return rel.publishedAt === undefined ? rel.createdAt : rel.publishedAt
}

function connection<T>(all: T[], args: { first?: number | null; last?: number | null; after?: string | null }) {
  const start = args.after ? Number(Buffer.from(args.after, 'base64').toString().split(':')[1]) + 1 : 0
  const count = args.first ?? args.last ?? 0
  const slice = all.slice(start, start + count)
  const cursor = (i: number) => Buffer.from(`cursor:${start + i}`).toString('base64')
  return {
    totalCount: all.length,
    nodes: slice,
    edges: slice.map((node, i) => ({ cursor: cursor(i), node })),
    pageInfo: {
      hasNextPage: start + slice.length < all.length,
      hasPreviousPage: start > 0,
      startCursor: slice.length ? cursor(0) : null,
      endCursor: slice.length ? cursor(slice.length - 1) : null
    }
  }
}

function releaseNode(repo: FakeRepo, rel: FakeRelease, latestTag: string | null) {
  return {
    __typename: 'Release',
    id: Buffer.from(`Release:${nwoOf(repo)}:${rel.tagName}`).toString('base64'),
    tagName: rel.tagName,
    name: rel.name ?? rel.tagName,
    url: `${HTML}/${nwoOf(repo)}/releases/tag/${rel.tagName}`,
    isDraft: Boolean(rel.draft),
    isPrerelease: Boolean(rel.prerelease),
    isLatest: rel.tagName === latestTag,
    createdAt: rel.createdAt,
    publishedAt: published(rel),
    description: rel.body ?? null
  }
}

function repositoryNode(repo: FakeRepo & { id: number }) {
  const releases = releasesOf(repo)
  const latest = releases.find((r) => !r.draft && !r.prerelease) ?? null
  const latestTag = latest?.tagName ?? null
  return {
    __typename: 'Repository',
    id: Buffer.from(`Repository:${repo.id}`).toString('base64'),
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: nwoOf(repo),
    owner: { __typename: 'Organization', login: repo.owner },
    url: `${HTML}/${nwoOf(repo)}`,
    isArchived: Boolean(repo.archived),
    isDisabled: Boolean(repo.disabled),
    isPrivate: false,
    latestRelease: latest ? releaseNode(repo, latest, latestTag) : null,
    release: (args: { tagName: string }) => {
      const rel = releases.find((r) => r.tagName === args.tagName)
      return rel ? releaseNode(repo, rel, latestTag) : null
    },
    releases: (args: {
      first?: number
      last?: number
      after?: string
      orderBy?: { field: string; direction: string }
    }) => {
      let list = releases
      if (args.orderBy?.field === 'NAME') list = [...list].sort((a, b) => b.tagName.localeCompare(a.tagName))
      if (args.orderBy?.direction === 'ASC') list = [...list].reverse()
      return connection(
        list.map((r) => releaseNode(repo, r, latestTag)),
        args
      )
    },
    refs: (args: {
      refPrefix: string
      first?: number
      last?: number
      after?: string
      orderBy?: { field: string; direction: string }
    }) => {
      if (args.refPrefix !== 'refs/tags/') return connection([], args)
      let list = tagsOf(repo)
      if (args.orderBy?.field === 'ALPHABETICAL') list.sort((a, b) => a.name.localeCompare(b.name))
      else list.sort((a, b) => a.date.localeCompare(b.date))
      if ((args.orderBy?.direction ?? 'ASC') === 'DESC') list = list.reverse()
      return connection(
        list.map((t) => {
          const commit = { __typename: 'Commit', oid: '0'.repeat(40), committedDate: t.date }
          return {
            __typename: 'Ref',
            name: t.name,
            prefix: 'refs/tags/',
            target: t.annotated ? { __typename: 'Tag', name: t.name, tagger: { date: t.date }, target: commit } : commit
          }
        }),
        args
      )
    }
  }
}

// --- cost, like GitHub: one request per connection per parent node, /100, min 1 --

interface CostResult {
  requests: number
  nodes: number
  errors: string[]
}

function costOf(schema: GraphQLSchema, doc: DocumentNode, variables: Record<string, unknown>): CostResult {
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d)
  const acc: CostResult = { requests: 0, nodes: 0, errors: [] }
  const intOf = (v: ValueNode | undefined): number | null => {
    if (!v) return null
    if (v.kind === Kind.INT) return Number(v.value)
    if (v.kind === Kind.VARIABLE) {
      const x = variables[v.name.value]
      return typeof x === 'number' ? x : null
    }
    return null
  }
  const walk = (set: SelectionSetNode, parent: GraphQLNamedType, mult: number): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__') || !(isObjectType(parent) || isInterfaceType(parent))) continue
        const def = parent.getFields()[sel.name.value]
        if (!def) continue
        const type = getNamedType(def.type)
        let childMult = mult
        if (type.name.endsWith('Connection')) {
          const arg = (n: string) => intOf(sel.arguments?.find((a) => a.name.value === n)?.value)
          const n = arg('first') ?? arg('last')
          if (n === null)
            acc.errors.push(
              `You must provide a \`first\` or \`last\` value to properly paginate the \`${sel.name.value}\` connection.`
            )
          else if (n > 100)
            acc.errors.push(
              `Requesting ${n} records on the \`${sel.name.value}\` connection exceeds the \`first\` limit of 100 records.`
            )
          acc.requests += mult
          childMult = mult * (n ?? 0)
          acc.nodes += childMult
        }
        if (sel.selectionSet) walk(sel.selectionSet, type, childMult)
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent
        if (t) walk(sel.selectionSet, t, mult)
      } else {
        const f = fragments.get(sel.name.value)
        const t = f ? schema.getType(f.typeCondition.name.value) : undefined
        if (f && t) walk(f.selectionSet, t, mult)
      }
    }
  }
  const query = schema.getQueryType()!
  for (const d of doc.definitions) if (d.kind === Kind.OPERATION_DEFINITION) walk(d.selectionSet, query, 1)
  if (acc.nodes > 500_000)
    acc.errors.push(`This query requests up to ${acc.nodes} possible nodes which exceeds the maximum limit of 500,000.`)
  return acc
}

// --- REST shapes (OpenAPI examples with per-repository fields replaced) ------

function restRepo(r: FakeRepo & { id: number }, api: string) {
  const nwo = nwoOf(r)
  const body = JSON.parse(
    JSON.stringify(restRepository).replaceAll('octocat/Hello-World', nwo).replaceAll('https://api.github.com', api)
  )
  return {
    ...body,
    id: r.id,
    name: r.name,
    full_name: nwo,
    owner: { ...body.owner, login: r.owner },
    html_url: `${HTML}/${nwo}`,
    archived: Boolean(r.archived),
    disabled: Boolean(r.disabled)
  }
}

function restReleaseOf(r: FakeRepo, rel: FakeRelease, id: number, api: string) {
  const nwo = nwoOf(r)
  const body = JSON.parse(
    JSON.stringify(restRelease).replaceAll('octocat/Hello-World', nwo).replaceAll('https://api.github.com', api)
  )
  return {
    ...body,
    id,
    url: `${api}/repos/${nwo}/releases/${id}`,
    html_url: `${HTML}/${nwo}/releases/tag/${rel.tagName}`,
    tarball_url: `${api}/repos/${nwo}/tarball/${rel.tagName}`,
    zipball_url: `${api}/repos/${nwo}/zipball/${rel.tagName}`,
    tag_name: rel.tagName,
    name: rel.name ?? rel.tagName,
    body: rel.body ?? null,
    draft: Boolean(rel.draft),
    prerelease: Boolean(rel.prerelease),
    created_at: rel.createdAt,
    published_at: published(rel),
    assets: []
  }
}

function restTagOf(r: FakeRepo, t: FakeTag) {
  const nwo = nwoOf(r)
  const template = restTagItems[0]!
  return {
    ...template,
    name: t.name,
    zipball_url: `${HTML}/${nwo}/zipball/${t.name}`,
    tarball_url: `${HTML}/${nwo}/tarball/${t.name}`
  }
}

// --- faults ----------------------------------------------------------------

/** Deterministic faults: each request fails with probability `rate`, kinds drawn from `kinds`. */
export function randomFaults(
  rate: number,
  seed = 1,
  kinds: Fault[] = [
    { kind: 'status', status: 502 },
    { kind: 'status', status: 500 },
    { kind: 'secondary', retryAfter: 1 },
    { kind: 'reset' }
  ]
): (info: FakeRequestInfo) => Fault | null {
  let s = seed >>> 0
  const next = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return () => {
    const hit = next() < rate
    const pick = next()
    return hit ? kinds[Math.floor(pick * kinds.length)]! : null
  }
}

// --- server ----------------------------------------------------------------

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const schema = gitHubSchema()
  const model: Model = { repos: new Map(), renames: new Map() }
  let id = 1000
  for (const r of options.repos ?? []) model.repos.set(key(nwoOf(r)), { ...r, id: id++ })
  for (const [from, to] of Object.entries(options.renames ?? {})) model.renames.set(key(from), to)
  const flaky = new Map<string, number>()
  for (const r of options.repos ?? []) if (r.flaky) flaky.set(key(nwoOf(r)), r.flaky)

  const restPrefix = options.restPrefix ?? ''
  const graphqlPath = options.graphqlPath ?? '/graphql'
  const resetAt = options.rateLimit?.resetAt ?? new Date(Date.now() + 3600_000)
  const fake: Omit<FakeGitHub, 'origin' | 'apiUrl' | 'graphqlUrl' | 'close'> = {
    counts: { total: 0, graphql: 0, rest: 0, faults: 0 },
    queries: [],
    invalid: [],
    requests: [],
    rateLimit: {
      limit: options.rateLimit?.limit ?? 5000,
      remaining: options.rateLimit?.remaining ?? options.rateLimit?.limit ?? 5000,
      resetAt,
      used: 0
    }
  }
  let origin = ''

  const rateHeaders = (resource: string): Record<string, string> => ({
    'x-ratelimit-limit': String(fake.rateLimit.limit),
    'x-ratelimit-remaining': String(fake.rateLimit.remaining),
    'x-ratelimit-used': String(fake.rateLimit.used),
    'x-ratelimit-reset': String(Math.floor(fake.rateLimit.resetAt.getTime() / 1000)),
    'x-ratelimit-resource': resource
  })

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const cut = body instanceof CutOff
    const full = cut ? JSON.stringify(body.value) : typeof body === 'string' ? body : JSON.stringify(body)
    const text = cut ? full.slice(0, Math.floor(full.length / 2)) : full
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      ...headers
    })
    res.end(text)
  }

  const answerGraphQL = (raw: string): { status: number; body: unknown; headers: Record<string, string> } => {
    const headers = rateHeaders('graphql')
    let payload: { query?: unknown; variables?: unknown }
    try {
      payload = JSON.parse(raw)
    } catch {
      return { status: 400, body: { message: 'Problems parsing JSON' }, headers }
    }
    const query = typeof payload.query === 'string' ? payload.query : ''
    const variables = (payload.variables && typeof payload.variables === 'object' ? payload.variables : {}) as Record<
      string,
      unknown
    >
    fake.queries.push(query)
    const problems = validateAgainstGitHub(query)
    if (problems.length > 0) {
      fake.invalid.push(...problems.map((p) => p.message))
      return {
        status: 200,
        body: { errors: problems.map((p) => ({ message: p.message, locations: p.locations })) },
        headers
      }
    }
    const doc = parse(query)
    const cost = costOf(schema, doc, variables)
    if (cost.errors.length > 0)
      return { status: 200, body: { errors: cost.errors.map((message) => ({ message })) }, headers }
    const points = Math.max(1, Math.round(cost.requests / 100))
    if (fake.rateLimit.remaining < points) {
      return {
        status: 200,
        body: { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit already exceeded for user ID 1.' }] },
        headers: { ...headers, 'x-ratelimit-remaining': '0' }
      }
    }
    fake.rateLimit.remaining -= points
    fake.rateLimit.used += points
    let timedOut = false
    let broken = false
    const rootValue = {
      rateLimit: () => ({
        cost: points,
        limit: fake.rateLimit.limit,
        remaining: fake.rateLimit.remaining,
        used: fake.rateLimit.used,
        nodeCount: cost.nodes,
        resetAt: fake.rateLimit.resetAt.toISOString()
      }),
      repository: (args: { owner: string; name: string; followRenames?: boolean }) => {
        const repo = lookup(model, args.owner, args.name, args.followRenames ?? true)
        const asked = `${args.owner}/${args.name}`
        if (!repo || repo.hidden)
          throw new GitHubError('NOT_FOUND', `Could not resolve to a Repository with the name '${asked}'.`)
        if (repo.forbidden)
          throw new GitHubError(
            'FORBIDDEN',
            'Resource protected by organization SAML enforcement. You must grant your Personal Access token access to this organization.'
          )
        if (repo.graphqlTimeout) timedOut = true
        if (repo.brokenAnswer) broken = true
        const left = flaky.get(key(nwoOf(repo))) ?? 0
        if (left > 0) {
          flaky.set(key(nwoOf(repo)), left - 1)
          throw new GitHubError(undefined, `Something went wrong while resolving '${asked}'.`)
        }
        return repositoryNode(repo)
      }
    }
    const result = execute({ schema, document: doc, rootValue, variableValues: variables }) as Awaited<
      ReturnType<typeof execute>
    >
    if (timedOut) {
      return {
        status: 200,
        body: {
          data: null,
          errors: [
            {
              message:
                'Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include `ABCD:1234` when reporting this issue.'
            }
          ]
        },
        headers
      }
    }
    if (broken) return { status: 200, body: new CutOff(result), headers }
    const errors = result.errors?.map((e) => {
      const type = e.originalError instanceof GitHubError ? e.originalError.type : undefined
      return { ...(type ? { type } : {}), path: e.path, locations: e.locations, message: e.message }
    })
    return { status: 200, body: errors?.length ? { data: result.data, errors } : { data: result.data }, headers }
  }

  const notFound = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }

  const answerRest = (method: string, url: URL): { status: number; body: unknown; headers: Record<string, string> } => {
    const headers = rateHeaders('core')
    const api = `${origin}${restPrefix}`
    const path = url.pathname.slice(restPrefix.length)
    if (method !== 'GET') return { status: 404, body: notFound, headers }
    let m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path)
    let repo: (FakeRepo & { id: number }) | undefined
    let rest = ''
    if (m) {
      const [, owner = '', name = ''] = m
      rest = m[3] ?? ''
      const k = key(`${owner}/${name}`)
      repo = model.repos.get(k)
      const to = model.renames.get(k)
      if (!repo && to) {
        const target = model.repos.get(key(to))
        if (target && !target.hidden) {
          const location = `${api}/repositories/${target.id}${rest}${url.search}`
          return {
            status: 301,
            body: {
              message: 'Moved Permanently',
              url: location,
              documentation_url:
                'https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects'
            },
            headers: { ...headers, location }
          }
        }
      }
    } else if ((m = /^\/repositories\/(\d+)(\/.*)?$/.exec(path))) {
      const wanted = Number(m[1])
      repo = [...model.repos.values()].find((r) => r.id === wanted)
      rest = m[2] ?? ''
    } else {
      return { status: 404, body: notFound, headers }
    }
    if (!repo || repo.hidden) return { status: 404, body: notFound, headers }
    if (repo.forbidden)
      return {
        status: 403,
        body: {
          message: 'Resource protected by organization SAML enforcement.',
          documentation_url: 'https://docs.github.com/rest'
        },
        headers
      }
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30) || 30)
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1)
    const pageOf = <T>(list: T[]) => list.slice((page - 1) * perPage, page * perPage)
    if (rest === '') return { status: 200, body: restRepo(repo, api), headers }
    if (rest === '/releases') {
      const list = releasesOf(repo).map((rel, i) => restReleaseOf(repo!, rel, repo!.id * 1000 + i, api))
      return { status: 200, body: repo.brokenAnswer ? new CutOff(pageOf(list)) : pageOf(list), headers }
    }
    if (rest === '/tags') {
      const list = tagsOf(repo)
        .sort((a, b) => b.name.localeCompare(a.name))
        .map((t) => restTagOf(repo!, t))
      return { status: 200, body: pageOf(list), headers }
    }
    return { status: 404, body: notFound, headers }
  }

  const faultAnswer = (res: http.ServerResponse, fault: Fault) => {
    const headers = rateHeaders('graphql')
    switch (fault.kind) {
      case 'reset':
        res.socket?.destroy()
        return
      case 'status':
        return send(
          res,
          fault.status,
          fault.status === 502 ? '<html><body><h1>502 Bad Gateway</h1></body></html>' : { message: 'Server Error' },
          fault.retryAfter ? { ...headers, 'retry-after': String(fault.retryAfter) } : headers
        )
      case 'secondary':
        return send(
          res,
          fault.status ?? 403,
          {
            message:
              'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ABCD:1234.',
            documentation_url:
              'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits'
          },
          { ...headers, 'retry-after': String(fault.retryAfter) }
        )
      case 'primary':
        return send(
          res,
          403,
          {
            message: 'API rate limit exceeded for user ID 1.',
            documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api'
          },
          {
            ...headers,
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + fault.resetInSeconds)
          }
        )
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const at = Date.now()
      const url = new URL(req.url ?? '/', origin)
      const method = req.method ?? 'GET'
      const api: 'graphql' | 'rest' = method === 'POST' && url.pathname === graphqlPath ? 'graphql' : 'rest'
      fake.counts.total++
      fake.counts[api]++
      const info: FakeRequestInfo = { n: fake.counts.total, api, method, path: url.pathname }
      const fault = options.fault?.(info) ?? null
      const record: FakeRequestRecord = { ...info, status: 0, at, fault: fault?.kind ?? null }
      fake.requests.push(record)
      const reply = () => {
        if (options.token !== undefined && req.headers.authorization !== `token ${options.token}`) {
          record.status = 401
          return send(res, 401, {
            message: options.echoAuthorization
              ? `Bad credentials for ${req.headers.authorization ?? 'no authorization'}`
              : 'Bad credentials',
            documentation_url: 'https://docs.github.com/rest',
            status: '401'
          })
        }
        if (fault) {
          fake.counts.faults++
          record.status =
            fault.kind === 'reset'
              ? 0
              : fault.kind === 'status'
                ? fault.status
                : fault.kind === 'secondary'
                  ? (fault.status ?? 403)
                  : 403
          return faultAnswer(res, fault)
        }
        const answer =
          api === 'graphql' ? answerGraphQL(Buffer.concat(chunks).toString('utf8')) : answerRest(method, url)
        record.status = answer.status
        send(res, answer.status, answer.body, answer.headers)
      }
      if (options.frozen) return
      if (options.latencyMs) setTimeout(reply, options.latencyMs)
      else reply()
    })
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  origin = `http://127.0.0.1:${port}`
  return {
    ...fake,
    origin,
    apiUrl: `${origin}${restPrefix}`,
    graphqlUrl: `${origin}${graphqlPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

// --- real data -------------------------------------------------------------

export interface RealRelease {
  /** The git tag (the changelog's version label where the tag is unknown). */
  tag: string
  /** ISO timestamp (noon UTC of the changelog's date; spread one day apart, newest first, where it has none). */
  createdAt: string
  notes: string
}

/** The 7 self-hosted apps whose real release series the refresh tests serve. */
const SERIES_REPOS = new Set([
  'element-hq/synapse',
  'go-vikunja/vikunja',
  'healthchecks/healthchecks',
  'kimai/kimai',
  'miniflux/v2',
  'sissbruecker/linkding',
  'traefik/traefik'
])

/** Notes longer than this are cut at a line break, as a short release body: the tests need the shapes, not the bulk. */
const SERIES_NOTES_MAX = 600

function cutNotes(notes: string): string {
  if (notes.length <= SERIES_NOTES_MAX) return notes
  return `${notes.slice(0, notes.lastIndexOf('\n', SERIES_NOTES_MAX))}\n[truncated]`
}

/**
 * Real release series of 7 self-hosted apps, read in place from the shared data set (support/shared-data.ts),
 * keyed by their GitHub repository, in the changelog's order (newest first). Empty where the data set is absent.
 */
export function realReleaseSeries(): Map<string, RealRelease[]> {
  const out = new Map<string, RealRelease[]>()
  type Entry = { repo: string; version: string; tag: string | null; date: string | null; notes: string }
  for (const r of readSharedJsonl<Entry>(RELEASE_NOTES)) {
    if (!SERIES_REPOS.has(r.repo)) continue
    const list = out.get(r.repo) ?? []
    const createdAt = r.date
      ? `${r.date}T12:00:00Z`
      : new Date(Date.UTC(2026, 0, 1) - list.length * 86_400_000).toISOString()
    list.push({ tag: r.tag ?? r.version, createdAt, notes: cutNotes(r.notes) })
    out.set(r.repo, list)
  }
  return out
}

/** A fake repository publishing the given real releases (prerelease flag set from the label, as upstream does). */
export function repoFromSeries(nwo: string, series: RealRelease[], extra: Partial<FakeRepo> = {}): FakeRepo {
  const [owner = '', name = ''] = nwo.split('/')
  return {
    owner,
    name,
    releases: series.map((r) => ({
      tagName: r.tag,
      createdAt: r.createdAt,
      body: r.notes,
      prerelease: r.tag.includes('-')
    })),
    ...extra
  }
}
