export const id = 206;
export const ids = [206];
export const modules = {

/***/ 1206:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   XE: () => (/* binding */ classifyFailure),
/* harmony export */   createGitHubClient: () => (/* binding */ createGitHubClient),
/* harmony export */   pj: () => (/* binding */ answerData)
/* harmony export */ });
/* unused harmony exports DEFAULT_REQUEST_TIMEOUT_MS, NetworkError */
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1758);
/* harmony import */ var _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9735);
/* harmony import */ var _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6856);
/* harmony import */ var _util_network_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4506);
// The Octokit client for the refresh: @actions/github's getOctokit (proxy-aware)
// with the throttling and retry plugins, timings injectable so tests run fast,
// and a counter of every HTTP attempt (retries included).




const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
/**
 * A request that failed below HTTP, named (DNS, refused, reset, timeout, deadline) with its host. Only a reset
 * carries `status` and `request`, so plugin-retry tries it again; a lookup that failed, a refused connection or a
 * silent server would fail the same way within seconds, and the refresh splits, falls back and stops on its own.
 */
class NetworkError extends Error {
    network;
    name = 'NetworkError';
    status;
    request;
    constructor(network, cause) {
        super(network.message, { cause });
        this.network = network;
        if (network.fault === 'reset') {
            this.status = 500;
            this.request = cause.request;
        }
    }
}
function header(error, name) {
    const headers = error?.response?.headers;
    const v = headers?.[name];
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}
/**
 * Innermost plugin (plugins listed first wrap closest to the wire): count every
 * attempt, and when a 5xx or a plain 429 carries `retry-after`, wait that long
 * before plugin-retry adds its own backoff (plugin-retry ignores the header;
 * secondary and primary rate limits are the throttling plugin's job).
 */
function attemptsPlugin(counter, baseMs, maxWaitSeconds, limits) {
    return (octokit) => {
        ;
        octokit.hook.wrap('request', async (request, options) => {
            counter.requests++;
            // Each attempt gets its own timeout; the run's deadline cuts every attempt at once.
            const timeout = AbortSignal.timeout(limits.requestTimeoutMs);
            const signal = limits.deadline ? AbortSignal.any([timeout, limits.deadline]) : timeout;
            const o = options;
            o.request = { ...o.request, signal };
            try {
                return await request(options);
            }
            catch (error) {
                const host = requestHost(o.url, o.baseUrl ?? limits.apiUrl);
                const network = (0,_util_network_js__WEBPACK_IMPORTED_MODULE_1__/* .networkFailure */ .rd)(error, host, { timeout, timeoutMs: limits.requestTimeoutMs, ...limits });
                if (network)
                    throw new NetworkError(network, error);
                const status = error.status ?? 0;
                const secondary = /secondary rate/i.test(String(error.message));
                const after = Number(header(error, 'retry-after'));
                if ((status >= 500 || (status === 429 && !secondary)) && Number.isFinite(after) && after > 0) {
                    await new Promise((r) => setTimeout(r, Math.min(after, maxWaitSeconds) * baseMs));
                }
                throw error;
            }
        });
        return {};
    };
}
function requestHost(url, base) {
    try {
        return new URL(url ?? '', `${base}/`).host;
    }
    catch {
        return (0,_util_network_js__WEBPACK_IMPORTED_MODULE_1__/* .hostOf */ .w4)(base);
    }
}
// plugin-throttling queues every GraphQL request behind one limiter with a
// 1-second gap, GitHub's advice for mutations. Our queries only read; how many
// run at once is bounded by the caller's own pool, so this group lets them pass.
const passThroughGroup = {
    key: () => ({ schedule: (_opts, fn, ...args) => fn(...args) })
};
function createGitHubClient(opts) {
    const counter = { requests: 0 };
    const throttleBase = opts.throttle?.baseMs ?? 1000;
    const maxWait = opts.throttle?.maxWaitSeconds ?? 60;
    const throttleRetries = opts.throttle?.retries ?? 3;
    const onLimit = (kind) => (retryAfter, options, _o, retryCount) => {
        const go = retryCount < throttleRetries && retryAfter <= maxWait;
        // Says what happens and why: the wait is taken, or the request fails (too long a wait, or too many).
        const why = retryAfter > maxWait ? `longer than the ${maxWait} s a refresh waits` : `${retryCount} retries already`;
        opts.log.info(`GitHub ${kind} on ${options.method ?? ''} ${options.url ?? ''}: ${go ? `retrying in ${retryAfter} s` : `gave up rather than wait ${retryAfter} s (${why})`}`);
        return go;
    };
    const throttle = {
        onRateLimit: onLimit('rate limit'),
        onSecondaryRateLimit: onLimit('secondary rate limit'),
        retryAfterBaseValue: throttleBase,
        fallbackSecondaryRateRetryAfter: 60,
        write: passThroughGroup
    };
    const octokit = (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(opts.token, {
        baseUrl: opts.apiUrl.replace(/\/+$/, ''),
        throttle,
        retry: { retries: opts.retry?.retries ?? 3, retryAfterBaseValue: opts.retry?.baseMs ?? 1000 }
    }, attemptsPlugin(counter, throttleBase, maxWait, {
        requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        apiUrl: opts.apiUrl,
        ...(opts.deadline ? { deadline: opts.deadline } : {})
    }), _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_2__/* .throttling */ .A, _octokit_plugin_retry__WEBPACK_IMPORTED_MODULE_3__/* .retry */ .L);
    return { octokit, counter };
}
/**
 * An answer's data. Octokit's JSON reader gives up on a very large body (a 10 MB release body overflows its
 * stack) and hands back the text; the platform's parser reads it, and the notes are capped after. Text that is
 * not JSON (an answer cut off) stays text, which callers treat as no answer.
 */
function answerData(data) {
    if (typeof data !== 'string')
        return data;
    try {
        return JSON.parse(data);
    }
    catch {
        return data;
    }
}
function classifyFailure(error) {
    // Below HTTP: no status to show, the fault and the host instead (a deadline is the caller's to notice).
    if (error instanceof NetworkError)
        return { kind: 'transient', status: null, message: error.message, serviceDown: true };
    const e = error;
    const status = typeof e.status === 'number' ? e.status : null;
    const message = String(e.message ?? error).slice(0, 300);
    const rateLimited = (e.data?.errors ?? []).some((x) => x?.type === 'RATE_LIMITED') ||
        /GraphQL Rate Limit Exceeded/.test(message) ||
        ((status === 403 || status === 429) && header(error, 'x-ratelimit-remaining') === '0');
    const failure = (kind, serviceDown = false) => ({ kind, status, message, serviceDown });
    if (rateLimited)
        return failure('rate-limited', true);
    if (status !== null && (status >= 500 || status === 429))
        return failure('transient', true);
    if (status === 403 && /secondary rate/i.test(message))
        return failure('transient', true);
    // No status and no network fault: the answer could not be read (malformed, cut off), a fault of its content.
    if (status === null)
        return failure('transient');
    if (status === 401)
        return failure('unauthorized');
    if (status === 404 || status === 410)
        return failure('not-found');
    if (status === 403 || status === 451)
        return failure('forbidden');
    return failure('client');
}


/***/ })

};

//# sourceMappingURL=206.index.js.map