// `updatesafe check`: for each app a user runs, the verdict of updating from the running version
// to the latest, from a published snapshot's per-release history; as a table or as JSON, and an
// exit status a deploy script or an update bot can gate on.
import { verdictFrom, type UpgradeVerdict } from '../classify/upgrade.js'
import {
  catalogDocSchema,
  imagesDocSchema,
  releasesDocSchema,
  type AppRecord,
  type Classification,
  type HistoryEntry,
  type ReleasesDoc
} from '../schema/index.js'
import { paths } from '../site/paths.js'
import { problem } from '../util/problems.js'
import type { ComposeService } from './compose.js'
import { imageKey, imageMatcher, imageVersion, parseImageRef, type CommunityBuild, type ImageRef } from './images.js'
import { resolveByLabel, type Resolve } from './resolve.js'
import { required, type SnapshotReader } from './snapshot.js'
import { notJudged, type TagReading } from './tag-rules.js'

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
  /** Where the running version came from: `--from`, or a Compose service. */
  source:
    | { from: 'argument' }
    | {
        from: 'compose'
        file: string
        service: string
        line: number
        image: string
        /** The image's source label, when `--resolve-images` found the app by it. */
        resolvedFrom?: string
      }
    /** A pull request's change of an image: `service` is the field that holds it. */
    | {
        from: 'change'
        file: string
        service: string
        line: number
        image: string
        baseImage: string
        /** The image's source label, when `resolve` found the app by it. */
        resolvedFrom?: string
      }
  /** The running version, or null when the image's tag names none. */
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
}

export interface Untracked {
  file: string
  service: string
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
    unmaintained: record.safeToUpdate === 'unmaintained'
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
  const judge = async (record: AppRecord, running: string, source: CheckedApp['source'], to?: string) => {
    const latest = to ?? record.latestVersion
    const history = await historyOf(record.slug)
    const v =
      history === null
        ? {
            ...verdictFrom([], running, { latest }),
            rationale: `The snapshot publishes no judged releases for ${record.slug} (it predates ${paths.releases('{slug}')}): the update is not judged.`
          }
        : // Spans never read (history gaps) make an update across them unknown, never safe.
          verdictFrom(history.releases, running, { latest, gaps: history.gaps ?? [] })
    return checked(record, source, running, v)
  }
  /**
   * The version an image's tag names for one app, or why it is not judged: a community build's tag is read by its
   * rule, and a develop build or a moving alias counts only where it names a release the app's history holds.
   */
  const versionFor = async (slug: string, ref: ImageRef, build: CommunityBuild | undefined): Promise<TagReading> => {
    const reading = imageVersion(ref, build)
    if (!('version' in reading) || (reading.channel === 'stable' && !reading.alias)) return reading
    const history = await historyOf(slug)
    const labels = history ? history.releases.flatMap((e) => [e.version, e.tag]) : []
    const why = notJudged(ref.name, reading, labels)
    return why === null ? reading : { unknown: why }
  }

  const apps: CheckedApp[] = []
  for (const f of input.from) {
    const record = records.get(f.slug)
    if (!record)
      throw problem('bad-input', `--from ${f.slug}=${f.version}: no app "${f.slug}" in the snapshot at ${reader.where}`)
    apps.push(await judge(record, f.version, { from: 'argument' }))
  }

  const untracked: Untracked[] = []
  if (input.services.length > 0) {
    const images = await required(reader, paths.images, imagesDocSchema)
    const match = imageMatcher(images.images, records.keys())
    for (const s of input.services) {
      const where = { file: s.file, service: s.service, line: s.line, image: s.image }
      if (s.image === null) {
        untracked.push({ ...where, reason: 'no image: (built from source), so no version to check' })
        continue
      }
      const m = match(s.image)
      let tracked = 'slugs' in m ? oneApp(m.slugs, records) : []
      const ref = parseImageRef(s.image)
      let resolvedFrom: string | undefined
      let reason = 'untracked' in m ? m.untracked : 'not tracked by this catalog'
      if (tracked.length === 0 && ref && input.resolve) {
        const found = await resolveByLabel(ref, input.resolve, byRepo, flag)
        if ('record' in found) {
          tracked = [found.record]
          resolvedFrom = found.source
        } else reason += `; ${found.why}`
      }
      if (tracked.length === 0 || !ref) {
        untracked.push({ ...where, reason })
        continue
      }
      for (const record of tracked) {
        const source = {
          from: 'compose' as const,
          ...where,
          image: s.image,
          ...(resolvedFrom ? { resolvedFrom } : {})
        }
        const running = await versionFor(record.slug, ref, 'slugs' in m ? m.community.get(record.slug) : undefined)
        if ('version' in running) apps.push(await judge(record, running.version, source))
        else
          apps.push(
            checked(record, source, null, {
              ...verdictFrom([], '', { latest: record.latestVersion }),
              rationale: `The running version is not known: ${running.unknown}. Pin a version tag to have the update judged.`
            })
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
      let resolvedFrom: string | undefined
      if ('untracked' in m && head && input.resolve) {
        // Found by its label: the image before is the same app's when it is the same image (its tag bumped).
        const found = await resolveByLabel(head, input.resolve, byRepo, flag)
        if ('record' in found) {
          m = { slugs: [found.record.slug], community: new Map() }
          if (base && imageKey(base.name) === imageKey(head.name)) baseMatch = m
          resolvedFrom = found.source
        } else m = { untracked: `${m.untracked}; ${found.why}` }
      }
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
          ...(resolvedFrom ? { resolvedFrom } : {})
        }
        const sameApp = 'slugs' in baseMatch && baseMatch.slugs.includes(record.slug)
        const to = await versionFor(record.slug, head, m.community.get(record.slug))
        const from: TagReading = base
          ? await versionFor(record.slug, base, 'slugs' in baseMatch ? baseMatch.community.get(record.slug) : undefined)
          : { unknown: 'it is not an image reference' }
        const unknown = !sameApp
          ? `the image was ${c.baseImage}, not one of ${record.slug}'s: there is no earlier version of it to update from`
          : 'unknown' in from
            ? `the version before is not known (${c.baseImage}): ${from.unknown}`
            : 'unknown' in to
              ? `the version after is not known (${c.image}): ${to.unknown}`
              : null
        if (unknown !== null || !('version' in from) || !('version' in to)) {
          // The version before is another app's when the image changed app: this app has none.
          apps.push(
            checked(record, source, sameApp && 'version' in from ? from.version : null, {
              ...verdictFrom([], '', { latest: 'version' in to ? to.version : record.latestVersion }),
              rationale: `The update is not judged: ${unknown}. Pin version tags to have it judged.`
            })
          )
        } else if (from.version === to.version) {
          apps.push(
            checked(record, source, from.version, {
              ...verdictFrom([], from.version, { latest: to.version }),
              rationale: `The version stays ${from.version} (only the digest or the image's variant changes).`
            })
          )
        } else apps.push(await judge(record, from.version, source, to.version))
      }
    }
  }
  return { snapshot: { generatedAt: catalog.generatedAt }, apps, untracked }
}
