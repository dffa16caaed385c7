import { describe, expect, it } from '@jest/globals'
import { appUrls, defaultBaseUrl, normaliseBaseUrl, pagesUrlFor } from '../../src/site/paths.js'

describe('urls', () => {
  it('normalises base URLs and rejects unusable ones', () => {
    expect(normaliseBaseUrl('https://example.org/catalog/')).toBe('https://example.org/catalog')
    expect(normaliseBaseUrl('http://localhost:8080')).toBe('http://localhost:8080')
    expect(() => normaliseBaseUrl('example.org')).toThrow('not an absolute URL')
    expect(() => normaliseBaseUrl('ftp://example.org')).toThrow('http or https')
    expect(() => normaliseBaseUrl('https://example.org/?x=1')).toThrow('query')
  })

  it('derives the GitHub Pages address of a repository', () => {
    expect(pagesUrlFor('Octo-Org/updatesafe')).toBe('https://octo-org.github.io/updatesafe')
    expect(pagesUrlFor('octo/octo.github.io')).toBe('https://octo.github.io')
    expect(defaultBaseUrl({ GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'me/cat' })).toBe('https://me.github.io/cat')
    expect(defaultBaseUrl({ GITHUB_REPOSITORY: 'me/cat' })).toBe('http://localhost:8080')
  })

  it('builds url and badge from the slug', () => {
    expect(appUrls('https://x.io/c', 'adguard-home')).toEqual({
      url: 'https://x.io/c/apps/adguard-home/',
      badge: 'https://x.io/c/badge/adguard-home.svg'
    })
  })
})
