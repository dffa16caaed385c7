// Builds the real upstream clients from the environment (and the action's
// inputs), once, for both entries. Tests build BuildDeps by hand instead.
import type { BuildDeps } from './pipeline.js'
import type { Logger } from '../util/types.js'
import { DEFAULT_REFRESH_DEADLINE_SECONDS, DEFAULT_REQUEST_TIMEOUT_SECONDS, type UpstreamSettings } from '../inputs.js'
import { EndoflifeError, fetchProduct } from '../upstream/endoflife.js'
import { programDigest } from './reuse.js'

export function buildDeps(settings: UpstreamSettings, log: Logger, now: Date): BuildDeps {
  const { token } = settings
  // One deadline for the whole refresh, GitHub and endoflife.date alike, counted from here (the run's start).
  const deadline = AbortSignal.timeout((settings.refreshDeadlineSeconds ?? DEFAULT_REFRESH_DEADLINE_SECONDS) * 1000)
  const requestTimeoutMs = (settings.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS) * 1000
  // endoflife.date unreachable (DNS, refused, silent): one product says so for all the others.
  let endoflifeDown: string | null = null
  return {
    log,
    program: programDigest(),
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
            log,
            requestTimeoutMs,
            deadline
          })
        }
      : async () => {
          throw new Error('--refresh needs a GitHub token: set GITHUB_TOKEN (or the action input github-token)')
        },
    fetchProduct: async (product) => {
      if (endoflifeDown)
        throw new EndoflifeError(`endoflife.date was not asked for "${product}" (${endoflifeDown})`, false)
      try {
        return await fetchProduct(product, {
          baseUrl: settings.endoflifeUrl,
          log,
          timeoutMs: requestTimeoutMs,
          deadline
        })
      } catch (e) {
        if (e instanceof EndoflifeError && e.network && e.network !== 'other') endoflifeDown = e.message
        throw e
      }
    }
  }
}
