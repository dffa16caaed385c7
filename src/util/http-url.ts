import { URL_CREDENTIALS } from './redact.js'

/**
 * The normalised absolute URL when `input` is an http(s) URL, otherwise null.
 * Anything else (javascript:, data:, relative, with credentials, garbage) must
 * never become a link or a published address.
 */
export function safeHttpUrl(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 2048) return null
  let u: URL
  try {
    u = new URL(input)
  } catch {
    return null
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null
  if (u.username || u.password) return null
  return u.href
}

/**
 * A URL as it may be printed: user name and password removed (`http://user:pass@host/x` is
 * `http://host/x`). Text that does not parse as a URL loses what looks like `user:pass@` after
 * `://`: the shape redact() blanks, one pattern for both.
 */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url)
    if (!u.username && !u.password) return url
    u.username = ''
    u.password = ''
    return u.href
  } catch {
    return url.replace(URL_CREDENTIALS, '$1')
  }
}
