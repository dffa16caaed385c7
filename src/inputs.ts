// What a run takes from its environment besides flags and action inputs: the
// upstream endpoints and token, and where the site will be served.
import { ENDOFLIFE_DEFAULT_URL } from './upstream/endoflife.js'
import { githubEndpoints } from './upstream/github/endpoints.js'

export interface UpstreamSettings {
  token: string | undefined
  apiUrl: string
  graphqlUrl: string
  endoflifeUrl: string
}

export function upstreamSettings(
  env: NodeJS.ProcessEnv,
  overrides: { token?: string; endoflifeUrl?: string } = {}
): UpstreamSettings {
  return {
    token: overrides.token || env.GITHUB_TOKEN || undefined,
    ...githubEndpoints(env),
    endoflifeUrl: overrides.endoflifeUrl || env.ENDOFLIFE_API_URL || ENDOFLIFE_DEFAULT_URL
  }
}

/**
 * Where GitHub Pages serves a repository: `<owner>.github.io` for the
 * `<owner>.github.io` repository itself, `<owner>.github.io/<repo>` otherwise.
 */
export function pagesUrlFor(githubRepository: string): string {
  const [owner, repo] = githubRepository.split('/')
  if (!owner || !repo) throw new Error(`GITHUB_REPOSITORY "${githubRepository}" is not <owner>/<repo>`)
  const host = `${owner.toLowerCase()}.github.io`
  return repo.toLowerCase() === host ? `https://${host}` : `https://${host}/${repo}`
}

/** The default base URL: the repository's Pages address in GitHub Actions, else the local preview. */
export function defaultBaseUrl(env: NodeJS.ProcessEnv): string {
  if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_REPOSITORY) return pagesUrlFor(env.GITHUB_REPOSITORY)
  return 'http://localhost:8080'
}
