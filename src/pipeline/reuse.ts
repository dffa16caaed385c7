// A daily run republishes mostly what it published the day before. Each snapshot records, in
// `.updatesafe/reuse.json`, what each app's files were built from; an app whose catalog file, published
// record and program are those of that build is not parsed, judged or rendered again: its releases
// document, page, badge and shields endpoint are carried over from the previous snapshot as they are.
//
// Sound because a build is a fixed point: built again from its own snapshot, with the same catalog file
// and program, an app gets the same record and files (the byte-identical rebuild tests hold it). Only apps
// whose files depend on nothing else are recorded: an offline build (a refresh brings new facts), no
// override (its expiry is told every run) and no end-of-life product (its status follows the calendar).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { communityImageSchema, type AppRecord, type CatalogEntry, type CommunityImage } from '../schema/index.js'
import { FEED_ENTRIES, type Change } from '../site/changes.js'
import { paths } from '../site/paths.js'
import { sha256 } from '../util/digest.js'

export const REUSE_SCHEMA_ID = 'updatesafe.reuse.v1'

export const reuseDocSchema = z.strictObject({
  schema: z.literal(REUSE_SCHEMA_ID),
  docs: z.string(),
  /** The program that built the snapshot (see programDigest), with its judge (see judgedProgram). */
  program: z.string(),
  /**
   * Slug → the key of what its files were built from; the catalog's image names and community builds (for
   * images.json), its categories (categories.json, the index) and its release day (the index's sort).
   */
  apps: z.record(
    z.string(),
    z.strictObject({
      key: z.string(),
      images: z.array(z.string()).optional(),
      community: z.array(communityImageSchema).optional(),
      categories: z.array(z.string()).optional(),
      released: z.string().optional()
    })
  )
})

export type ReuseDoc = z.infer<typeof reuseDocSchema>

/**
 * The running program: a digest of every script of the bundle this module was bundled into (dist/cli/ or dist/:
 * the entry, the chunk that holds the build and the GitHub client's chunks), in name order. Null when running
 * from source, where no bundle holds the program: then nothing is reused.
 */
export function programDigest(moduleUrl: string = import.meta.url): string | null {
  const file = fileURLToPath(moduleUrl)
  if (!file.endsWith('.js')) return null
  const dir = path.dirname(file)
  const scripts = readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort()
  return sha256(scripts.map((f) => `${f}\n${sha256(readFileSync(path.join(dir, f)))}\n`).join('')).slice(0, 32)
}

/**
 * The program as a reuse record names it: with the judge it runs (`model:<id>` and the prompt's version; the rules
 * are part of the program). A record built by another judge carries nothing over, so switching the judge reads
 * every app again; an app a model could not judge whole is not recorded (see BuiltApp.recordable), so the next run
 * asks again.
 */
export function judgedProgram(program: string, judge: string, promptVersion: number): string {
  return judge === 'rules' ? program : `${program}+${judge}@${promptVersion}`
}

/** The digest of a catalog file's bytes. */
export function sourceDigest(bytes: Uint8Array): string {
  return sha256(bytes, 'base64')
}

/**
 * What an app's files were built from: the program, the site's address, its catalog file and its record; and the
 * image names the reuse record keeps for it (read from that file), so that they cannot differ from it unnoticed.
 */
export function reuseKey(
  program: string,
  baseUrl: string,
  source: string,
  record: AppRecord,
  images: readonly string[] | undefined,
  community?: readonly CommunityImage[]
): string {
  // Community builds join the key only where an app has them, so the keys of every other app stay as they were.
  const builds = community ? `\n${JSON.stringify(community)}` : ''
  return sha256(
    `${program}\n${baseUrl}\n${source}\n${JSON.stringify(record)}\n${JSON.stringify(images ?? null)}${builds}`,
    'base64'
  )
}

/**
 * What else an app's files were built from besides its catalog file: the digest of its releases in a notes file
 * (build --notes-from), by repository; empty when the build reads none.
 */
export type NotesKey = (repo: string) => string

/** The files of an app that are carried over; the per-app document is written again (it carries generatedAt). */
export function carriedFiles(slug: string): string[] {
  return [paths.releases(slug), paths.page(slug), paths.badge(slug), paths.shields(slug)]
}

/**
 * The carried apps whose Atom feed is the previous snapshot's: the same entries in the change history as then (an
 * app's feed shows its newest entries, which another app's changes can push out of the bounded history), under the
 * same Atom id prefix. Its title and links come from the record and the base URL, which carrying holds equal.
 */
export function unchangedFeeds(
  carried: ReadonlySet<string>,
  history: readonly Change[],
  before: { changes: readonly Change[]; idPrefix: string | null },
  idPrefix: string
): Set<string> {
  if (before.idPrefix !== idPrefix) return new Set()
  const bySlug = (changes: readonly Change[]) => {
    const m = new Map<string, Change[]>()
    for (const c of changes) {
      if (!carried.has(c.slug)) continue
      const list = m.get(c.slug)
      if (!list) m.set(c.slug, [c])
      else if (list.length < FEED_ENTRIES) list.push(c)
    }
    return m
  }
  const [now, then] = [bySlug(history), bySlug(before.changes)]
  // An app without entries has a feed dated by the snapshot: not carried.
  return new Set([...carried].filter((slug) => now.has(slug) && isDeepStrictEqual(now.get(slug), then.get(slug))))
}

/** Can this app's files be carried over by the next offline build? (See the comment at the top.) */
export function reusableEntry(entry: CatalogEntry): boolean {
  return !entry.override && !entry.lifecycle
}

/**
 * The catalog read's hook (catalog/load.ts: KnownRecords) that knows an app when its file, its previous record, the
 * base URL and the program are those its files were built from, and the previous snapshot holds them (`present`).
 * Each file's digest goes into `sources`, for this build's own reuse record.
 */
export function knownRecords(
  program: string,
  baseUrl: string,
  previous: ReadonlyMap<string, AppRecord>,
  reused: ReuseDoc | null,
  present: (slug: string) => boolean,
  sources: Map<string, string>,
  notesKey: NotesKey = () => ''
): (slug: string, bytes: Buffer) => string | null {
  return (slug, bytes) => {
    const source = sourceDigest(bytes)
    sources.set(slug, source)
    const record = previous.get(slug)
    const was = reused?.apps[slug]
    if (!record || !was) return null
    if (was.key !== reuseKey(program, baseUrl, source + notesKey(record.repo), record, was.images, was.community))
      return null
    return present(slug) ? record.repo : null
  }
}

/** An app of this build as the next build's reuse record sees it. */
export interface BuiltApp {
  slug: string
  record: AppRecord
  images: readonly string[] | undefined
  community?: readonly CommunityImage[] | undefined
  categories?: readonly string[] | undefined
  /** YYYY-MM-DD of its latest release, when known. */
  releaseDate?: string | null
  /** Its files depend on nothing but its catalog file and record (carried, or built offline: see reusableEntry). */
  recordable: boolean
}

/** The reuse record of this build: the key of each recordable app, from its catalog file's digest in `sources`. */
export function nextReuseDoc(
  program: string,
  baseUrl: string,
  apps: readonly BuiltApp[],
  sources: ReadonlyMap<string, string>,
  notesKey: NotesKey = () => ''
): string {
  const next = new Map<string, ReuseDoc['apps'][string]>()
  for (const { slug, record, images, community, categories, releaseDate, recordable } of apps) {
    if (!recordable) continue
    const key = reuseKey(program, baseUrl, sources.get(slug)! + notesKey(record.repo), record, images, community)
    next.set(slug, {
      key,
      ...(images ? { images: [...images] } : {}),
      ...(community ? { community: community.map((c) => ({ ...c })) } : {}),
      ...(categories ? { categories: [...categories] } : {}),
      ...(releaseDate ? { released: releaseDate } : {})
    })
  }
  return renderReuseDoc(program, next)
}

/** The reuse record of this build, apps in slug order. */
function renderReuseDoc(program: string, apps: ReadonlyMap<string, ReuseDoc['apps'][string]>): string {
  const doc: ReuseDoc = {
    schema: REUSE_SCHEMA_ID,
    docs:
      'Build cache of updatesafe, not part of its API: what each app was built from, so that the next offline ' +
      'build carries over the files of apps that did not change. Deleting it makes the next build read every app.',
    program,
    apps: Object.fromEntries([...apps].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  }
  return `${JSON.stringify(doc)}\n`
}
