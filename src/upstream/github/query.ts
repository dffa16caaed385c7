// The GraphQL query for one batch of repositories, and the parsing of its answer.
//
// One aliased `repository(...)` field per app, all in one request. Sizes and why:
// - RELEASES_WINDOW = 20 newest releases per repository (50 for monorepo apps with
//   a tagPrefix/tagPattern, whose releases interleave with other packages'). That is
//   enough to skip a run of prereleases and drafts, and bounds `crossed` (20); the same
//   answer starts a new app's per-release history (facts.ts BACKFILL), at no extra request.
// - TAGS_WINDOW = 30 newest tags (100 for monorepo apps), for repositories without
//   releases; asked in the same request so the fallback costs no extra round trip.
// - Every connection stays within GitHub's per-connection cap of first: 100.
// - Nodes per batch of 50: at most 50 × (1 + 50 + 100) = 7,550, far below GitHub's
//   500,000 node limit. Cost: 2 connections per repository = 100 "requests" per
//   batch of 50, i.e. 1 point (GitHub divides by 100, minimum 1).
// The limit that bites first is response size and GitHub's 10-second query timeout
// (20 release bodies per repository), which is why batches are 50 and not more.
//
// Paging back: when the version published before is not among the releases of the
// first answer and GitHub says more lie beyond (pageInfo.hasNextPage), that app alone
// reads on from the cursor, OLDER_PAGE releases a page, OLDER_BATCH apps a request
// (the same 1,000 release bodies as a first batch), until it meets the published
// version, the oldest release, or MAX_RELEASES_READ. Apps that are up to date never
// page: a daily run costs what it did.
import { z } from 'zod'
import { REPO_PATTERN } from '../../schema/index.js'
import type { RepoRelease, RepoSnapshot, RepoTag } from './facts.js'

export const RELEASES_WINDOW = 20
export const MONOREPO_RELEASES_WINDOW = 50
export const TAGS_WINDOW = 30
export const MONOREPO_TAGS_WINDOW = 100
/**
 * Most releases read for one app in one refresh: 5 pages for a plain app (20 + 4 × 50), 4 for a monorepo app (50 +
 * 3 × 50). The classifier reads at most 200 releases per update (classify/classifier.ts MAX_RELEASES) and the
 * history keeps 50, so more would not be judged anyway; a release span beyond it is recorded as a gap in the
 * history and every update across it is unknown, never safe.
 */
export const MAX_RELEASES_READ = 200
/** Releases per follow-up page (older than the first answer). */
export const OLDER_PAGE = 50
/** Apps per follow-up request: 20 × 50 = 1,000 release bodies, as many as a first batch of 50 × 20. */
export const OLDER_BATCH = 20

export interface QueryTarget {
  repo: string
  tagPrefix?: string
  tagPattern?: string
}

function isMonorepo(t: QueryTarget): boolean {
  return Boolean(t.tagPrefix || t.tagPattern)
}

const RELEASE_FIELDS = 'tagName url isDraft isPrerelease createdAt publishedAt description'

function fragment(name: string, releases: number, tags: number): string {
  return `fragment ${name} on Repository {
  nameWithOwner
  url
  isArchived
  isDisabled
  releases(first: ${releases}, orderBy: {field: CREATED_AT, direction: DESC}) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { ${RELEASE_FIELDS} }
  }
  refs(refPrefix: "refs/tags/", first: ${tags}, orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) {
    pageInfo { hasNextPage }
    nodes {
      name
      target {
        __typename
        ... on Commit { committedDate }
        ... on Tag { tagger { date } target { ... on Commit { committedDate } } }
      }
    }
  }
}`
}

/** Alias of the i-th target in a batch. */
export function aliasOf(i: number): string {
  return `r${i}`
}

/**
 * The query and variables for one batch. Owner and name travel as variables,
 * never spliced into the query text.
 */
export function buildBatchQuery(targets: readonly QueryTarget[]): { query: string; variables: Record<string, string> } {
  const variables: Record<string, string> = {}
  const params: string[] = []
  const fields: string[] = []
  let plain = false
  let mono = false
  targets.forEach((t, i) => {
    const [owner = '', name = ''] = t.repo.split('/')
    variables[`o${i}`] = owner
    variables[`n${i}`] = name
    params.push(`$o${i}: String!`, `$n${i}: String!`)
    const frag = isMonorepo(t) ? 'MonorepoFacts' : 'RepoFacts'
    if (frag === 'MonorepoFacts') mono = true
    else plain = true
    fields.push(`  ${aliasOf(i)}: repository(owner: $o${i}, name: $n${i}, followRenames: true) { ...${frag} }`)
  })
  // A fragment that no field uses is a validation error, so only include used ones.
  const fragments = [
    plain ? fragment('RepoFacts', RELEASES_WINDOW, TAGS_WINDOW) : '',
    mono ? fragment('MonorepoFacts', MONOREPO_RELEASES_WINDOW, MONOREPO_TAGS_WINDOW) : ''
  ].filter((f) => f !== '')
  const query = `query UpdatesafeRefresh(${params.join(', ')}) {
  rateLimit { cost remaining resetAt limit }
${fields.join('\n')}
}

${fragments.join('\n\n')}
`
  return { query, variables }
}

/** A request for older releases of some apps: each reads `first` releases after its cursor. */
export interface OlderTarget {
  repo: string
  cursor: string
  first: number
}

/**
 * The query and variables for one follow-up request. Owner, name and cursor travel as variables; `first` is ours
 * (a number below 100), written into the text so GitHub's cost estimate sees it.
 */
export function buildOlderQuery(targets: readonly OlderTarget[]): {
  query: string
  variables: Record<string, string>
} {
  const variables: Record<string, string> = {}
  const params: string[] = []
  const fields: string[] = []
  targets.forEach((t, i) => {
    const [owner = '', name = ''] = t.repo.split('/')
    Object.assign(variables, { [`o${i}`]: owner, [`n${i}`]: name, [`c${i}`]: t.cursor })
    params.push(`$o${i}: String!`, `$n${i}: String!`, `$c${i}: String!`)
    const first = Math.max(1, Math.min(100, Math.floor(t.first)))
    fields.push(
      `  ${aliasOf(i)}: repository(owner: $o${i}, name: $n${i}, followRenames: true) {
    releases(first: ${first}, after: $c${i}, orderBy: {field: CREATED_AT, direction: DESC}) {
      pageInfo { hasNextPage endCursor }
      nodes { ${RELEASE_FIELDS} }
    }
  }`
    )
  })
  const query = `query UpdatesafeOlderReleases(${params.join(', ')}) {
  rateLimit { cost remaining resetAt limit }
${fields.join('\n')}
}
`
  return { query, variables }
}

// --- the answer -----------------------------------------------------------
// Parsed with zod: a malformed repository answer is treated as a failure for
// that repository only, never trusted half-way.

const releaseNode = z.object({
  tagName: z.string(),
  url: z.string().nullable().optional(),
  isDraft: z.boolean(),
  isPrerelease: z.boolean(),
  createdAt: z.string().nullable().optional(),
  publishedAt: z.string().nullable().optional(),
  description: z.string().nullable().optional()
})

const commitDate = z.looseObject({ committedDate: z.string().nullable().optional() })

const refNode = z.object({
  name: z.string(),
  target: z
    .object({
      __typename: z.string().optional(),
      committedDate: z.string().nullable().optional(),
      tagger: z.object({ date: z.string().nullable().optional() }).nullable().optional(),
      target: commitDate.nullable().optional()
    })
    .nullable()
    .optional()
})

// Absent in an answer to an older query (or a fake's): then the list is taken as whole.
const pageInfo = z
  .object({ hasNextPage: z.boolean(), endCursor: z.string().nullable().optional() })
  .nullable()
  .optional()

const releasesAnswer = z.object({
  totalCount: z.number().optional(),
  pageInfo,
  nodes: z.array(releaseNode.nullable())
})

const repositoryAnswer = z.object({
  nameWithOwner: z.string().regex(REPO_PATTERN),
  url: z.string(),
  isArchived: z.boolean(),
  isDisabled: z.boolean(),
  releases: releasesAnswer,
  refs: z
    .object({ pageInfo, nodes: z.array(refNode.nullable()) })
    .nullable()
    .optional()
})

function releasesOf(nodes: readonly (z.infer<typeof releaseNode> | null)[]): RepoRelease[] {
  return nodes
    .filter((n): n is z.infer<typeof releaseNode> => n !== null)
    .map((n) => ({
      tag: n.tagName,
      url: n.url ?? null,
      draft: n.isDraft,
      prerelease: n.isPrerelease,
      createdAt: n.createdAt ?? null,
      publishedAt: n.publishedAt ?? null,
      notes: n.description ?? null
    }))
}

/** Where a releases connection goes on: the cursor after its last node, null when it cannot, absent when whole. */
function after(info: z.infer<typeof pageInfo>): { releasesAfter?: string | null } {
  if (!info?.hasNextPage) return {}
  return { releasesAfter: info.endCursor ?? null }
}

/** One app's older releases from a follow-up answer, or null when it is malformed. */
export function olderFromGraphQL(value: unknown): { releases: RepoRelease[]; releasesAfter?: string | null } | null {
  const parsed = z.object({ releases: releasesAnswer }).safeParse(value)
  if (!parsed.success) return null
  return { releases: releasesOf(parsed.data.releases.nodes), ...after(parsed.data.releases.pageInfo) }
}

export const rateLimitAnswer = z.object({
  cost: z.number(),
  remaining: z.number(),
  resetAt: z.string().optional(),
  limit: z.number().optional()
})

export type RateLimitAnswer = z.infer<typeof rateLimitAnswer>

/** A repository field of the answer as a snapshot, or null when it is malformed. */
export function snapshotFromGraphQL(value: unknown): RepoSnapshot | null {
  const parsed = repositoryAnswer.safeParse(value)
  if (!parsed.success) return null
  const r = parsed.data
  const releases = releasesOf(r.releases.nodes)
  const tags: RepoTag[] = (r.refs?.nodes ?? [])
    .filter((n): n is z.infer<typeof refNode> => n !== null)
    .map((n) => ({
      name: n.name,
      date: n.target?.committedDate ?? n.target?.tagger?.date ?? n.target?.target?.committedDate ?? null
    }))
  return {
    nameWithOwner: r.nameWithOwner,
    url: r.url,
    archived: r.isArchived || r.isDisabled,
    releases,
    tags,
    ...after(r.releases.pageInfo),
    ...(r.refs?.pageInfo?.hasNextPage ? { moreTags: true } : {})
  }
}
