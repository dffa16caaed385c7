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
import { z } from 'zod'
import { REPO_PATTERN } from '../../schema/index.js'
import type { RepoRelease, RepoSnapshot, RepoTag } from './facts.js'

export const RELEASES_WINDOW = 20
export const MONOREPO_RELEASES_WINDOW = 50
export const TAGS_WINDOW = 30
export const MONOREPO_TAGS_WINDOW = 100

export interface QueryTarget {
  repo: string
  tagPrefix?: string
  tagPattern?: string
}

function isMonorepo(t: QueryTarget): boolean {
  return Boolean(t.tagPrefix || t.tagPattern)
}

function fragment(name: string, releases: number, tags: number): string {
  return `fragment ${name} on Repository {
  nameWithOwner
  url
  isArchived
  isDisabled
  releases(first: ${releases}, orderBy: {field: CREATED_AT, direction: DESC}) {
    totalCount
    nodes { tagName url isDraft isPrerelease createdAt publishedAt description }
  }
  refs(refPrefix: "refs/tags/", first: ${tags}, orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) {
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

const repositoryAnswer = z.object({
  nameWithOwner: z.string().regex(REPO_PATTERN),
  url: z.string(),
  isArchived: z.boolean(),
  isDisabled: z.boolean(),
  releases: z.object({ totalCount: z.number().optional(), nodes: z.array(releaseNode.nullable()) }),
  refs: z
    .object({ nodes: z.array(refNode.nullable()) })
    .nullable()
    .optional()
})

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
  const releases: RepoRelease[] = r.releases.nodes
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
  const tags: RepoTag[] = (r.refs?.nodes ?? [])
    .filter((n): n is z.infer<typeof refNode> => n !== null)
    .map((n) => ({
      name: n.name,
      date: n.target?.committedDate ?? n.target?.tagger?.date ?? n.target?.target?.committedDate ?? null
    }))
  return { nameWithOwner: r.nameWithOwner, url: r.url, archived: r.isArchived || r.isDisabled, releases, tags }
}
