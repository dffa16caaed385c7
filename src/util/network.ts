// What a failed HTTP request says about the network, in words: `fetch failed`
// and Octokit's `500: getaddrinfo ENOTFOUND` name neither the fault nor the host.
// A request that timed out, or that the run's deadline cut, is named as such.

export type NetworkFault = 'dns' | 'refused' | 'reset' | 'timeout' | 'deadline'

export interface NetworkFailure {
  fault: NetworkFault
  host: string
  /** e.g. `DNS lookup failed for api.github.com (ENOTFOUND)`. */
  message: string
}

const CODES: Record<string, NetworkFault> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  ECONNABORTED: 'reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout'
}

/**
 * The first string `code` along an error's `cause` chain (six links at most) that `wanted` accepts,
 * or null. fetch wraps the socket's error (`ECONNRESET`, `UND_ERR_SOCKET`) in a `TypeError`'s cause.
 */
export function causeCode(error: unknown, wanted: (code: string) => boolean = () => true): string | null {
  let e: unknown = error
  for (let depth = 0; e && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && wanted(code)) return code
    e = (e as { cause?: unknown }).cause
  }
  return null
}

/** The first error code along an error's `cause` chain that names a network fault. */
const faultCode = (error: unknown): string | null => causeCode(error, (code) => code in CODES)

/**
 * The network fault behind a failed request, or null when it is not one (an HTTP answer, a parse error).
 * `timeout` and `deadline` are the request's own signals: whichever fired explains an abort.
 */
export function networkFailure(
  error: unknown,
  host: string,
  signals: { timeout?: AbortSignal; timeoutMs?: number; deadline?: AbortSignal } = {}
): NetworkFailure | null {
  if (signals.deadline?.aborted)
    return { fault: 'deadline', host, message: `the refresh deadline was reached while asking ${host}` }
  if (signals.timeout?.aborted) {
    const s = signals.timeoutMs === undefined ? '' : ` within ${signals.timeoutMs / 1000} s`
    return { fault: 'timeout', host, message: `no answer from ${host}${s} (timeout)` }
  }
  const code = faultCode(error)
  if (!code) return null
  const fault = CODES[code]!
  const words: Record<NetworkFault, string> = {
    dns: `DNS lookup failed for ${host}`,
    refused: `connection refused by ${host}`,
    reset: `connection reset by ${host}`,
    timeout: `connection to ${host} timed out`,
    deadline: ''
  }
  return { fault, host, message: `${words[fault]} (${code})` }
}

/** The host of a URL, or the text itself when it is not one. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}
