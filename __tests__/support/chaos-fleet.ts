// A catalog of N apps with every kind of upstream trouble, its repositories on the local GitHub stand-in, and the
// daily runs of the issue 56 "done when": a refresh against a faulty upstream, a frozen upstream (it answers as the
// day before) and an offline build. Used by __tests__/pipeline/chaos.test.ts (a small fleet) and bench/chaos.mjs
// (1,000 apps). Every note here is made up.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { build, type BuildResult } from '../../src/pipeline/pipeline.js'
import { statusDocSchema, type CatalogDoc, type StatusDoc } from '../../src/schema/index.js'
import { refreshFromGitHub } from '../../src/upstream/github/refresh.js'
import type { Logger } from '../../src/util/types.js'
import { randomFaults, startFakeGitHub, type FakeRelease, type FakeRepo } from './fake-github.js'

/** The kinds of app in a fleet, one of each in turn. */
export const KINDS = [
  'plain', // one ordinary release
  'release-less', // no release, no tag, but a catalog seed: published from the seed, never refreshed
  'never-released', // no release, no tag, no seed: left out until it has one
  'tags-only', // no release: the newest stable tag
  'archived-long', // archived, last release summarised past the summary's bound (issue 56)
  'archived-empty', // archived with no release, a seed: unmaintained
  'prerelease-only', // only a flagged prerelease, and a seed
  'hidden', // the token cannot see it (404), a seed
  'cut-off', // every answer holding it arrives cut off, a seed
  'graphql-timeout', // GraphQL cannot answer it; REST does
  'renamed', // GitHub follows a rename: "moved"
  'huge-notes', // a 2 MB release body
  'hostile-text' // a release name of 440 characters, controls, bidi and workflow commands in the notes
] as const
export type Kind = (typeof KINDS)[number]

const FIX = '## Bug fixes\n- The feed list keeps its order after a reload.'

/** Notes whose summary reaches the summary's bound: four headed lists of long items. */
export function longSummaryNotes(): string {
  const item = (colour: string) => `- ${`The ${colour} panel now loads sooner and `.repeat(8)}done.`
  return ['Features', 'Fixes', 'Improvements', 'Other']
    .map((h) => `## ${h}\n${item('red')}\n${item('blue')}\n${item('green')}`)
    .join('\n\n')
}

const HOSTILE =
  '## Breaking changes\n- \u202Eevil\u202C The `OLD_PORT` setting was removed.\u0007\n::error file=x::not ours\n' +
  '<script>alert(1)</script>\n- Fixed the panel.'

export interface Fleet {
  /** slug → the catalog file's text */
  records: Map<string, string>
  kinds: Map<string, Kind>
  /** The repositories on day `day` (1, 2, …): each plain app has one more release a day. */
  repos(day: number): FakeRepo[]
  renames: Record<string, string>
}

const release = (tagName: string, day: number, body = FIX, extra: Partial<FakeRelease> = {}): FakeRelease => ({
  tagName,
  createdAt: new Date(Date.UTC(2026, 10, day, 12)).toISOString(),
  body,
  ...extra
})

/** Kinds whose repository spoils every answer that holds it (a GraphQL batch): one app in `poisonEvery` each. */
const POISON: readonly Kind[] = ['cut-off', 'graphql-timeout']

/**
 * N apps: every `poisonEvery` apps, one whose every answer arrives cut off and one GraphQL cannot answer (a batch
 * holding one fails whole and is split down to it: see bench/README.md);
 * the others take the remaining kinds in turn.
 */
export function fleet(n: number, { poisonEvery = 100 }: { poisonEvery?: number } = {}): Fleet {
  const common = KINDS.filter((k) => !POISON.includes(k))
  let next = 0
  const records = new Map<string, string>()
  const kinds = new Map<string, Kind>()
  const renames: Record<string, string> = {}
  const seed = (slug: string, v: string) =>
    `release:\n  version: "${v}"\n  url: https://github.com/chaos/${slug}/releases/tag/${v}\n  checked: 2026-10-01\n`
  for (let i = 0; i < n; i++) {
    const slot = i % poisonEvery
    const kind = slot === 7 ? 'cut-off' : slot === 11 ? 'graphql-timeout' : common[next++ % common.length]!
    const slug = `app-${String(i).padStart(4, '0')}`
    kinds.set(slug, kind)
    let text = `name: App ${i}\nrepo: chaos/${slug}\n`
    if (['release-less', 'archived-empty', 'prerelease-only', 'hidden', 'cut-off'].includes(kind))
      text += seed(slug, 'v0.9.0')
    // The catalog says it is archived, as a curator writes it (an unmarked one: chaos.test.ts).
    if (kind === 'archived-empty') text += 'archived: true\nsuccessor: chaos/next\n'
    records.set(slug, text)
    if (kind === 'renamed') renames[`chaos/${slug}`] = `chaos-moved/${slug}`
  }
  const repos = (day: number): FakeRepo[] =>
    [...kinds].map(([slug, kind]) => {
      const repo: FakeRepo = { owner: kind === 'renamed' ? 'chaos-moved' : 'chaos', name: slug }
      // Day d holds v1.0.0 … v1.(d-1).0.
      const daily = Array.from({ length: day }, (_, d) => release(`v1.${d}.0`, d + 1))
      switch (kind) {
        case 'release-less':
        case 'never-released':
          return { ...repo, releases: [] }
        case 'tags-only':
          return { ...repo, tags: daily.map((r) => ({ name: r.tagName, date: r.createdAt })) }
        case 'archived-long':
          return { ...repo, archived: true, releases: [release('v2.0.0', 1, longSummaryNotes())] }
        case 'archived-empty':
          return { ...repo, archived: true, releases: [] }
        case 'prerelease-only':
          return { ...repo, releases: [release('v2.0.0-rc1', 1, FIX, { prerelease: true })] }
        case 'hidden':
          return { ...repo, hidden: true, releases: daily }
        case 'cut-off':
          return { ...repo, brokenAnswer: true, releases: daily }
        case 'graphql-timeout':
          return { ...repo, graphqlTimeout: true, releases: daily }
        case 'huge-notes':
          return {
            ...repo,
            releases: [...daily.slice(0, -1), { ...daily.at(-1)!, body: `${FIX}\n- ${'y'.repeat(2 << 20)}` }]
          }
        case 'hostile-text':
          return {
            ...repo,
            releases: [release(`v1.${day}.0`, day, HOSTILE, { name: `\u202E${'::warning::'.repeat(40)}` })]
          }
        default:
          return { ...repo, releases: daily }
      }
    })
  return { records, kinds, repos, renames }
}

/** What one run published. */
export interface Day {
  result: BuildResult
  apps: CatalogDoc['apps']
  status: StatusDoc
  warnings: string[]
  ms: number
}

export interface DayOptions {
  dir: string
  name: string
  now: Date
  previous?: string
  /** Refresh against the stand-in holding the fleet's repositories of `day`, with this share of faulty requests. */
  upstream?: { fleet: Fleet; day: number; faultRate: number; seed: number }
}

/** Writes the fleet's catalog (once) and runs one build of it: refreshed from the stand-in, or offline. */
export async function runDay(fleetOf: Fleet, opts: DayOptions): Promise<Day> {
  const catalog = path.join(opts.dir, 'catalog')
  await mkdir(path.join(catalog, 'apps'), { recursive: true })
  for (const [slug, text] of fleetOf.records) await writeFile(path.join(catalog, 'apps', `${slug}.yml`), text)
  const warnings: string[] = []
  const log: Logger = { info: () => {}, warning: (m) => warnings.push(m), error: (m) => warnings.push(`error: ${m}`) }
  const token = 'ghs_chaosfleettoken0123456789'
  const up = opts.upstream
  const fake = up
    ? await startFakeGitHub({
        token,
        repos: up.fleet.repos(up.day),
        renames: up.fleet.renames,
        ...(up.faultRate > 0 ? { fault: randomFaults(up.faultRate, up.seed) } : {})
      })
    : null
  const start = Date.now()
  try {
    const result = await build(
      {
        catalogDir: catalog,
        outDir: path.join(opts.dir, opts.name),
        baseUrl: 'https://example.org',
        now: opts.now,
        refresh: Boolean(fake),
        ...(opts.previous ? { previousDir: path.join(opts.dir, opts.previous) } : {})
      },
      {
        log,
        ...(fake
          ? {
              refresh: (targets) =>
                refreshFromGitHub(targets, {
                  token,
                  apiUrl: fake.apiUrl,
                  graphqlUrl: fake.graphqlUrl,
                  now: opts.now,
                  log,
                  retry: { baseMs: 1 },
                  throttle: { baseMs: 1 }
                })
            }
          : {})
      }
    )
    const ms = Date.now() - start
    const read = async (file: string): Promise<unknown> =>
      JSON.parse(await readFile(path.join(result.outDir, file), 'utf8'))
    const apps = ((await read('api/v1/apps.json')) as CatalogDoc).apps
    const status = statusDocSchema.parse(await read('api/v1/status.json'))
    return { result, apps, status, warnings, ms }
  } finally {
    await fake?.close()
  }
}

/** Slugs published before that a run lost (should be none). */
export function lost(before: readonly { slug: string }[], after: readonly { slug: string }[]): string[] {
  const now = new Set(after.map((a) => a.slug))
  return before.map((a) => a.slug).filter((s) => !now.has(s))
}
