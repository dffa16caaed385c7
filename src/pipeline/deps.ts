// Builds the real upstream clients from the environment (and the action's
// inputs), once, for both entries. Tests build BuildDeps by hand instead.
import type { BuildDeps, JudgeNote } from './pipeline.js'
import type { Logger } from '../util/types.js'
import { DEFAULT_REFRESH_DEADLINE_SECONDS, DEFAULT_REQUEST_TIMEOUT_SECONDS, type UpstreamSettings } from '../inputs.js'
import { EndoflifeError, fetchProduct } from '../upstream/endoflife.js'
import { DEFAULT_MAX_MODEL_CALLS, DEFAULT_MODEL, MODELS_DEFAULT_ENDPOINT } from '../upstream/models.js'
import { modelAsker, modelList, type ModelAsker } from './judge-models.js'
import { programDigest } from './reuse.js'

/** Longest wait for one model answer: a model writes its answer for seconds, longer than an API lookup. */
const MODEL_TIMEOUT_MS = 60_000

/**
 * The model judge the settings ask for: a model where a token exists (the default) or where `judge: models` says
 * so; the rules when `judge: rules` says so or no token exists (with a warning when a model was asked for).
 */
export function modelJudge(
  settings: UpstreamSettings,
  log: Logger,
  say: Pick<Logger, 'info' | 'warning'> = log
): ModelAsker | null {
  if (settings.judge === 'rules') return null
  if (!settings.token) {
    const token = 'GitHub token (GITHUB_TOKEN or the action input github-token) to reach GitHub Models'
    if (settings.judge === 'models')
      say.warning(`judge "models" needs a ${token}, and none is set: the rules judge every release`)
    else say.info(`the rules judge every release: there is no ${token}`)
    return null
  }
  const models = settings.models?.length ? settings.models : [DEFAULT_MODEL]
  const maxCalls = settings.maxModelCalls ?? DEFAULT_MAX_MODEL_CALLS
  say.info(
    `judge: model ${models.join(', then ')} (at most ${maxCalls} call${maxCalls === 1 ? '' : 's'} this run${models.length > 1 ? ' to each' : ''}), with the rules as the floor`
  )
  // One deadline for the whole list: a later model does not get the time again.
  const deadline: { at: number | null } = { at: null }
  const token = settings.token
  return modelList(
    models.map((model, i) =>
      modelAsker(
        {
          endpoint: settings.modelsEndpoint ?? MODELS_DEFAULT_ENDPOINT,
          token,
          model,
          maxCalls,
          timeoutMs: Math.max(
            MODEL_TIMEOUT_MS,
            (settings.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS) * 1000
          ),
          // The refresh's deadline, counted from the first model call: the judge step comes after the refresh.
          deadlineSeconds: settings.refreshDeadlineSeconds ?? DEFAULT_REFRESH_DEADLINE_SECONDS,
          deadline,
          ...(models[i + 1] ? { next: models[i + 1] } : {})
        },
        log
      )
    )
  )
}

export function buildDeps(settings: UpstreamSettings, log: Logger, now: Date): BuildDeps {
  const { token } = settings
  // One deadline for the whole refresh, GitHub and endoflife.date alike, counted from here (the run's start).
  const deadline = AbortSignal.timeout((settings.refreshDeadlineSeconds ?? DEFAULT_REFRESH_DEADLINE_SECONDS) * 1000)
  const requestTimeoutMs = (settings.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS) * 1000
  // endoflife.date unreachable (DNS, refused, silent): one product says so for all the others.
  let endoflifeDown: string | null = null
  // Who judges is said once the build has accepted its inputs, not before a usage error.
  const judgeNotes: JudgeNote[] = []
  const say = {
    info: (text: string) => judgeNotes.push({ level: 'info', text }),
    warning: (text: string) => judgeNotes.push({ level: 'warning', text })
  }
  return {
    log,
    program: programDigest(),
    modelJudge: modelJudge(settings, log, say),
    judgeNotes,
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
          throw new Error(
            'refresh (--refresh, input refresh) needs a GitHub token: set GITHUB_TOKEN (or the action input github-token)'
          )
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
