// A URL as it may be printed: never with its user name and password, parsed or not.
import { describe, expect, it } from '@jest/globals'
import { withoutCredentials } from '../../src/util/http-url.js'
import { redact } from '../../src/util/redact.js'

describe('withoutCredentials', () => {
  it('drops the credentials of a URL, and leaves one without them as written', () => {
    expect(withoutCredentials('https://demo:pw@example.test/snap')).toBe('https://example.test/snap')
    expect(withoutCredentials('https://example.test/snap/')).toBe('https://example.test/snap/')
  })

  it('drops what redact() blanks from text that is no URL', () => {
    const text = 'http://demo:pw@exa mple.test/x'
    expect(() => new URL(text)).toThrow()
    expect(withoutCredentials(text)).toBe('http://exa mple.test/x')
    expect(redact(text)).toBe('http://***@exa mple.test/x')
  })
})
