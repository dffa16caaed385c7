// An unmapped image found by its source label: the catalog app its repository names, or a reason
// naming the repository; one lookup an image, and no more lookups than the cap.
import { describe, expect, it } from '@jest/globals'
import type { ImageRef } from '../../src/check/images.js'
import { cachedResolve, ownRegistryPackage, resolveByLabel, type Resolve } from '../../src/check/resolve.js'
import type { AppRecord } from '../../src/schema/index.js'

const ref = (name: string, tag = '1.0'): ImageRef => ({ name, tag, digest: null })
const record = { slug: 'demo', repo: 'Demo-Org/Demo' } as AppRecord
const byRepo = new Map([['demo-org/demo', record]])

describe('resolveByLabel', () => {
  it('finds the app whose repository the label names, whatever its case; else says what the label names', async () => {
    const label =
      (source: string): Resolve =>
      () =>
        Promise.resolve({ source })
    expect(
      await resolveByLabel(ref('x/y'), label('https://github.com/demo-org/demo.git'), byRepo, 'resolve-images')
    ).toEqual({ record, source: 'https://github.com/demo-org/demo.git' })
    expect(await resolveByLabel(ref('x/y'), label('https://gitlab.com/a/b'), byRepo, 'resolve-images')).toEqual({
      why: 'resolve-images: its source label names https://gitlab.com/a/b, which is no app of the catalog'
    })
    const fails: Resolve = () => Promise.resolve({ why: 'its registry could not be read: HTTP 500' })
    expect(await resolveByLabel(ref('x/y'), fails, byRepo, '--resolve-images')).toEqual({
      why: '--resolve-images: its registry could not be read: HTTP 500'
    })
  })
})

describe('ownRegistryPackage', () => {
  it('names the app of a ghcr.io package at OWNER/NAME of its repository, in any case, and nothing else', () => {
    const found = { record, source: 'https://github.com/Demo-Org/Demo' }
    expect(ownRegistryPackage(ref('ghcr.io/demo-org/demo'), byRepo)).toEqual(found)
    expect(ownRegistryPackage(ref('GHCR.IO/demo-org/demo'), byRepo)).toEqual(found)
    for (const name of [
      'demo-org/demo', // Docker Hub: anyone may hold a namespace there
      'quay.io/demo-org/demo',
      'ghcr.io/demo-org/demo-web',
      'ghcr.io/someone/demo',
      'ghcr.io/demo-org/demo/nightly',
      'ghcr.io/demo-org'
    ])
      expect(ownRegistryPackage(ref(name), byRepo)).toBeNull()
  })
})

describe('cachedResolve', () => {
  it('asks once an image name and tag, and at most the cap in all', async () => {
    const asked: string[] = []
    const resolve = cachedResolve(
      (r) => {
        asked.push(`${r.name}:${r.tag}`)
        return Promise.resolve({ source: 'https://github.com/demo-org/demo' })
      },
      { max: 2 }
    )
    await resolve(ref('a'))
    await resolve(ref('a'))
    await resolve(ref('b'))
    expect(await resolve(ref('c'))).toEqual({ why: 'not looked up: the first 2 images looked up are all a run reads' })
    expect(asked).toEqual(['a:1.0', 'b:1.0'])
  })

  it('starts no lookup once its time from the first one has run out, whatever the cap', async () => {
    let clock = 1_000
    const asked: string[] = []
    const resolve = cachedResolve(
      (r) => {
        asked.push(r.name)
        clock += 40_000 // a registry that answers slowly
        return Promise.resolve({ why: 'its registry could not be read: timeout' })
      },
      { max: 50, totalMs: 60_000, now: () => clock }
    )
    await resolve(ref('a'))
    await resolve(ref('b'))
    expect(await resolve(ref('c'))).toEqual({ why: 'not looked up: the 60 s a run gives registry lookups ran out' })
    expect(asked).toEqual(['a', 'b'])
  })
})
