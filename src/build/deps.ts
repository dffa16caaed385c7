// Builds the real upstream clients from the environment (and the action's
// inputs), once, for both entries. Tests build BuildDeps by hand instead.
import type { BuildDeps } from './pipeline.js'
import type { Logger } from '../util/types.js'
import type { Parallel } from '../workers/index.js'
import { ENDOFLIFE_DEFAULT_URL, fetchProduct } from '../upstream/endoflife.js'
import { githubEndpoints } from '../upstream/github/endpoints.js'

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

export function buildDeps(settings: UpstreamSettings, log: Logger, now: Date, parallel?: Parallel): BuildDeps {
  const { token } = settings
  return {
    log,
    ...(parallel ? { parallel } : {}),
    refresh: token
      ? async (targets) => {
          // Loaded on first use: Octokit and its HTTP stack add about 7 MB of heap and
          // 20 MB of RSS from the start of every build, and an offline build never calls them.
          const { refreshFromGitHub } = await import('../upstream/github/refresh.js')
          return refreshFromGitHub(targets, {
            token,
            apiUrl: settings.apiUrl,
            graphqlUrl: settings.graphqlUrl,
            now,
            log
          })
        }
      : async () => {
          throw new Error('--refresh needs a GitHub token: set GITHUB_TOKEN (or the action input github-token)')
        },
    fetchProduct: (product) => fetchProduct(product, { baseUrl: settings.endoflifeUrl, log })
  }
}
