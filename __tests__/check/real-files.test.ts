// The real homelab files of the shared data set (../shared/data/compose/, read in place, never
// copied): every image reference whose app the catalog has is matched to it, whatever the
// spelling, and each reference the tool cannot judge says why.
import { expect } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { loadCatalog } from '../../src/catalog/load.js'
import { imageMatcher, parseImageRef, runningVersion } from '../../src/check/images.js'
import { findImageRefs } from '../../src/check/refs.js'
import { describe, it } from '../support/needs-shared-data.js'
import { readSharedJsonl, sharedPath } from '../support/shared-data.js'

const quiet = { info: () => {}, warning: () => {}, error: () => {} }

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
    const match = imageMatcher(
      entries.flatMap((e) => (e.entry.images ?? []).map((image) => ({ image, slug: e.slug }))),
      slugs
    )
    // Which app each image of the data set's list belongs to (official, library and community images).
    const listed = readSharedJsonl<{ slug: string; image: string; kind: string }>(sharedPath('images/images.jsonl'))
    const appOf = new Map(listed.filter((l) => slugs.has(l.slug)).map((l) => [plainName(l.image), l]))

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
            // Only a community build the catalog does not map stays unmatched, and it says so.
            expect({ at: `${file}:${r.line}`, kind: listedAs.kind }).toEqual({
              at: `${file}:${r.line}`,
              kind: 'community'
            })
            expect({ image: r.image, why: m.untracked }).toEqual({
              image: r.image,
              why: expect.stringMatching(
                /^not tracked by this catalog: (its app .* maps only .* community build|it has an app .* but maps no image)/
              )
            })
            counts.communityUnmapped++
          }
        } else if ('untracked' in m) expect(m.untracked).toMatch(/^not (tracked by this catalog|an image reference)/)
        if ('slugs' in m) {
          const v = runningVersion(parseImageRef(r.image)!)
          if ('version' in v) counts.versioned++
          else expect(v.unknown).toMatch(/names no version|digest|no tag/)
        }
      }
    }
    // Figures of the data set read 2026-11-28 with the catalog's images: (106 records).
    expect(counts).toEqual({
      refs: 196,
      unreadable: 4,
      ofCatalogApps: 68,
      matched: 65,
      communityUnmapped: 3,
      versioned: 45
    })
  })
})
