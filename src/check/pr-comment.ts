// The check's one pull-request comment, found by a hidden marker in a comment its own identity wrote,
// and updated in place on each push: GitHub's REST API, users/get-authenticated, issues/list-comments,
// issues/create-comment and issues/update-comment. Anyone can write the marker into a comment, so a
// marked comment of another author is never taken as the gate's. A token that may not write (a
// fork's pull request) gets a reason back, not an exception.
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
  /** The login the token writes as; found with GET /user when not given. */
  author?: string
}

export type CommentResult =
  | { done: 'created' | 'updated'; url: string; /** Something the user should set right. */ warning?: string }
  | { done: 'none'; why: string }

/** The workflow's GITHUB_TOKEN writes as the GitHub Actions app's bot. */
export const ACTIONS_BOT = 'github-actions[bot]'

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

  // Who the token writes as: a user's token (a PAT) is answered by GET /user; an installation token
  // (the workflow's GITHUB_TOKEN, a GitHub App's) is refused there (403), and the workflow's writes
  // as github-actions[bot]. A GitHub App's token names its bot with the comment-author input.
  let author = t.author?.trim() || null
  if (!author) {
    const res = await call('GET', `${t.apiUrl.replace(/\/+$/, '')}/user`)
    if (res.ok) {
      const login = ((await res.json()) as { login?: unknown }).login
      if (typeof login !== 'string' || login === '') return { done: 'none', why: 'GET /user answered without a login' }
      author = login
    } else if (res.status === 403) {
      await res.body?.cancel().catch(() => {})
      author = ACTIONS_BOT
    } else {
      await res.body?.cancel().catch(() => {})
      return refused(res, 'say who it is (GET /user)')
    }
  }
  const me = author.toLowerCase()
  const mine = (c: { body?: string | null; user?: { login?: string } | null }) =>
    typeof c.body === 'string' &&
    c.body.includes(MARKER) &&
    typeof c.user?.login === 'string' &&
    c.user.login.toLowerCase() === me

  let existing: { id: number } | null = null
  for (let page = 1; page <= MAX_PAGES && existing === null; page++) {
    const res = await call('GET', `${base}/issues/${t.issue}/comments?per_page=100&page=${page}`)
    if (!res.ok) return refused(res, 'read the pull request comments')
    const list = (await res.json()) as { id: number; body?: string | null; user?: { login?: string } | null }[]
    existing = list.find(mine) ?? null
    if (list.length < 100) break
  }
  if (!existing && !create) return { done: 'none', why: 'nothing to report' }
  const res = existing
    ? await call('PATCH', `${base}/issues/comments/${existing.id}`, { body })
    : await call('POST', `${base}/issues/${t.issue}/comments`, { body })
  if (!res.ok) return refused(res, existing ? 'update its comment' : 'comment on the pull request')
  const doc = (await res.json()) as { html_url?: string; user?: { login?: string } | null }
  const wrote = doc.user?.login
  // An App token without comment-author: this comment would not be found on the next push.
  const warning =
    typeof wrote === 'string' && wrote.toLowerCase() !== me
      ? `the comment was written as ${wrote}, not ${author}: set the input comment-author: ${wrote} so that the next push updates it instead of adding another`
      : undefined
  return { done: existing ? 'updated' : 'created', url: doc.html_url ?? '', ...(warning ? { warning } : {}) }
}
