// A small published snapshot written as files (the shape `check` reads: apps.json, images.json and each app's
// releases.json), for made-up apps whose releases are given their classes here: for cases of placing versions
// that the bundled catalog has no app for. Every document passes its schema, as the reader checks it.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  APPS_SCHEMA_ID,
  IMAGES_SCHEMA_ID,
  RELEASES_SCHEMA_ID,
  type AppRecord,
  type Classification,
  type HistoryEntry,
  type TagRule
} from '../../src/schema/index.js'
import { paths } from '../../src/site/paths.js'
import { newestFirst } from '../../src/util/versions.js'

export interface MiniRelease {
  version: string
  /** The git tag, when it differs from the label. */
  tag?: string
  cls: Classification
  kind?: 'required' | 'urgent'
  date?: string
}

export interface MiniApp {
  slug: string
  repo: string
  latestVersion: string
  images: string[]
  community?: { image: string; tags: TagRule }[]
  /** Null: the snapshot publishes no releases.json for it. */
  releases: MiniRelease[] | null
  gaps?: { after: string; before: string; found: string }[]
}

const GENERATED = '2026-11-28T12:00:00.000Z'

/** One judged release, with made-up words naming its version. */
export function historyEntry(r: MiniRelease, repo = 'example/app'): HistoryEntry {
  const tag = r.tag ?? r.version
  return {
    version: r.version,
    tag,
    date: r.date ?? null,
    url: `https://github.com/${repo}/releases/tag/${encodeURIComponent(tag)}`,
    safeToUpdate: r.cls,
    rationale: `${r.cls} in ${r.version}: "made-up words of ${r.version}".`,
    evidence: 'what the line does',
    quote: `made-up words of ${r.version}`,
    security: r.kind === 'urgent',
    breakingKind: r.cls === 'breaking' ? (r.kind ?? 'required') : null,
    basis: '00000000.00000000.000000000000',
    judge: 'rules',
    rules: r.cls,
    model: null
  }
}

/** A history as releases.json publishes it: newest first. */
export const historyOf = (releases: MiniRelease[], repo?: string): HistoryEntry[] =>
  releases.map((r) => historyEntry(r, repo)).sort((a, b) => newestFirst(a, b))

function recordOf(a: MiniApp): AppRecord {
  const base = 'https://example.test/updatesafe'
  return {
    slug: a.slug,
    name: a.slug,
    repo: a.repo,
    latestVersion: a.latestVersion,
    safeToUpdate: 'unknown',
    rationale: 'Made up for a test.',
    changelogSummary: null,
    sourceUrl: `https://github.com/${a.repo}/releases`,
    lastChecked: '2026-11-28',
    successor: null,
    url: `${base}/apps/${a.slug}/`,
    badge: `${base}/badge/${a.slug}.svg`,
    lifecycle: null
  }
}

/** Writes the snapshot into `dir`; `check --api DIR` and the action's `api` read it as a folder. */
export async function writeMiniSnapshot(dir: string, apps: MiniApp[]): Promise<void> {
  const put = async (rel: string, doc: unknown) => {
    const file = path.join(dir, rel)
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`)
  }
  await put(paths.catalog, {
    schema: APPS_SCHEMA_ID,
    generatedAt: GENERATED,
    docs: 'https://example.test/updatesafe/docs/',
    count: apps.length,
    apps: apps.map(recordOf)
  })
  const images = apps
    .flatMap((a) => [
      ...a.images.map((image) => ({ image, slug: a.slug })),
      ...(a.community ?? []).map((c) => ({ image: c.image, slug: a.slug, tags: c.tags }))
    ])
    .sort((x, y) => (x.image < y.image ? -1 : x.image > y.image ? 1 : 0))
  await put(paths.images, { schema: IMAGES_SCHEMA_ID, generatedAt: GENERATED, images })
  for (const a of apps) {
    if (a.releases === null) continue
    await put(paths.releases(a.slug), {
      schema: RELEASES_SCHEMA_ID,
      generatedAt: GENERATED,
      slug: a.slug,
      latest: null,
      releases: historyOf(a.releases, a.repo),
      ...(a.gaps ? { gaps: a.gaps } : {})
    })
  }
}
