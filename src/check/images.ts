// Container image references as Docker Compose's `image:` gives them, read into a name (matched
// against the catalog's `images:` and `community:` builds) and the version the tag says is running.
import { IMAGE_PATTERN, type ImageChannel, type TagRule } from '../schema/index.js'
import { imageKey } from '../util/image-key.js'
import { readTag, type TagReading } from './tag-rules.js'

export interface ImageRef {
  /** The name without tag or digest, as written. */
  name: string
  tag: string | null
  digest: string | null
}

/** `[registry/]path[:tag][@digest]`; null when it is not an image reference at all. */
export function parseImageRef(ref: string): ImageRef | null {
  let rest = ref.trim()
  let digest: string | null = null
  const at = rest.indexOf('@')
  if (at >= 0) {
    digest = rest.slice(at + 1)
    rest = rest.slice(0, at)
  }
  let tag: string | null = null
  const colon = rest.lastIndexOf(':')
  // A colon after the last slash is the tag's; before it, a registry's port.
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1)
    rest = rest.slice(0, colon)
    if (!/^[\w][\w.-]{0,127}$/.test(tag)) return null
  }
  if (!IMAGE_PATTERN.test(rest)) return null
  return { name: rest, tag, digest }
}

/** How a community build's tags name the upstream version (images.json `tags` and `channel`). */
export interface CommunityBuild {
  tags: TagRule
  channel?: ImageChannel
}

export type ImageMatch =
  | {
      slugs: string[]
      /** The slugs whose image this is as a community build, with its tag rule; the others' own images. */
      community: ReadonlyMap<string, CommunityBuild>
    }
  | { untracked: string }

/**
 * Looks image names up in the catalog's `images:` and community builds (every spelling of one image
 * meets at its `imageKey`). An image it does not map says why: not an image reference, or an image of
 * an app the catalog has but under another name, or an app it does not track.
 */
export function imageMatcher(
  images: readonly ({ image: string; slug: string } & Partial<CommunityBuild>)[],
  /** Every app of the catalog, those without images too. */
  apps: Iterable<string> = []
): (ref: string) => ImageMatch {
  const byKey = new Map<string, string[]>()
  const builds = new Map<string, Map<string, CommunityBuild>>()
  const imagesOf = new Map<string, string[]>()
  for (const slug of apps) imagesOf.set(slug, [])
  for (const { image, slug, tags, channel } of images) {
    const key = imageKey(image)
    byKey.set(key, [...new Set([...(byKey.get(key) ?? []), slug])])
    imagesOf.set(slug, [...(imagesOf.get(slug) ?? []), image])
    if (tags) {
      const of = builds.get(key) ?? new Map<string, CommunityBuild>()
      if (!of.has(slug)) of.set(slug, { tags, ...(channel ? { channel } : {}) })
      builds.set(key, of)
    }
  }
  return (written) => {
    const ref = parseImageRef(written)
    if (!ref) return { untracked: 'not an image reference' }
    const key = imageKey(ref.name)
    const slugs = byKey.get(key)
    if (slugs) return { slugs, community: builds.get(key) ?? new Map() }
    // Named after an app of the catalog (`lscr.io/linuxserver/tautulli`): say which images it does map.
    const last = key.split('/').pop()!
    const mapped = imagesOf.get(last)
    if (mapped)
      return {
        untracked:
          mapped.length > 0
            ? `not tracked by this catalog: its app "${last}" maps only ${mapped.slice(0, 4).join(', ')} (if it is the same app: add it to the app's images: when its project publishes it, or to community: with its tag rule when someone else builds it)`
            : `not tracked by this catalog: it has an app "${last}" but maps no image to it (add this one to its images:, or community: for a community build, if it is the same app)`
      }
    return { untracked: 'not tracked by this catalog' }
  }
}

const PRERELEASE_SUFFIX = /^[-.]?(alpha|beta|rc|pre|preview|dev)/i

/**
 * The version a tag says is running: `1.2.3`, `v1.2.3` as written; `1.2.3-alpine` as `1.2.3` (a
 * variant of the image, not of the app); `1.2` as `1.2`; `version-1.2.3` as `1.2.3`. A digest, `latest` or any tag without a
 * leading number names no version.
 */
export function runningVersion(ref: ImageRef): { version: string } | { unknown: string } {
  if (ref.digest !== null && ref.tag === null)
    return { unknown: 'pinned by digest: the digest does not say which version it is' }
  if (ref.tag === null) return { unknown: 'no tag (Compose pulls "latest"): the running version is not known' }
  // `version-6.1.0`: Firefly III's own pinned tags say which version in words.
  const tag = ref.tag.replace(/^version-(?=\d)/, '')
  const m = /^[vV]?\d+(?:\.\d+)*/.exec(tag)
  if (!m) return { unknown: `the tag "${ref.tag}" names no version` }
  const rest = tag.slice(m[0].length)
  if (rest === '' || PRERELEASE_SUFFIX.test(rest)) return { version: tag }
  return { version: m[0] }
}

/**
 * The version an image's tag names: by the community build's tag rule where it is one (`4.0.15.2941-ls301` is
 * 4.0.15.2941), else as the project's own tags say (runningVersion). A project's own image follows the app's
 * stable releases.
 */
export function imageVersion(ref: ImageRef, build?: CommunityBuild): TagReading {
  if (!build) {
    const own = runningVersion(ref)
    return 'version' in own ? { version: own.version, channel: 'stable' } : own
  }
  if (ref.tag === null) return runningVersion(ref) as { unknown: string }
  return readTag(build.tags, build.channel, ref.tag)
}
