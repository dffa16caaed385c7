// Builds the real upstream clients from the environment (and the action's
// inputs), once, for both entries. Tests build BuildDeps by hand instead.
import type { BuildDeps } from './pipeline.js'
import type { Logger } from '../util/types.js'
import type { UpstreamSettings } from '../inputs.js'
import { fetchProduct } from '../upstream/endoflife.js'

export function buildDeps(settings: UpstreamSettings, log: Logger, now: Date): BuildDeps {
  const { token } = settings
  return {
    log,
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
