// `updatesafe check`: for each app a user runs, the verdict of updating from the running version
// to the latest, from a published snapshot's per-release history; as a table or as JSON, and an
// exit status a deploy script or an update bot can gate on.
import { verdictOver, type UpgradeVerdict } from '../classify/upgrade.js'
import {
  catalogDocSchema,
  imagesDocSchema,
  NOT_READ_VERSION,
  releasesDocSchema,
  type AppRecord,
  type Classification,
  type HistoryEntry,
  type ReleasesDoc
} from '../schema/index.js'
import { paths } from '../site/paths.js'
import { problem } from '../util/problems.js'
import type { ComposeService } from './compose.js'
import type { FoundRef } from './refs.js'
import { imageKey } from '../util/image-key.js'
import { imageMatcher, parseImageRef, type CommunityBuild, type ImageMatch, type ImageRef } from './images.js'
import { digestMove, placeImage, placeLabel, type Place, type Placed } from './placement.js'
import { resolveUnmapped, type Resolve, type ResolvedBy } from './resolve.js'
import { required, type SnapshotReader } from './snapshot.js'
import { parseVersion } from '../util/versions.js'

/** `--from app=version`. */
export interface FromArg {
  slug: string
  version: string
}

interface Crossed {
  version: string
  safeToUpdate: Classification
  breakingKind: HistoryEntry['breakingKind']
  security: boolean
  url: string
}

export interface CheckedApp {
  slug: string
  name: string
  /** Where the running version came from: `--from`, a Compose service, a manifest's reference, a pull request. */
  source:
    | { from: 'argument' }
    | {
        from: 'compose'
        file: string
        service: string
        line: number
        image: string
        /** How an image the catalog does not map was found: the repository it names, and by what. */
        resolvedFrom?: string
        resolvedBy?: ResolvedBy
      }
    /** An image reference in a manifest, a Dockerfile or a `.env` file (`--manifest`): `service` is its field. */
    | {
        from: 'manifest'
        file: string
        service: string
        line: number
        image: string
        resolvedFrom?: string
        resolvedBy?: ResolvedBy
      }
    /** A pull request's change of an image: `service` is the field that holds it. */
    | {
        from: 'change'
        file: string
        service: string
        line: number
        image: string
        baseImage: string
        resolvedFrom?: string
        resolvedBy?: ResolvedBy
      }
  /**
   * The running version as its tag gives it (`v3.6`, a floating tag, stays so), the tag as written where it names no
   * version (`latest-alpine`), or null when there is no tag.
   */
  running: string | null
  latest: string
  safeToUpdate: Classification
  rationale: string
  decidedBy: (Crossed & { rationale: string; quote: string | null; evidence: string }) | null
  crossed: Crossed[]
  /** A breaking release lies between the running version and the latest. */
  breaking: boolean
  /** Every breaking release crossed is an urgent fix. */
  urgentOnly: boolean
  /** The app itself is archived upstream. */
  unmaintained: boolean
  /** The update changes the major version (the first number: postgres 16.4 → 18.6). */
  changesMajor: boolean
}

export interface Untracked {
  file: string
  /** The Compose service or the field that holds the image; '' for a whole file not read. */
  service: string
  /** 0 for a whole file not read. */
  line: number
  image: string | null
  reason: string
}

export interface CheckResult {
  snapshot: { generatedAt: string }
  apps: CheckedApp[]
  untracked: Untracked[]
}

function crossedOf(e: HistoryEntry): Crossed {
  return {
    version: e.version,
    safeToUpdate: e.safeToUpdate,
    breakingKind: e.breakingKind,
    security: e.security,
    url: e.url
  }
}

/**
 * Both read as versions and their first numbers differ. Where `to` is only the catalog's latest (a version you run,
 * not a pull request's), a running major above it is a stale catalog, not an update; a pull request's downgrade
 * across a major is still one.
 */
function changesMajor(from: string | null, to: string | null, toLatest: boolean): boolean {
  const a = from === null ? null : parseVersion(from)
  const b = to === null ? null : parseVersion(to)
  if (a === null || b === null) return false
  const [x = 0, y = 0] = [a.numbers[0], b.numbers[0]]
  return toLatest ? x < y : x !== y
}

/** A verdict with nothing judged: the update as shown, unknown for `rationale`. */
function notJudgedVerdict(running: string | null, latest: string, rationale: string): UpgradeVerdict {
  return {
    running: running ?? '',
    latest,
    safeToUpdate: 'unknown',
    rationale,
    decidedBy: null,
    crossed: [],
    urgentOnly: false
  }
}

function checked(
  record: AppRecord,
  source: CheckedApp['source'],
  running: string | null,
  v: UpgradeVerdict
): CheckedApp {
  const d = v.decidedBy
  return {
    slug: record.slug,
    name: record.name,
    source,
    running,
    latest: v.latest || record.latestVersion,
    safeToUpdate: v.safeToUpdate,
    rationale: v.rationale,
    decidedBy: d && { ...crossedOf(d), rationale: d.rationale, quote: d.quote, evidence: d.evidence },
    crossed: v.crossed.map(crossedOf),
    breaking: v.safeToUpdate === 'breaking' || v.crossed.some((e) => e.safeToUpdate === 'breaking'),
    urgentOnly: v.urgentOnly,
    unmaintained: record.safeToUpdate === 'unmaintained',
    changesMajor: changesMajor(running, v.latest || record.latestVersion, source.from !== 'change')
  }
}

/** An image reference a pull request changes: from `baseImage` to `image`, at `file`:`line` (`field` holds it). */
export interface ImageChange {
  file: string
  field: string
  line: number
  baseImage: string
  image: string
}

/**
 * The records an image maps to, less those that another of them replaces: an archived project's image that its
 * successor goes on publishing (`matrixdotorg/synapse`) is the successor's, so a service gets one row, not two.
 */
function oneApp(slugs: readonly string[], records: ReadonlyMap<string, AppRecord>): AppRecord[] {
  const tracked = slugs.map((slug) => records.get(slug)).filter((r): r is AppRecord => r !== undefined)
  const repos = new Set(tracked.map((r) => r.repo.toLowerCase()))
  const current = tracked.filter((r) => !(r.successor && repos.has(r.successor.toLowerCase())))
  return current.length > 0 ? current : tracked
}

/**
 * The apps to judge: every `--from`, every Compose service whose image the catalog tracks (to the
 * latest), and every changed image the catalog tracks (from its old version to its new one).
 */
export async function runCheck(
  reader: SnapshotReader,
  input: {
    from: FromArg[]
    services: ComposeService[]
    /**
     * `--manifest`: the image references of Kubernetes manifests, Helm values, Dockerfiles and `.env` files; a file
     * of a folder that could not be read is one with line 0, never safe.
     */
    refs?: FoundRef[]
    changes?: ImageChange[]
    /** `--resolve-images`: reads an unmapped image's source label from its registry. */
    resolve?: Resolve
    /** The switch that turned `resolve` on, as the reasons name it (default `--resolve-images`). */
    resolveFlag?: string
  }
): Promise<CheckResult> {
  const catalog = await required(reader, paths.catalog, catalogDocSchema)
  const flag = input.resolveFlag ?? '--resolve-images'
  const records = new Map(catalog.apps.map((a) => [a.slug, a]))
  const byRepo = new Map(catalog.apps.map((a) => [a.repo.toLowerCase(), a]))
  const histories = new Map<string, ReleasesDoc | null>()
  const historyOf = async (slug: string) => {
    if (!histories.has(slug)) histories.set(slug, await reader.read(paths.releases(slug), releasesDocSchema))
    return histories.get(slug)!
  }
  /** The update between two places in the app's history, shown as `running` → `latest`. */
  const judge = async (
    record: AppRecord,
    source: CheckedApp['source'],
    running: string,
    latest: string,
    place: (releases: ReleasesDoc['releases']) => { from: Place; to: Place }
  ) => {
    const unread = record.latestVersion === NOT_READ_VERSION
    const history = unread ? null : await historyOf(record.slug)
    if (history === null) {
      const why = unread
        ? `The catalog has not read a release of ${record.slug} yet (a refresh reads them)`
        : `The snapshot publishes no judged releases for ${record.slug} (it predates ${paths.releases('{slug}')})`
      return checked(record, source, running, notJudgedVerdict(running, latest, `${why}: the update is not judged.`))
    }
    const { from, to } = place(history.releases)
    // Spans never read (history gaps) make an update across them unknown, never safe.
    return checked(
      record,
      source,
      running,
      verdictOver(history.releases, from, to, { running, latest, gaps: history.gaps ?? [] })
    )
  }
  const releasesOf = async (slug: string) => (await historyOf(slug))?.releases ?? []

  /** A pull request's change of one app's image, from `base` to `head`. */
  const judgeChange = async (
    record: AppRecord,
    source: Extract<CheckedApp['source'], { from: 'change' }>,
    base: ImageRef | null,
    head: ImageRef,
    headBuild: CommunityBuild | undefined,
    baseMatch: ImageMatch
  ): Promise<CheckedApp> => {
    const history = await historyOf(record.slug)
    const releases = history?.releases ?? []
    const sameApp = 'slugs' in baseMatch && baseMatch.slugs.includes(record.slug)
    const to = placeImage(head, headBuild, releases, record.latestVersion)
    const from: Placed =
      base && sameApp
        ? placeImage(base, baseMatch.community.get(record.slug), releases, record.latestVersion)
        : { shown: null, unknown: 'it is not an image reference' }
    const unknown = !sameApp
      ? `the image was ${source.baseImage}, not one of ${record.slug}'s: there is no earlier version of it to update from`
      : 'unknown' in from
        ? `the version before is not known (${source.baseImage}): ${from.unknown}`
        : 'unknown' in to
          ? `the version after is not known (${source.image}): ${to.unknown}`
          : null
    // A tag that names no version is shown as written, never as the catalog's latest.
    if (unknown !== null || !('place' in from) || !('place' in to))
      return checked(
        record,
        source,
        sameApp ? from.shown : null,
        notJudgedVerdict(
          sameApp ? from.shown : null,
          to.shown ?? (head.digest ? `@${head.digest.slice(0, 19)}` : '?'),
          `The update is not judged: ${unknown}. Pin version tags to have it judged.`
        )
      )
    if (from.shown === to.shown) {
      // One tag, another digest or variant: a rebuild of one release, unless the tag floats over a line.
      const moved = base!.digest !== head.digest ? digestMove(to.place, releases, history?.gaps ?? []) : null
      return checked(
        record,
        source,
        from.shown,
        moved
          ? {
              ...notJudgedVerdict(from.shown, to.shown, `The update is not judged: ${moved.why}.`),
              crossed: moved.mayCarry
            }
          : {
              ...notJudgedVerdict(
                from.shown,
                to.shown,
                `The version stays ${from.shown} (only the digest or the image's variant changes).`
              ),
              safeToUpdate: 'safe'
            }
      )
    }
    return judge(record, source, from.shown, to.shown, () => ({ from: from.place, to: to.place }))
  }

  const apps: CheckedApp[] = []
  for (const f of input.from) {
    const record = records.get(f.slug)
    if (!record)
      throw problem(
        'bad-input',
        `--from ${f.slug}=${f.version}: no app "${f.slug}" in the snapshot at ${reader.where}${slugHint(f.slug, records.keys())}`
      )
    apps.push(
      await judge(record, { from: 'argument' }, f.version, record.latestVersion, (h) => ({
        from: placeLabel(h, f.version),
        to: placeLabel(h, record.latestVersion)
      }))
    )
  }

  const untracked: Untracked[] = []
  // What runs, as written: Compose services, then the references of --manifest files (null: not readable, and why).
  const written = [
    ...input.services.map((s) => ({ ...s, from: 'compose' as const, unreadable: undefined })),
    ...(input.refs ?? []).map((r) => ({
      file: r.file,
      service: r.field,
      line: r.line,
      image: r.image,
      from: 'manifest' as const,
      unreadable: r.unreadable
    }))
  ]
  if (written.length > 0) {
    const images = await required(reader, paths.images, imagesDocSchema)
    const match = imageMatcher(images.images, records.keys())
    for (const s of written) {
      const where = { file: s.file, service: s.service, line: s.line, image: s.image }
      if (s.image === null) {
        untracked.push({ ...where, reason: s.unreadable ?? 'no image: (built from source), so no version to check' })
        continue
      }
      const m = match(s.image)
      let tracked = 'slugs' in m ? oneApp(m.slugs, records) : []
      const ref = parseImageRef(s.image)
      let resolved: { resolvedFrom: string; resolvedBy: ResolvedBy } | undefined
      let reason = 'untracked' in m ? m.untracked : 'not tracked by this catalog'
      const found = tracked.length === 0 && ref ? await resolveUnmapped(ref, byRepo, input.resolve, flag) : null
      if (found && 'record' in found) {
        tracked = [found.record]
        resolved = { resolvedFrom: found.resolvedFrom, resolvedBy: found.resolvedBy }
      } else if (found) reason += `; ${found.why}`
      if (tracked.length === 0 || !ref) {
        untracked.push({ ...where, reason })
        continue
      }
      for (const record of tracked) {
        const source = {
          from: s.from,
          ...where,
          image: s.image,
          ...resolved
        }
        const build = 'slugs' in m ? m.community.get(record.slug) : undefined
        const running = placeImage(ref, build, await releasesOf(record.slug), record.latestVersion)
        if ('place' in running)
          apps.push(
            await judge(record, source, running.shown, record.latestVersion, (h) => ({
              from: running.place,
              to: placeLabel(h, record.latestVersion)
            }))
          )
        else
          apps.push(
            checked(
              record,
              source,
              running.shown,
              notJudgedVerdict(
                running.shown,
                record.latestVersion,
                `The running version is not known: ${running.unknown}. Pin a version tag to have the update judged.`
              )
            )
          )
      }
    }
  }
  const changes = input.changes ?? []
  if (changes.length > 0) {
    const images = await required(reader, paths.images, imagesDocSchema)
    const match = imageMatcher(images.images, records.keys())
    for (const c of changes) {
      const where = { file: c.file, service: c.field, line: c.line, image: c.image }
      let m = match(c.image)
      const head = parseImageRef(c.image)
      const base = parseImageRef(c.baseImage)
      let baseMatch = match(c.baseImage)
      let resolved: { resolvedFrom: string; resolvedBy: ResolvedBy } | undefined
      const found = 'untracked' in m && head ? await resolveUnmapped(head, byRepo, input.resolve, flag) : null
      if (found && 'record' in found) {
        // The image before is the same app's when it is the same image (its tag bumped).
        m = { slugs: [found.record.slug], community: new Map() }
        if (base && imageKey(base.name) === imageKey(head!.name)) baseMatch = m
        resolved = { resolvedFrom: found.resolvedFrom, resolvedBy: found.resolvedBy }
      } else if (found && 'untracked' in m) m = { untracked: `${m.untracked}; ${found.why}` }
      const tracked = 'slugs' in m ? oneApp(m.slugs, records) : []
      if ('untracked' in m || tracked.length === 0 || !head) {
        untracked.push({ ...where, reason: 'untracked' in m ? m.untracked : 'not tracked by this catalog' })
        continue
      }
      for (const record of tracked) {
        const source = {
          from: 'change' as const,
          ...where,
          baseImage: c.baseImage,
          ...resolved
        }
        apps.push(await judgeChange(record, source, base, head, m.community.get(record.slug), baseMatch))
      }
    }
  }
  return { snapshot: { generatedAt: catalog.generatedAt }, apps, untracked }
}

/** `postgres` for `postgresql`: the slugs that hold what was written (or begin it), shortest first, for the error. */
function slugHint(written: string, slugs: Iterable<string>): string {
  const w = written.toLowerCase()
  if (w.length < 3) return ''
  const near = [...slugs]
    .filter((s) => s.includes(w) || (w.startsWith(s) && s.length >= 3))
    .sort((a, b) => a.length - b.length || a.localeCompare(b))
    .slice(0, 3)
  return near.length > 0 ? ` (did you mean ${near.map((s) => `"${s}"`).join(', ')}?)` : ''
}
