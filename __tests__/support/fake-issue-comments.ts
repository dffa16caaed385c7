// A local stand-in for GitHub's REST issue comments on 127.0.0.1 (port 0), for the pull-request
// check. Each request is held to the operation of GitHub's OpenAPI description
// (github/rest-api-description, api.github.com) it calls — method, path template, query and the
// body's required fields and types — and answered with the fields of an `issue-comment`.
// A request no operation describes is answered 404 and recorded as a violation.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** The operations the check uses, as the OpenAPI description gives them. */
export const OPERATIONS = [
  {
    operationId: 'users/get-authenticated',
    method: 'GET',
    path: /^\/user$/,
    query: [],
    body: null
  },
  {
    operationId: 'issues/list-comments',
    method: 'GET',
    path: /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/,
    query: ['since', 'per_page', 'page'],
    body: null
  },
  {
    operationId: 'issues/create-comment',
    method: 'POST',
    path: /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/,
    query: [],
    body: { required: { body: 'string' } }
  },
  {
    operationId: 'issues/update-comment',
    method: 'PATCH',
    path: /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/,
    query: [],
    body: { required: { body: 'string' } }
  }
] as const

export interface CommentRecord {
  id: number
  issue: number
  body: string
  /** The author's login. */
  user: string
}

/**
 * Who a token is, as GitHub answers: an installation token (`ghs_`: the workflow's GITHUB_TOKEN, a
 * GitHub App's) writes as its app's bot and gets 403 from GET /user; a user's token writes as the user.
 */
export interface Identity {
  login: string
  installation: boolean
}

export interface FakeComments {
  url: string
  comments: CommentRecord[]
  calls: { operationId: string; method: string; path: string; auth: string | undefined }[]
  violations: string[]
  /** Answer writes (create, update) with this status: 403 as for a fork's read-only token. */
  refuseWrites: number | null
  /** Tokens (without `Bearer `) and who they are; an unknown `ghs_` token is github-actions[bot]. */
  identities: Record<string, Identity>
  close(): Promise<void>
}

export async function startFakeComments(repo: string): Promise<FakeComments> {
  const state: Omit<FakeComments, 'url' | 'close'> = {
    comments: [],
    calls: [],
    violations: [],
    refuseWrites: null,
    identities: {}
  }
  const whoIs = (auth: string | undefined): Identity | null => {
    const token = /^(?:Bearer|token) (\S+)$/.exec(auth ?? '')?.[1]
    if (!token) return null
    return (
      state.identities[token] ??
      (token.startsWith('ghs_') ? { login: 'github-actions[bot]', installation: true } : null)
    )
  }
  let nextId = 1000
  const asGitHub = (origin: string, c: CommentRecord) => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${origin}/repos/${repo}/issues/comments/${c.id}`,
    html_url: `https://github.com/${repo}/pull/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${origin}/repos/${repo}/issues/${c.issue}`,
    body: c.body,
    user: {
      login: c.user,
      id: c.user === 'github-actions[bot]' ? 41898282 : 1000 + c.user.length,
      type: c.user.endsWith('[bot]') ? 'Bot' : 'User'
    },
    created_at: '2026-11-28T04:00:00Z',
    updated_at: '2026-11-28T04:00:00Z',
    author_association: 'NONE'
  })
  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (d: Buffer) => (raw += d.toString()))
    req.on('end', () => {
      const origin = `http://${req.headers.host}`
      const u = new URL(req.url ?? '/', origin)
      const op = OPERATIONS.find((o) => o.method === req.method && o.path.test(u.pathname))
      const send = (status: number, doc: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(doc))
      if (!op) {
        state.violations.push(`${req.method} ${u.pathname}: no operation of the description`)
        return send(404, { message: 'Not Found' })
      }
      state.calls.push({
        operationId: op.operationId,
        method: op.method,
        path: u.pathname,
        auth: req.headers.authorization
      })
      const who = whoIs(req.headers.authorization)
      if (!who) return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' })
      if (op.operationId === 'users/get-authenticated') {
        if (raw !== '') state.violations.push(`${op.operationId}: a GET with a body`)
        if (who.installation)
          return send(403, {
            message: 'Resource not accessible by integration',
            documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
            status: '403'
          })
        return send(200, { login: who.login, id: 583231, type: 'User', site_admin: false })
      }
      const [, owner, name, num] = op.path.exec(u.pathname)!
      if (`${owner}/${name}` !== repo) return send(404, { message: 'Not Found' })
      for (const q of u.searchParams.keys())
        if (!(op.query as readonly string[]).includes(q)) state.violations.push(`${op.operationId}: unknown query ${q}`)
      let body: Record<string, unknown> | null = null
      if (op.body) {
        try {
          body = JSON.parse(raw) as Record<string, unknown>
        } catch {
          state.violations.push(`${op.operationId}: body is not JSON`)
          return send(400, { message: 'Problems parsing JSON' })
        }
        for (const [k, t] of Object.entries(op.body.required))
          if (typeof body[k] !== t) {
            state.violations.push(`${op.operationId}: body.${k} is not a ${t}`)
            return send(422, { message: 'Validation Failed' })
          }
        if (req.headers['content-type'] !== 'application/json')
          state.violations.push(`${op.operationId}: content-type ${req.headers['content-type']}`)
      } else if (raw !== '') state.violations.push(`${op.operationId}: a GET with a body`)
      if (op.operationId === 'issues/list-comments') {
        const perPage = Number(u.searchParams.get('per_page') ?? 30)
        const page = Number(u.searchParams.get('page') ?? 1)
        const all = state.comments.filter((c) => c.issue === Number(num))
        return send(
          200,
          all.slice((page - 1) * perPage, page * perPage).map((c) => asGitHub(origin, c))
        )
      }
      if (state.refuseWrites !== null)
        return send(state.refuseWrites, {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
          status: String(state.refuseWrites)
        })
      if (op.operationId === 'issues/create-comment') {
        const c = { id: nextId++, issue: Number(num), body: String(body!.body), user: who.login }
        state.comments.push(c)
        return send(201, asGitHub(origin, c))
      }
      const c = state.comments.find((x) => x.id === Number(num))
      if (!c) return send(404, { message: 'Not Found' })
      // As on GitHub, a token with write access may edit anyone's comment: the check must not.
      c.body = String(body!.body)
      return send(200, asGitHub(origin, c))
    })
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const fake: FakeComments = Object.assign(state, {
    url,
    close: () => new Promise<void>((ok) => server.close(() => ok()))
  })
  return fake
}
