import { describe, expect, it } from '@jest/globals'
import { validate } from '@octokit/graphql-schema'
import {
  aliasOf,
  buildBatchQuery,
  buildOlderQuery,
  olderFromGraphQL,
  snapshotFromGraphQL
} from '../../../src/upstream/github/query.js'

const plain = Array.from({ length: 50 }, (_, i) => ({ repo: `owner-${i}/app` }))
const mono = [
  { repo: 'n8n-io/n8n', tagPrefix: 'n8n@' },
  { repo: 'home-assistant/core', tagPattern: '^\\d{4}\\.\\d+\\.\\d+$' }
]

describe('the batch query', () => {
  // Every shape the refresh can send: plain apps only, monorepo apps only, both, one app, a full batch.
  const shapes: Record<string, { repo: string; tagPrefix?: string; tagPattern?: string }[]> = {
    'one plain app': plain.slice(0, 1),
    'a full batch of 50': plain,
    'monorepo apps only': mono,
    'plain and monorepo apps': [...plain.slice(0, 10), ...mono]
  }
  for (const [name, targets] of Object.entries(shapes)) {
    it(`validates against GitHub's published schema: ${name}`, () => {
      const { query } = buildBatchQuery(targets)
      expect(validate(query).map((e) => e.message)).toEqual([])
    })
  }

  it('the validator is live: it rejects a field GitHub does not have', () => {
    const { query } = buildBatchQuery(plain.slice(0, 1))
    // Renamed fragment: graphql-tag warns when one fragment name has two bodies.
    const broken = query.replace('isPrerelease', 'isPreRelease').replaceAll('RepoFacts', 'BrokenFacts')
    expect(validate(broken).map((e) => e.message)).toEqual([
      'Cannot query field "isPreRelease" on type "Release". Did you mean "isPrerelease"?'
    ])
  })

  it('carries owner and name as variables, never inside the query text', () => {
    const hostile = [{ repo: 'evil") { viewer { login } } #/x' }]
    const { query, variables } = buildBatchQuery(hostile)
    expect(query).not.toContain('evil')
    expect(variables).toEqual({ o0: 'evil") { viewer { login } } #', n0: 'x' })
    expect(validate(query)).toHaveLength(0)
  })

  it('gives every target its own alias and asks for the rate limit', () => {
    const { query, variables } = buildBatchQuery(plain.slice(0, 3))
    for (let i = 0; i < 3; i++) expect(query).toContain(`${aliasOf(i)}: repository(owner: $o${i}, name: $n${i}`)
    expect(Object.keys(variables)).toHaveLength(6)
    expect(query).toMatch(/rateLimit \{ cost remaining resetAt/)
  })

  it('asks for a wider release window for monorepo apps only', () => {
    expect(buildBatchQuery(plain.slice(0, 1)).query).not.toContain('MonorepoFacts')
    expect(buildBatchQuery(mono).query).not.toContain('...RepoFacts')
    expect(buildBatchQuery(mono).query).toContain('releases(first: 50')
  })
})

describe('snapshotFromGraphQL', () => {
  it('reads a repository answer, taking tag dates from commits or annotated tags', () => {
    const snap = snapshotFromGraphQL({
      nameWithOwner: 'traefik/traefik',
      url: 'https://github.com/traefik/traefik',
      isArchived: false,
      isDisabled: true,
      releases: {
        totalCount: 1,
        nodes: [
          {
            tagName: 'v3.7.9',
            url: 'https://github.com/traefik/traefik/releases/tag/v3.7.9',
            isDraft: false,
            isPrerelease: false,
            createdAt: '2026-07-24T12:00:00Z',
            publishedAt: '2026-07-24T12:00:00Z',
            description: 'notes'
          },
          null
        ]
      },
      refs: {
        nodes: [
          { name: 'v3.7.9', target: { __typename: 'Commit', committedDate: '2026-07-24T11:00:00Z' } },
          {
            name: 'v3.7.8',
            target: {
              __typename: 'Tag',
              tagger: { date: '2026-07-15T11:00:00+02:00' },
              target: { committedDate: '2026-07-15T08:00:00Z' }
            }
          }
        ]
      }
    })
    expect(snap).toEqual({
      nameWithOwner: 'traefik/traefik',
      url: 'https://github.com/traefik/traefik',
      archived: true,
      releases: [
        {
          tag: 'v3.7.9',
          url: 'https://github.com/traefik/traefik/releases/tag/v3.7.9',
          draft: false,
          prerelease: false,
          createdAt: '2026-07-24T12:00:00Z',
          publishedAt: '2026-07-24T12:00:00Z',
          notes: 'notes'
        }
      ],
      tags: [
        { name: 'v3.7.9', date: '2026-07-24T11:00:00Z' },
        { name: 'v3.7.8', date: '2026-07-15T11:00:00+02:00' }
      ]
    })
  })

  it('rejects a malformed answer instead of trusting half of it', () => {
    expect(
      snapshotFromGraphQL({
        nameWithOwner: 'a/b',
        url: 'x',
        isArchived: 'no',
        isDisabled: false,
        releases: { nodes: [] }
      })
    ).toBeNull()
    expect(
      snapshotFromGraphQL({
        nameWithOwner: '../etc',
        url: 'x',
        isArchived: false,
        isDisabled: false,
        releases: { nodes: [] }
      })
    ).toBeNull()
    expect(snapshotFromGraphQL(null)).toBeNull()
  })
})

describe('the query for older releases (paging back)', () => {
  it("validates against GitHub's published schema, the cursor a variable, and asks for releases only", () => {
    const targets = Array.from({ length: 20 }, (_, i) => ({
      repo: `owner-${i}/app`,
      cursor: `Y3Vyc29yOjE5${i}`,
      first: 50
    }))
    const { query, variables } = buildOlderQuery(targets)
    expect(validate(query).map((e) => e.message)).toEqual([])
    expect(query).not.toContain('Y3Vyc29y')
    expect(variables).toMatchObject({ o0: 'owner-0', n0: 'app', c0: 'Y3Vyc29yOjE50' })
    expect(query).not.toContain('refs(')
    // first is bounded by GitHub's 100 a connection, whatever is asked.
    expect(buildOlderQuery([{ repo: 'a/b', cursor: 'x', first: 500 }]).query).toContain(
      'releases(first: 100, after: $c0'
    )
  })

  it('reads an older page with where it goes on, and whole when GitHub says there is no next page', () => {
    const node = { tagName: 'v1.0.0', isDraft: false, isPrerelease: false, createdAt: '2026-10-01T12:00:00Z' }
    expect(
      olderFromGraphQL({ releases: { pageInfo: { hasNextPage: true, endCursor: 'abc' }, nodes: [node, null] } })
    ).toMatchObject({ releases: [{ tag: 'v1.0.0' }], releasesAfter: 'abc' })
    expect(olderFromGraphQL({ releases: { pageInfo: { hasNextPage: false, endCursor: 'abc' }, nodes: [] } })).toEqual({
      releases: []
    })
    expect(olderFromGraphQL({ releases: { nodes: 'no' } })).toBeNull()
  })

  it('a first answer with more releases beyond says where to go on from; one without says it is whole', () => {
    const repo = (hasNextPage: boolean) => ({
      nameWithOwner: 'a/b',
      url: 'https://github.com/a/b',
      isArchived: false,
      isDisabled: false,
      releases: { totalCount: 70, pageInfo: { hasNextPage, endCursor: 'c20' }, nodes: [] },
      refs: { pageInfo: { hasNextPage }, nodes: [] }
    })
    expect(snapshotFromGraphQL(repo(true))).toMatchObject({ releasesAfter: 'c20', moreTags: true })
    expect(snapshotFromGraphQL(repo(false))).not.toHaveProperty('releasesAfter')
    expect(snapshotFromGraphQL(repo(false))).not.toHaveProperty('moreTags')
  })
})
