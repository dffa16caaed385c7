import { describe, expect, it } from '@jest/globals'
import { CLASSES } from '../../src/schema/index.js'
import {
  appDocSlug,
  appUrls,
  feedUrls,
  normaliseBaseUrl,
  paths,
  relativeLink,
  rootLink,
  SLUG_PLACEHOLDER
} from '../../src/site/paths.js'

describe('paths', () => {
  it('normalises base URLs and rejects unusable ones', () => {
    expect(normaliseBaseUrl('https://example.org/catalog/')).toBe('https://example.org/catalog')
    expect(normaliseBaseUrl('http://localhost:8080')).toBe('http://localhost:8080')
    expect(() => normaliseBaseUrl('example.org')).toThrow('not an absolute URL')
    expect(() => normaliseBaseUrl('ftp://example.org')).toThrow('http or https')
    expect(() => normaliseBaseUrl('https://example.org/?x=1')).toThrow('query')
  })

  it('builds url and badge from the slug', () => {
    expect(appUrls('https://x.io/c', 'adguard-home')).toEqual({
      url: 'https://x.io/c/apps/adguard-home/',
      badge: 'https://x.io/c/badge/adguard-home.svg'
    })
  })

  it('names every published file the spec and the README document', () => {
    expect([paths.catalog, paths.app('a'), paths.shields('a'), paths.changes]).toEqual([
      'api/v1/apps.json',
      'api/v1/apps/a.json',
      'api/v1/badge/a.json',
      'api/v1/changes.json'
    ])
    expect([paths.badge('a'), paths.page('a'), paths.appFeed('a'), paths.feed, paths.notFound]).toEqual([
      'badge/a.svg',
      'apps/a/index.html',
      'apps/a/feed.xml',
      'feed.xml',
      '404.html'
    ])
    expect(CLASSES.map((c) => paths.classFeed(c))).toContain('feeds/breaking.xml')
    expect(feedUrls('https://x.io')).toBe(
      'https://x.io/feed.xml, https://x.io/feeds/{class}.xml, https://x.io/apps/{slug}/feed.xml'
    )
  })

  it('reads the slug back from a per-app document path, and nothing else', () => {
    expect(appDocSlug(paths.app('miniflux'))).toBe('miniflux')
    expect(appDocSlug(paths.app(SLUG_PLACEHOLDER))).toBe(SLUG_PLACEHOLDER)
    for (const other of [paths.catalog, paths.changes, paths.shields('a'), 'api/v1/apps/a/b.json', 'api/v1/apps/.json'])
      expect(appDocSlug(other)).toBeNull()
  })

  it('links between pages relatively, so the site works under any base path', () => {
    expect(relativeLink(paths.page('a'), paths.badge('a'))).toBe('../../badge/a.svg')
    expect(relativeLink(paths.page('a'), paths.appFeed('a'))).toBe('feed.xml')
    expect(relativeLink(paths.index, paths.pageDir('a'))).toBe('apps/a/')
    expect(rootLink(paths.page('a'))).toBe('../../')
    expect(rootLink(paths.index)).toBe('')
  })
})
