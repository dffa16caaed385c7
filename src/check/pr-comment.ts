// The check's one pull-request comment, found by a hidden marker and updated in place on each push:
// GitHub's REST API, issues/list-comments, issues/create-comment and issues/update-comment. A token
// that may not write (a fork's pull request) gets a reason back, not an exception.
import { hostOf, networkFailure } from '../util/network.js'

export const MARKER = '<!-- updatesafe-check -->'

export interface CommentTarget {
  apiUrl: string
  token: string
  /** owner/name */
  repo: string
  issue: number
  fetch?: typeof fetch
  timeoutMs?: number
}

export type CommentResult = { done: 'created' | 'updated'; url: string } | { done: 'none'; why: string }

/** Past this many pages of comments (100 each) the marker is looked for no further. */
const MAX_PAGES = 30

/** Updates the marked comment, or creates it unless `create` is false (nothing worth a new comment). */
export async function upsertComment(t: CommentTarget, body: string, create = true): Promise<CommentResult> {
  const doFetch = t.fetch ?? fetch
  const base = `${t.apiUrl.replace(/\/+$/, '')}/repos/${t.repo}`
  const timeoutMs = t.timeoutMs ?? 20_000
  const call = async (method: string, url: string, payload?: unknown): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs)
    try {
      return await doFetch(url, {
        method,
        signal: timeout,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${t.token}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'updatesafe-check',
          ...(payload ? { 'content-type': 'application/json' } : {})
        },
        ...(payload ? { body: JSON.stringify(payload) } : {})
      })
    } catch (e) {
      throw new Error(networkFailure(e, hostOf(url), { timeout, timeoutMs })?.message ?? (e as Error).message)
    }
  }
  const refused = (res: Response, what: string): CommentResult => ({
    done: 'none',
    why:
      res.status === 403 || res.status === 404
        ? `the token may not ${what} (HTTP ${res.status}): a pull request from a fork gets a read-only token, or the job lacks permissions: pull-requests: write`
        : `GitHub answered HTTP ${res.status} to ${what}`
  })

  let existing: { id: number } | null = null
  for (let page = 1; page <= MAX_PAGES && existing === null; page++) {
    const res = await call('GET', `${base}/issues/${t.issue}/comments?per_page=100&page=${page}`)
    if (!res.ok) return refused(res, 'read the pull request comments')
    const list = (await res.json()) as { id: number; body?: string | null }[]
    existing = list.find((c) => typeof c.body === 'string' && c.body.includes(MARKER)) ?? null
    if (list.length < 100) break
  }
  if (!existing && !create) return { done: 'none', why: 'nothing to report' }
  const res = existing
    ? await call('PATCH', `${base}/issues/comments/${existing.id}`, { body })
    : await call('POST', `${base}/issues/${t.issue}/comments`, { body })
  if (!res.ok) return refused(res, existing ? 'update its comment' : 'comment on the pull request')
  const doc = (await res.json()) as { html_url?: string }
  return { done: existing ? 'updated' : 'created', url: doc.html_url ?? '' }
}
