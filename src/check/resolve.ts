// An image the catalog does not map, found by its source label (oci.ts reads it from the registry):
// the app whose GitHub repository the label names, or the reason it is still untracked, naming the
// repository the label gives. One lookup an image name and tag, however often a run meets it.
import type { AppRecord } from '../schema/index.js'
import { imageKey } from '../util/image-key.js'
import type { ImageRef } from './images.js'
import { githubRepoOf } from './oci.js'

/** Reads an image's source label, or says why it could not. */
export type Resolve = (ref: ImageRef) => Promise<{ source: string } | { why: string }>

/** The app an unmapped image's label names, or the words to add to its "not tracked" reason. */
export type Resolved = { record: AppRecord; source: string } | { why: string }

/**
 * The app whose GitHub repository an unmapped `ghcr.io/OWNER/NAME` image is named after, found without a lookup:
 * GitHub's container registry gives each account its own namespace, so only OWNER publishes there, and the package
 * named like its repository is that repository's image (`ghcr.io/n8n-io/n8n`). Deeper paths and other names are not
 * guessed at.
 */
export function ownRegistryPackage(
  ref: ImageRef,
  byRepo: ReadonlyMap<string, AppRecord>
): { record: AppRecord; source: string } | null {
  const m = /^ghcr\.io\/([^/]+\/[^/]+)$/.exec(imageKey(ref.name))
  const record = m ? byRepo.get(m[1]!.toLowerCase()) : undefined
  return record ? { record, source: `https://github.com/${record.repo}` } : null
}

/**
 * How `check` found the app of an image the catalog does not map: `registry-namespace`, a `ghcr.io` package
 * named like the app's repository under its owner's account (offline); `source-label`, the image's
 * `org.opencontainers.image.source` label read from its registry (`--resolve-images`).
 */
export type ResolvedBy = 'registry-namespace' | 'source-label'

/**
 * The app of an image the catalog does not map: by its ghcr.io namespace first (no lookup), else by its source
 * label when `resolve` is given; null when neither was tried, else the words a failed lookup adds to the reason.
 */
export async function resolveUnmapped(
  ref: ImageRef,
  byRepo: ReadonlyMap<string, AppRecord>,
  resolve: Resolve | undefined,
  flag: string
): Promise<{ record: AppRecord; resolvedFrom: string; resolvedBy: ResolvedBy } | { why: string } | null> {
  const own = ownRegistryPackage(ref, byRepo)
  if (own) return { record: own.record, resolvedFrom: own.source, resolvedBy: 'registry-namespace' }
  if (!resolve) return null
  const found = await resolveByLabel(ref, resolve, byRepo, flag)
  return 'record' in found ? { record: found.record, resolvedFrom: found.source, resolvedBy: 'source-label' } : found
}

/**
 * The app of `ref` by its label: `records` by repository (lower case). `flag` names the switch in the
 * reason (`--resolve-images` on the command line, `resolve-images` in the action).
 */
export async function resolveByLabel(
  ref: ImageRef,
  resolve: Resolve,
  byRepo: ReadonlyMap<string, AppRecord>,
  flag: string
): Promise<Resolved> {
  const found = await resolve(ref)
  if ('why' in found) return { why: `${flag}: ${found.why}` }
  const repo = githubRepoOf(found.source)
  const record = repo ? byRepo.get(repo.toLowerCase()) : undefined
  if (record) return { record, source: found.source }
  return {
    why: `${flag}: its source label names ${found.source.slice(0, 200)}, which is no app of the catalog`
  }
}

/** How many lookups a run makes at most, and for how long it starts new ones (from its first, by `now`). */
export interface ResolveBudget {
  max?: number
  totalMs?: number
  now?: () => number
}

/**
 * `resolve` asked at most once for each image name and tag (a pull request or a Compose file often names one image
 * many times), at most `max` times in all, and not once `totalMs` have passed since the first lookup (a registry
 * that answers slowly would otherwise hold the run for each image): past either, the reason says the lookups ran out.
 */
export function cachedResolve(
  resolve: Resolve,
  { max = Infinity, totalMs = Infinity, now = Date.now }: ResolveBudget = {}
): Resolve {
  const cache = new Map<string, ReturnType<Resolve>>()
  let started: number | null = null
  return (ref) => {
    const key = `${ref.name}:${ref.tag ?? ''}@${ref.digest ?? ''}`
    let answer = cache.get(key)
    if (!answer) {
      started ??= now()
      answer =
        cache.size >= max
          ? Promise.resolve({ why: `not looked up: the first ${max} images looked up are all a run reads` })
          : now() - started >= totalMs
            ? Promise.resolve({ why: `not looked up: the ${totalMs / 1000} s a run gives registry lookups ran out` })
            : resolve(ref)
      cache.set(key, answer)
    }
    return answer
  }
}
