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
