import { describe, expect, it } from '@jest/globals'
import { defaultBaseUrl, pagesUrlFor, upstreamSettings } from '../src/inputs.js'

describe('inputs', () => {
  it('derives the GitHub Pages address of a repository', () => {
    expect(pagesUrlFor('Octo-Org/updatesafe')).toBe('https://octo-org.github.io/updatesafe')
    expect(pagesUrlFor('octo/octo.github.io')).toBe('https://octo.github.io')
    expect(defaultBaseUrl({ GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'me/cat' })).toBe('https://me.github.io/cat')
    expect(defaultBaseUrl({ GITHUB_REPOSITORY: 'me/cat' })).toBe('http://localhost:8080')
  })

  it('takes the token from the action input before the environment, and an empty one as none', () => {
    expect(upstreamSettings({ GITHUB_TOKEN: 'env' }, { token: 'input' }).token).toBe('input')
    expect(upstreamSettings({ GITHUB_TOKEN: 'env' }).token).toBe('env')
    expect(upstreamSettings({ GITHUB_TOKEN: '' }).token).toBeUndefined()
    expect(upstreamSettings({}).endoflifeUrl).toBe('https://endoflife.date')
  })
})
