// The real homelab files of the shared data set (../shared/data/compose/, read in place, never
// copied): every image reference whose app the catalog has is matched to it, whatever the
// spelling, and each reference the tool cannot judge says why.
import { expect } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { loadCatalog } from '../../src/catalog/load.js'
import { imageMatcher, imageVersion, parseImageRef } from '../../src/check/images.js'
import type { LoadedEntry } from '../../src/catalog/load.js'
import { findImageRefs } from '../../src/check/refs.js'
import { describe, it } from '../support/needs-shared-data.js'
import { readSharedJsonl, sharedPath } from '../support/shared-data.js'

const quiet = { info: () => {}, warning: () => {}, error: () => {} }

/** The matcher check builds from a catalog: its own images and its community builds with their tag rules. */
function catalogMatcher(entries: LoadedEntry[]) {
  return imageMatcher(
    entries.flatMap((e) => [
      ...(e.entry.images ?? []).map((image) => ({ image, slug: e.slug })),
      ...(e.entry.community ?? []).map((c) => ({ ...c, slug: e.slug }))
    ]),
    entries.map((e) => e.slug)
  )
}

/**
 * The test's own reading of a name, kept apart from imageKey on purpose: tag and digest off,
 * Docker Hub's and its mirrors' prefixes off, LinuxServer's two registries one.
 */
function plainName(ref: string): string {
  let n = ref.replace(/@sha256:[0-9a-f]+$/, '')
  n = n.replace(/:[\w][\w.-]*$/, '').toLowerCase()
  for (const p of ['docker.io/', 'index.docker.io/', 'public.ecr.aws/docker/', 'lscr.io/'])
    if (n.startsWith(p)) n = n.slice(p.length)
  return n.replace(/^library\//, '')
}

describe('the real files of ../shared/data/compose/', () => {
  it('matches every reference whose app the catalog has, and says why for the rest', async () => {
    const dir = sharedPath('compose/files')
    const sources = readSharedJsonl<{ file: string; kind: string }>(sharedPath('compose/sources.jsonl'))
    const files = readdirSync(dir).sort()
    expect(files).toEqual(sources.map((s) => s.file).sort())
    const entries = await loadCatalog('catalog', quiet)
    const slugs = new Set(entries.map((e) => e.slug))
    const match = catalogMatcher(entries)
    // Which app each image of the data set's lists belongs to (official, library and community builds), by repo.
    const slugOfRepo = new Map(entries.map((e) => [e.entry.repo.toLowerCase(), e.slug]))
    const appOf = new Map<string, { slug: string; kind: string }>()
    for (const l of readSharedJsonl<{ repo: string | null; image: string; kind?: string }>(
      sharedPath('images/images.jsonl')
    )
      .concat(readSharedJsonl(sharedPath('images/more-images.jsonl')))
      .concat(readSharedJsonl(sharedPath('images/community.jsonl')))) {
      const slug = l.repo ? slugOfRepo.get(l.repo.toLowerCase()) : undefined
      if (slug && slugs.has(slug)) appOf.set(plainName(l.image), { slug, kind: l.kind ?? 'community' })
    }
    // Images a record names as not mapped (they follow another version stream: immich's Postgres) stay untracked.
    const leftOut = new Set(
      readdirSync('catalog/apps').flatMap((f) =>
        [...readFileSync(path.join('catalog/apps', f), 'utf8').matchAll(/^# Not mapped: (\S+),/gm)].map((m) => m[1]!)
      )
    )
    expect(leftOut.has('ghcr.io/immich-app/postgres')).toBe(true)
    for (const image of leftOut) appOf.delete(plainName(image))

    const counts = { refs: 0, unreadable: 0, ofCatalogApps: 0, matched: 0, communityUnmapped: 0, versioned: 0 }
    for (const file of files) {
      for (const r of findImageRefs(file, readFileSync(path.join(dir, file), 'utf8'))) {
        counts.refs++
        if (r.image === null) {
          counts.unreadable++
          expect(r.unreadable).toMatch(/a template decides it/)
          continue
        }
        const m = match(r.image)
        const listedAs = appOf.get(plainName(r.image))
        if (listedAs) {
          counts.ofCatalogApps++
          if ('slugs' in m) {
            counts.matched++
            expect({ at: `${file}:${r.line}`, slugs: m.slugs }).toEqual({
              at: `${file}:${r.line}`,
              slugs: expect.arrayContaining([listedAs.slug])
            })
          } else {
            // Official and community builds alike: a service of a catalog app is tracked.
            expect({ at: `${file}:${r.line}`, image: r.image, why: m.untracked }).toBe('matched')
            counts.communityUnmapped++
          }
        } else if ('untracked' in m) expect(m.untracked).toMatch(/^not (tracked by this catalog|an image reference)/)
        else expect(leftOut.has(plainName(r.image))).toBe(false)
        if ('slugs' in m) {
          const v = imageVersion(parseImageRef(r.image)!, m.community.get(m.slugs[0]!))
          if ('version' in v) counts.versioned++
          else expect(v.unknown).toMatch(/names no version|digest|no tag/)
        }
      }
    }
    // Figures of the data set's three files with the 1,240-app catalog: every service of a catalog app is tracked.
    expect(counts).toEqual({
      refs: 196,
      unreadable: 4,
      ofCatalogApps: 127,
      matched: 127,
      communityUnmapped: 0,
      versioned: 63
    })
  })

  // Issue 57's measure (bench/image-coverage.mjs runs the same through `check --compose` and lists what is left).
  it('maps at least 70% of the image updates real homelabs make to a catalog app', async () => {
    const match = catalogMatcher(await loadCatalog('catalog', quiet))
    const usage = readSharedJsonl<{ image: string; bumps: number }>(sharedPath('images/homelab-usage.jsonl'))
    expect(usage.length).toBeGreaterThan(700)
    let all = 0
    let mapped = 0
    for (const u of usage) {
      all += u.bumps
      if ('slugs' in match(u.image)) mapped += u.bumps
    }
    expect(mapped / all).toBeGreaterThanOrEqual(0.7)
  })
})
