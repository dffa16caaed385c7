// What a run takes from its environment besides flags and action inputs: the
// upstream endpoints and token, and where the site will be served.
import { readRegularFile, refusalWords } from './util/regular-file.js'
import path from 'node:path'
import { ENDOFLIFE_DEFAULT_URL } from './upstream/endoflife.js'
import { DEFAULT_MAX_MODEL_CALLS, DEFAULT_MODEL, endpointRefusal, MODELS_DEFAULT_ENDPOINT } from './upstream/models.js'
import { githubEndpoints } from './upstream/github/endpoints.js'
import { MAX_MODELS_LISTED } from './schema/index.js'
import { withoutCredentials } from './util/http-url.js'
import { problem } from './util/problems.js'
import type { Logger } from './util/types.js'

export interface UpstreamSettings {
  token: string | undefined
  apiUrl: string
  graphqlUrl: string
  endoflifeUrl: string
  /** Longest wait for one HTTP request, in seconds (`--request-timeout`, input `request-timeout`). Default 20. */
  requestTimeoutSeconds?: number
  /** Longest a refresh (GitHub and endoflife.date together) may take, in seconds (`--refresh-deadline`). Default 600. */
  refreshDeadlineSeconds?: number
  /** Who judges releases (`--judge`, input `judge`); undefined: a model where a token exists, else the rules. */
  judge?: JudgeChoice
  /** The models GitHub Models runs (`--model`), in the order they are asked: the next when one's daily limit is spent. */
  models?: readonly string[]
  /** The API base of GitHub Models (`--models-endpoint`); requests go to its /chat/completions. */
  modelsEndpoint?: string
  /** Requests to the model per run (`--max-model-calls`). */
  maxModelCalls?: number
}

export type JudgeChoice = 'models' | 'rules'

/** `models`, `rules`, or nothing (the default); anything else is a usage error naming the option. */
export function parseJudge(value: string | undefined): JudgeChoice | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const v = value.trim()
  if (v === 'models' || v === 'rules') return v
  throw problem('usage', `judge "${value}" is not "models" or "rules"`)
}

/** Most models a list may name: each is a model the run may fall back to. */
export const MAX_MODELS = MAX_MODELS_LISTED

/**
 * Model ids as GitHub Models names them (`publisher/name`), in the order they are asked: one, or a list separated
 * by commas or new lines (a YAML block in a workflow). Empty: the default model.
 */
export function parseModels(value: string | undefined): string[] {
  const ids = (value ?? '')
    .split(/[,\n]/)
    .map((v) => v.trim())
    .filter((v) => v !== '')
  if (ids.length === 0) return [DEFAULT_MODEL]
  for (const id of ids) {
    if (!/^[A-Za-z0-9][\w.-]{0,49}\/[A-Za-z0-9][\w.-]{0,49}$/.test(id))
      throw problem('usage', `model "${id.slice(0, 120)}" is not a model id such as ${DEFAULT_MODEL}`)
  }
  const twice = ids.find((id, i) => ids.indexOf(id) !== i)
  if (twice) throw problem('usage', `model "${twice}" is listed twice`)
  if (ids.length > MAX_MODELS) throw problem('usage', `model lists ${ids.length} models; at most ${MAX_MODELS}`)
  return ids
}

/** An https address for the models API (plain http only to this machine: see endpointRefusal). */
export function parseEndpoint(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return MODELS_DEFAULT_ENDPOINT
  const v = value.trim()
  // Refused here, before the run reads anything, rather than by each model call.
  const refusal = endpointRefusal(v)
  // Quoted without credentials: a refused address must not print the password it held.
  if (refusal) throw problem('usage', `models-endpoint "${withoutCredentials(v)}" ${refusal}`)
  return v.replace(/\/+$/, '')
}

/** A whole number of calls, 0 or more. */
export function parseCalls(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_MAX_MODEL_CALLS
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0)
    throw problem('usage', `max-model-calls "${value}" is not a whole number of 0 or more`)
  return n
}

export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 20
export const DEFAULT_REFRESH_DEADLINE_SECONDS = 600

/** A positive number of seconds, or a usage error naming the option. */
export function parseSeconds(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) throw problem('usage', `${name} "${value}" is not a positive number of seconds`)
  return n
}

export function upstreamSettings(
  env: NodeJS.ProcessEnv,
  overrides: {
    token?: string
    endoflifeUrl?: string
    requestTimeout?: string
    refreshDeadline?: string
    judge?: string
    model?: string
    modelsEndpoint?: string
    maxModelCalls?: string
  } = {}
): UpstreamSettings {
  const judge = parseJudge(overrides.judge)
  return {
    token: overrides.token || env.GITHUB_TOKEN || undefined,
    ...githubEndpoints(env),
    endoflifeUrl: overrides.endoflifeUrl || env.ENDOFLIFE_API_URL || ENDOFLIFE_DEFAULT_URL,
    requestTimeoutSeconds: parseSeconds(overrides.requestTimeout, 'request-timeout', DEFAULT_REQUEST_TIMEOUT_SECONDS),
    refreshDeadlineSeconds: parseSeconds(
      overrides.refreshDeadline,
      'refresh-deadline',
      DEFAULT_REFRESH_DEADLINE_SECONDS
    ),
    ...(judge ? { judge } : {}),
    models: parseModels(overrides.model),
    modelsEndpoint: parseEndpoint(overrides.modelsEndpoint),
    maxModelCalls: parseCalls(overrides.maxModelCalls)
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

/**
 * The commit a run builds from, for status.json: `--source-commit` when given (a usage error unless it is a
 * full 40-hex SHA), else GITHUB_SHA in Actions, else null.
 */
export function sourceCommit(env: NodeJS.ProcessEnv, given?: string): string | null {
  const sha = /^[0-9a-f]{40}$/
  if (given !== undefined) {
    if (!sha.test(given.toLowerCase()))
      throw problem('usage', `--source-commit "${given}" is not a 40-character commit SHA`)
    return given.toLowerCase()
  }
  const fromEnv = env.GITHUB_SHA?.toLowerCase()
  return fromEnv && sha.test(fromEnv) ? fromEnv : null
}

/** A DNS name as GitHub Pages takes it in a CNAME file: labels of letters, digits and hyphens, at least two. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/

/** The site address a Pages CNAME file names (`https://<domain>`), or null when it names none. */
export function cnameBaseUrl(text: string): string | null {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  if (lines.length !== 1) return null
  const domain = lines[0]!.toLowerCase().replace(/\.$/, '')
  return DOMAIN.test(domain) ? `https://${domain}` : null
}

/** A CNAME holds one domain; Pages itself takes no more than a line. */
const MAX_CNAME_BYTES = 64 * 1024

/**
 * The base URL of a build: `--base-url` / the `base-url` input when given; else the custom domain of the Pages
 * branch (its `CNAME`, in the previous snapshot's checkout); else the Pages address (defaultBaseUrl).
 */
export async function resolveBaseUrl(
  given: string | undefined,
  previousDir: string | undefined,
  env: NodeJS.ProcessEnv,
  log: Logger
): Promise<string> {
  if (given) return given
  if (previousDir) {
    const file = path.join(previousDir, 'CNAME')
    // A FIFO or a device in its place is refused before it is read; a missing CNAME is the usual case.
    const read = readRegularFile(file, MAX_CNAME_BYTES)
    if ('bytes' in read) {
      const url = cnameBaseUrl(read.bytes.toString('utf8').slice(0, 1024))
      if (url) {
        log.info(`base URL ${url}, from the Pages branch's CNAME`)
        return url
      }
      log.warning(`${file} names no domain; using the default base URL`)
    } else if (!(read.refused === 'unreadable' && read.code === 'ENOENT')) {
      log.warning(`${file} ${refusalWords(read, MAX_CNAME_BYTES)}; using the default base URL`)
    }
  }
  return defaultBaseUrl(env)
}
