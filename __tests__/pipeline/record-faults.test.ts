// A record that upstream's data makes unpublishable is that app's fault alone (issue 56), through the whole build:
// the run publishes and resolves, the app keeps its last published record (or is unknown, or left out), and the
// fault is named in the log with the catalog file, in the result (the job summary's input) and in status.json.
// The refresh is handed in as a dependency that answers what a hostile upstream could; the notes are made up.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { build, type BuildDeps } from '../../src/pipeline/pipeline.js'
import { buildSummary } from '../../src/output/job-summary.js'
import { statusDocSchema, type CatalogDoc, type StatusDoc } from '../../src/schema/index.js'
import type { RefreshOutcome } from '../../src/upstream/github/refresh.js'
import type { Logger } from '../../src/util/types.js'
import { tempDir } from '../support/tmp.js'

let dir: string
let cleanup: () => Promise<void>
beforeAll(async () => ({ dir, cleanup } = await tempDir()))
afterAll(() => cleanup())

const NOTES = '## Bug fixes\n- The feed list keeps its order after a reload'
const page = (repo: string, v: string) => `https://github.com/${repo}/releases/tag/${v}`

/** A refresh that answers each repository with one release; `url` and `version` as the test makes them. */
function refresh(
  checked: string,
  odd: Record<string, { url?: string; version?: string }> = {}
): NonNullable<BuildDeps['refresh']> {
  return async (targets) => {
    const outcomes = new Map<string, RefreshOutcome>()
    for (const t of targets) {
      const version = odd[t.slug]?.version ?? (checked === '2026-11-01' ? 'v1.0.0' : 'v1.1.0')
      const url = odd[t.slug]?.url ?? page(t.repo, version)
      const release = { version, notes: NOTES, url, date: checked }
      outcomes.set(t.slug, {
        status: 'fresh',
        facts: { version, url, date: checked, notes: NOTES, checked, archived: false, crossed: [release] }
      })
    }
    return { outcomes, stats: { requests: 1, graphqlPoints: 1, remaining: 4999, batches: 1 } }
  }
}

async function run(name: string, now: string, deps: Pick<BuildDeps, 'refresh'>, previous?: string) {
  const warnings: string[] = []
  const log: Logger = {
    info: () => {},
    warning: (m, ref) => warnings.push(`${ref?.file ? `${path.basename(ref.file)}: ` : ''}${m}`),
    error: (m) => warnings.push(`error: ${m}`)
  }
  const result = await build(
    {
      catalogDir: path.join(dir, 'catalog'),
      outDir: path.join(dir, name),
      baseUrl: 'https://example.org',
      now: new Date(now),
      refresh: true,
      ...(previous ? { previousDir: path.join(dir, previous) } : {})
    },
    { log, ...deps }
  )
  const read = async <T>(file: string) => JSON.parse(await readFile(path.join(dir, name, file), 'utf8')) as T
  return {
    result,
    warnings,
    apps: (await read<CatalogDoc>('api/v1/apps.json')).apps,
    status: await read<StatusDoc>('api/v1/status.json')
  }
}

describe('an upstream fault in one record never stops the build (issue 56)', () => {
  const HUGE = `https://github.com/acme/odd/releases/tag/v1.1.0?${'q'.repeat(3000)}`
  let first: Awaited<ReturnType<typeof run>>
  let second: Awaited<ReturnType<typeof run>>
  beforeAll(async () => {
    await mkdir(path.join(dir, 'catalog/apps'), { recursive: true })
    for (const slug of ['good', 'odd'])
      await writeFile(path.join(dir, 'catalog/apps', `${slug}.yml`), `name: ${slug}\nrepo: acme/${slug}\n`)
    first = await run('s1', '2026-11-01T06:00:00.000Z', { refresh: refresh('2026-11-01') })
    // The next day two apps join, and upstream's data for three apps cannot be published.
    for (const slug of ['newbie', 'lost'])
      await writeFile(path.join(dir, 'catalog/apps', `${slug}.yml`), `name: ${slug}\nrepo: acme/${slug}\n`)
    second = await run(
      's2',
      '2026-11-02T06:00:00.000Z',
      {
        refresh: refresh('2026-11-02', {
          odd: { url: HUGE },
          newbie: { url: HUGE.replace('odd', 'newbie') },
          // No version the record could name, no record before and no seed: nothing to publish.
          lost: { url: HUGE.replace('odd', 'lost'), version: 'v'.repeat(200) }
        })
      },
      's1'
    )
  })

  it('publishes every app it can: the faulty one as last published, the new one as unknown', () => {
    expect(first.result.faults).toEqual([])
    expect(second.apps.map((a) => a.slug)).toEqual(['good', 'newbie', 'odd'])
    expect(second.apps.find((a) => a.slug === 'odd')).toEqual(first.apps.find((a) => a.slug === 'odd'))
    expect(second.apps.find((a) => a.slug === 'good')).toMatchObject({ latestVersion: 'v1.1.0' })
    const newbie = second.apps.find((a) => a.slug === 'newbie')!
    expect(newbie).toMatchObject({ safeToUpdate: 'unknown', latestVersion: 'v1.1.0' })
    expect(newbie.rationale).toContain('could not be published')
    expect(second.result.leftOut).toEqual([
      { slug: 'lost', reason: 'its upstream data cannot be published (latestVersion)' }
    ])
  })

  it('names each fault in the log (with the catalog file), in status.json and in the job summary', () => {
    expect(second.warnings.filter((w) => w.includes('cannot be published'))).toEqual([
      expect.stringMatching(
        /^lost\.yml: lost: the record built from upstream data cannot be published \(latestVersion: /
      ),
      expect.stringMatching(/^newbie\.yml: newbie: .*\(sourceUrl: .*\); it is published as unknown$/),
      expect.stringMatching(/^odd\.yml: odd: .*\(sourceUrl: .*\); its last published record \(v1\.0\.0\) is kept$/)
    ])
    expect(statusDocSchema.safeParse(second.status).success).toBe(true)
    expect(second.status.faults).toEqual([
      { slug: 'lost', field: 'latestVersion', problem: expect.any(String), published: 'none' },
      { slug: 'newbie', field: 'sourceUrl', problem: expect.any(String), published: 'unknown' },
      { slug: 'odd', field: 'sourceUrl', problem: expect.any(String), published: 'previous' }
    ])
    expect(second.status.failed).toEqual(['lost'])
    expect(first.status).not.toHaveProperty('faults')
    const md = buildSummary({ ...second.result, count: second.result.count, errors: [], refresh: true })
    expect(md).toContain('3 upstream faults')
    expect(md).toContain('- odd: sourceUrl: ')
  })
})
