// A small catalog of one app, "demo", and GitHub answers for it, to build chains of snapshots
// (each with --previous pointing at the one before), as the daily workflow does.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { build, type BuildDeps } from '../../src/pipeline/pipeline.js'
import type { RefreshOutcome } from '../../src/upstream/github/refresh.js'
import type { Logger, ReleaseNotes } from '../../src/util/types.js'
import { compareVersions } from '../../src/util/versions.js'

// Made-up notes of the shapes upstream writes: a required migration, and bug fixes.
export const BREAKING =
  '## Breaking Changes\n\n- The `LEGACY_AUTH` setting was removed. You must migrate your configuration before upgrading: run `demo migrate` first.'
export const FIX = '## Bug fixes\n\n- Fix the demo thumbnails that were drawn upside down after a resize (#9571)'

/** The seed's release: facts in the record, its notes in the catalog's notes file (as the data set gives them). */
export const SEED_NOTES = '## Bug fixes\n\n- Fix the demo inbox that showed its messages without styles (#9586)'

export const SEED = `name: Demo
repo: demo-org/demo
release:
  version: v1.0.0
  url: https://github.com/demo-org/demo/releases/tag/v1.0.0
  date: 2026-10-01
  checked: 2026-11-01
`

/** The notes file beside the demo catalog: the seed's release, in the data set's shape (build --notes-from). */
export const NOTES_FILE = 'notes.jsonl'
export const seedNotesLine = (notes = SEED_NOTES): string =>
  `${JSON.stringify({
    id: 'demo@v1.0.0',
    slug: 'demo',
    repo: 'demo-org/demo',
    version: 'v1.0.0',
    tag: 'v1.0.0',
    date: '2026-10-01',
    notes
  })}\n`

export function release(version: string, notes: string, date: string, repo = 'demo-org/demo'): ReleaseNotes {
  return { version, notes, url: `https://github.com/${repo}/releases/tag/${version}`, date }
}

/**
 * GitHub's answers: for each repository listed, its releases (oldest first; the last is the latest),
 * of which, as the refresh does, only those above the version published last are crossed. Any other
 * repository fails, as one GitHub could not answer.
 */
export function upstreamOf(byRepo: Record<string, ReleaseNotes[]>, checked: string): BuildDeps['refresh'] {
  return async (targets) => {
    const outcomes = new Map<string, RefreshOutcome>()
    for (const t of targets) {
      const releases = byRepo[t.repo]
      if (!releases) {
        outcomes.set(t.slug, { status: 'failed', reason: 'HTTP 502 after retries' })
        continue
      }
      const latest = releases[releases.length - 1]!
      const above = (r: ReleaseNotes) => !t.previousVersion || (compareVersions(r.version, t.previousVersion) ?? 1) > 0
      outcomes.set(t.slug, {
        status: 'fresh',
        facts: {
          version: latest.version,
          url: latest.url!,
          date: latest.date ?? null,
          notes: latest.notes,
          checked,
          archived: false,
          crossed: releases.filter(above)
        }
      })
    }
    return { outcomes, stats: { requests: 1, graphqlPoints: 1, remaining: 4999, batches: 1 } }
  }
}

/** The answer for demo alone. */
export function upstream(releases: ReleaseNotes[], checked: string): BuildDeps['refresh'] {
  return upstreamOf({ 'demo-org/demo': releases }, checked)
}

/**
 * `at(out, now, previous?, refresh?)`: a build of `<dir>/catalog` into `<dir>/<out>` as of `now`, with
 * `<dir>/<previous>` as the previous snapshot and, given a stand-in for GitHub, a refresh; without one, the notes
 * of `notesFrom` (relative to `dir`).
 */
export function builder(dir: string, baseUrl: string, log: Logger, notesFrom = NOTES_FILE) {
  return (out: string, now: string, previous?: string, refresh?: BuildDeps['refresh']) =>
    build(
      {
        catalogDir: 'catalog',
        outDir: out,
        baseUrl,
        now: new Date(now),
        cwd: dir,
        ...(previous ? { previousDir: previous } : {}),
        ...(refresh ? { refresh: true } : { notesFrom })
      },
      { log, ...(refresh ? { refresh } : {}) }
    )
}

export async function writeDemoCatalog(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'catalog/apps'), { recursive: true })
  await writeFile(path.join(dir, 'catalog/apps/demo.yml'), SEED)
  await writeFile(path.join(dir, NOTES_FILE), seedNotesLine())
}

/**
 * Three snapshots under `dir`: s1 from the seed (v1.0.0), s2 refreshed to the breaking v1.1.0, s3
 * refreshed to the bug-fix v1.2.0. The record of s3 judges only v1.2.0; the history keeps all three.
 */
export async function buildChain(dir: string, baseUrl: string, log: Logger): Promise<void> {
  const at = builder(dir, baseUrl, log)
  const r11 = release('v1.1.0', BREAKING, '2026-11-10')
  await at('s1', '2026-11-01T12:00:00.000Z')
  await at('s2', '2026-11-11T12:00:00.000Z', 's1', upstream([r11], '2026-11-11'))
  await at('s3', '2026-11-21T12:00:00.000Z', 's2', upstream([r11, release('v1.2.0', FIX, '2026-11-20')], '2026-11-21'))
}
