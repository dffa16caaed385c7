export const id = 399;
export const ids = [399,206];
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


/***/ }),

/***/ 9221:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Cr: () => (/* binding */ olderFromGraphQL),
/* harmony export */   H5: () => (/* binding */ MAX_RELEASES_READ),
/* harmony export */   Ke: () => (/* binding */ RELEASES_WINDOW),
/* harmony export */   MA: () => (/* binding */ OLDER_BATCH),
/* harmony export */   O5: () => (/* binding */ aliasOf),
/* harmony export */   P3: () => (/* binding */ OLDER_PAGE),
/* harmony export */   bB: () => (/* binding */ buildOlderQuery),
/* harmony export */   go: () => (/* binding */ MONOREPO_RELEASES_WINDOW),
/* harmony export */   hd: () => (/* binding */ MONOREPO_TAGS_WINDOW),
/* harmony export */   o9: () => (/* binding */ rateLimitAnswer),
/* harmony export */   rf: () => (/* binding */ TAGS_WINDOW),
/* harmony export */   t5: () => (/* binding */ buildBatchQuery),
/* harmony export */   w4: () => (/* binding */ snapshotFromGraphQL)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(104);
/* harmony import */ var _schema_index_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1107);
// The GraphQL query for one batch of repositories, and the parsing of its answer.
//
// One aliased `repository(...)` field per app, all in one request. Sizes and why:
// - RELEASES_WINDOW = 20 newest releases per repository (50 for monorepo apps with
//   a tagPrefix/tagPattern, whose releases interleave with other packages'). That is
//   enough to skip a run of prereleases and drafts, and bounds `crossed` (20); the same
//   answer starts a new app's per-release history (facts.ts BACKFILL), at no extra request.
// - TAGS_WINDOW = 30 newest tags (100 for monorepo apps), for repositories without
//   releases; asked in the same request so the fallback costs no extra round trip.
// - Every connection stays within GitHub's per-connection cap of first: 100.
// - Nodes per batch of 50: at most 50 × (1 + 50 + 100) = 7,550, far below GitHub's
//   500,000 node limit. Cost: 2 connections per repository = 100 "requests" per
//   batch of 50, i.e. 1 point (GitHub divides by 100, minimum 1).
// The limit that bites first is response size and GitHub's 10-second query timeout
// (20 release bodies per repository), which is why batches are 50 and not more.
//
// Paging back: when the version published before is not among the releases of the
// first answer and GitHub says more lie beyond (pageInfo.hasNextPage), that app alone
// reads on from the cursor, OLDER_PAGE releases a page, OLDER_BATCH apps a request
// (the same 1,000 release bodies as a first batch), until it meets the published
// version, the oldest release, or MAX_RELEASES_READ. Apps that are up to date never
// page: a daily run costs what it did.


const RELEASES_WINDOW = 20;
const MONOREPO_RELEASES_WINDOW = 50;
const TAGS_WINDOW = 30;
const MONOREPO_TAGS_WINDOW = 100;
/**
 * Most releases read for one app in one refresh: 5 pages for a plain app (20 + 4 × 50), 4 for a monorepo app (50 +
 * 3 × 50). The classifier reads at most 200 releases per update (classify/classifier.ts MAX_RELEASES) and the
 * history keeps 50, so more would not be judged anyway; a release span beyond it is recorded as a gap in the
 * history and every update across it is unknown, never safe.
 */
const MAX_RELEASES_READ = 200;
/** Releases per follow-up page (older than the first answer). */
const OLDER_PAGE = 50;
/** Apps per follow-up request: 20 × 50 = 1,000 release bodies, as many as a first batch of 50 × 20. */
const OLDER_BATCH = 20;
function isMonorepo(t) {
    return Boolean(t.tagPrefix || t.tagPattern);
}
const RELEASE_FIELDS = 'tagName url isDraft isPrerelease createdAt publishedAt description';
function fragment(name, releases, tags) {
    return `fragment ${name} on Repository {
  nameWithOwner
  url
  isArchived
  isDisabled
  releases(first: ${releases}, orderBy: {field: CREATED_AT, direction: DESC}) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { ${RELEASE_FIELDS} }
  }
  refs(refPrefix: "refs/tags/", first: ${tags}, orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) {
    pageInfo { hasNextPage }
    nodes {
      name
      target {
        __typename
        ... on Commit { committedDate }
        ... on Tag { tagger { date } target { ... on Commit { committedDate } } }
      }
    }
  }
}`;
}
/** Alias of the i-th target in a batch. */
function aliasOf(i) {
    return `r${i}`;
}
/**
 * The query and variables for one batch. Owner and name travel as variables,
 * never spliced into the query text.
 */
function buildBatchQuery(targets) {
    const variables = {};
    const params = [];
    const fields = [];
    let plain = false;
    let mono = false;
    targets.forEach((t, i) => {
        const [owner = '', name = ''] = t.repo.split('/');
        variables[`o${i}`] = owner;
        variables[`n${i}`] = name;
        params.push(`$o${i}: String!`, `$n${i}: String!`);
        const frag = isMonorepo(t) ? 'MonorepoFacts' : 'RepoFacts';
        if (frag === 'MonorepoFacts')
            mono = true;
        else
            plain = true;
        fields.push(`  ${aliasOf(i)}: repository(owner: $o${i}, name: $n${i}, followRenames: true) { ...${frag} }`);
    });
    // A fragment that no field uses is a validation error, so only include used ones.
    const fragments = [
        plain ? fragment('RepoFacts', RELEASES_WINDOW, TAGS_WINDOW) : '',
        mono ? fragment('MonorepoFacts', MONOREPO_RELEASES_WINDOW, MONOREPO_TAGS_WINDOW) : ''
    ].filter((f) => f !== '');
    const query = `query UpdatesafeRefresh(${params.join(', ')}) {
  rateLimit { cost remaining resetAt limit }
${fields.join('\n')}
}

${fragments.join('\n\n')}
`;
    return { query, variables };
}
/**
 * The query and variables for one follow-up request. Owner, name and cursor travel as variables; `first` is ours
 * (a number below 100), written into the text so GitHub's cost estimate sees it.
 */
function buildOlderQuery(targets) {
    const variables = {};
    const params = [];
    const fields = [];
    targets.forEach((t, i) => {
        const [owner = '', name = ''] = t.repo.split('/');
        Object.assign(variables, { [`o${i}`]: owner, [`n${i}`]: name, [`c${i}`]: t.cursor });
        params.push(`$o${i}: String!`, `$n${i}: String!`, `$c${i}: String!`);
        const first = Math.max(1, Math.min(100, Math.floor(t.first)));
        fields.push(`  ${aliasOf(i)}: repository(owner: $o${i}, name: $n${i}, followRenames: true) {
    releases(first: ${first}, after: $c${i}, orderBy: {field: CREATED_AT, direction: DESC}) {
      pageInfo { hasNextPage endCursor }
      nodes { ${RELEASE_FIELDS} }
    }
  }`);
    });
    const query = `query UpdatesafeOlderReleases(${params.join(', ')}) {
  rateLimit { cost remaining resetAt limit }
${fields.join('\n')}
}
`;
    return { query, variables };
}
// --- the answer -----------------------------------------------------------
// Parsed with zod: a malformed repository answer is treated as a failure for
// that repository only, never trusted half-way.
const releaseNode = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
    tagName: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    url: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullable().optional(),
    isDraft: zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY(),
    isPrerelease: zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY(),
    createdAt: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullable().optional(),
    publishedAt: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullable().optional(),
    description: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullable().optional()
});
const commitDate = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ committedDate: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullable().optional() });
const refNode = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
    name: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    target: zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
        __typename: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
        committedDate: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullable().optional(),
        tagger: zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({ date: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullable().optional() }).nullable().optional(),
        target: commitDate.nullable().optional()
    })
        .nullable()
        .optional()
});
// Absent in an answer to an older query (or a fake's): then the list is taken as whole.
const pageInfo = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({ hasNextPage: zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY(), endCursor: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().nullable().optional() })
    .nullable()
    .optional();
const releasesAnswer = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
    totalCount: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().optional(),
    pageInfo,
    nodes: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(releaseNode.nullable())
});
const repositoryAnswer = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
    nameWithOwner: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().regex(_schema_index_js__WEBPACK_IMPORTED_MODULE_0__/* .REPO_PATTERN */ .WA),
    url: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(),
    isArchived: zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY(),
    isDisabled: zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY(),
    releases: releasesAnswer,
    refs: zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({ pageInfo, nodes: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(refNode.nullable()) })
        .nullable()
        .optional()
});
function releasesOf(nodes) {
    return nodes
        .filter((n) => n !== null)
        .map((n) => ({
        tag: n.tagName,
        url: n.url ?? null,
        draft: n.isDraft,
        prerelease: n.isPrerelease,
        createdAt: n.createdAt ?? null,
        publishedAt: n.publishedAt ?? null,
        notes: n.description ?? null
    }));
}
/** Where a releases connection goes on: the cursor after its last node, null when it cannot, absent when whole. */
function after(info) {
    if (!info?.hasNextPage)
        return {};
    return { releasesAfter: info.endCursor ?? null };
}
/** One app's older releases from a follow-up answer, or null when it is malformed. */
function olderFromGraphQL(value) {
    const parsed = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({ releases: releasesAnswer }).safeParse(value);
    if (!parsed.success)
        return null;
    return { releases: releasesOf(parsed.data.releases.nodes), ...after(parsed.data.releases.pageInfo) };
}
const rateLimitAnswer = zod__WEBPACK_IMPORTED_MODULE_1__/* .object */ .Ikc({
    cost: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig(),
    remaining: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig(),
    resetAt: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    limit: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().optional()
});
/** A repository field of the answer as a snapshot, or null when it is malformed. */
function snapshotFromGraphQL(value) {
    const parsed = repositoryAnswer.safeParse(value);
    if (!parsed.success)
        return null;
    const r = parsed.data;
    const releases = releasesOf(r.releases.nodes);
    const tags = (r.refs?.nodes ?? [])
        .filter((n) => n !== null)
        .map((n) => ({
        name: n.name,
        date: n.target?.committedDate ?? n.target?.tagger?.date ?? n.target?.target?.committedDate ?? null
    }));
    return {
        nameWithOwner: r.nameWithOwner,
        url: r.url,
        archived: r.isArchived || r.isDisabled,
        releases,
        tags,
        ...after(r.releases.pageInfo),
        ...(r.refs?.pageInfo?.hasNextPage ? { moreTags: true } : {})
    };
}


/***/ }),

/***/ 5399:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   snapshotFromRest: () => (/* binding */ snapshotFromRest)
/* harmony export */ });
/* harmony import */ var _facts_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(654);
/* harmony import */ var _client_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1206);
/* harmony import */ var _query_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9221);
/* harmony import */ var _schema_index_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1107);
/* harmony import */ var _util_versions_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(395);
// REST fallback for ONE repository, used only where GraphQL cannot answer: the
// repository's GraphQL answer still fails when it is asked alone (GitHub times out
// or errors on that repository, e.g. very large release bodies). Costs 2 requests
// (3 when the repository has no stable release and tags are needed), and one more per
// page of older releases when the version published before is not on the first.





const str = (v) => (typeof v === 'string' ? v : null);
/** Read one repository over REST. Throws the request error when a call fails (404 included). */
async function snapshotFromRest(client, target, 
/** Most releases read when paging back (default MAX_RELEASES_READ). */
maxRead) {
    const [owner = '', repo = ''] = target.repo.split('/');
    const mono = Boolean(target.tagPrefix || target.tagPattern);
    // A renamed repository answers 301; fetch follows it and we read the new full_name.
    const { data: info } = await client.octokit.request('GET /repos/{owner}/{repo}', { owner, repo });
    const r = ((0,_client_js__WEBPACK_IMPORTED_MODULE_1__/* .answerData */ .pj)(info) ?? {});
    const fullName = str(r.full_name);
    if (!fullName || !_schema_index_js__WEBPACK_IMPORTED_MODULE_3__/* .REPO_PATTERN */ .WA.test(fullName))
        throw new Error('malformed repository answer');
    const [newOwner = owner, newRepo = repo] = fullName.split('/');
    const perPage = mono ? _query_js__WEBPACK_IMPORTED_MODULE_2__/* .MONOREPO_RELEASES_WINDOW */ .go : _query_js__WEBPACK_IMPORTED_MODULE_2__/* .RELEASES_WINDOW */ .Ke;
    const releases = [];
    // Pages back like the GraphQL refresh (query.ts): on while the version published before is not met, a page came
    // back full (more may lie beyond) and the cap is not reached.
    let full = false;
    for (let page = 1;; page++) {
        const { data: listData } = await client.octokit.request('GET /repos/{owner}/{repo}/releases', {
            owner: newOwner,
            repo: newRepo,
            per_page: perPage,
            ...(page > 1 ? { page } : {})
        });
        const list = (0,_client_js__WEBPACK_IMPORTED_MODULE_1__/* .answerData */ .pj)(listData);
        // An answer that is not a list (cut off, unparsable) is no answer: never read it as "no releases".
        if (!Array.isArray(list))
            throw new Error(`unreadable releases answer for ${fullName}`);
        releases.push(...releasesOf(list));
        full = list.length >= perPage;
        const snapshot = { nameWithOwner: fullName, url: '', archived: false, releases, tags: [], releasesAfter: null };
        if (!full || !(0,_facts_js__WEBPACK_IMPORTED_MODULE_0__/* .wantsOlder */ .S$)(snapshot, target) || releases.length + perPage > (maxRead ?? _query_js__WEBPACK_IMPORTED_MODULE_2__/* .MAX_RELEASES_READ */ .H5))
            break;
    }
    let tags = [];
    const filter = { tagPrefix: target.tagPrefix, tagPattern: target.tagPattern };
    if (!releases.some((x) => !x.draft && !x.prerelease && (0,_util_versions_js__WEBPACK_IMPORTED_MODULE_4__/* .isStableVersion */ .Qg)(x.tag, filter))) {
        const { data: tagData } = await client.octokit.request('GET /repos/{owner}/{repo}/tags', {
            owner: newOwner,
            repo: newRepo,
            per_page: mono ? _query_js__WEBPACK_IMPORTED_MODULE_2__/* .MONOREPO_TAGS_WINDOW */ .hd : _query_js__WEBPACK_IMPORTED_MODULE_2__/* .TAGS_WINDOW */ .rf
        });
        // REST tags carry no date; the facts then say date: null.
        const tagList = (0,_client_js__WEBPACK_IMPORTED_MODULE_1__/* .answerData */ .pj)(tagData);
        if (!Array.isArray(tagList))
            throw new Error(`unreadable tags answer for ${fullName}`);
        tags = tagList
            .map((t) => str(t?.name))
            .filter((n) => n !== null)
            .map((name) => ({ name, date: null }));
    }
    return {
        nameWithOwner: fullName,
        url: str(r.html_url) ?? `https://github.com/${fullName}`,
        archived: r.archived === true || r.disabled === true,
        releases,
        tags,
        // A full last page may have more beyond it; REST pages by number, so there is no cursor to hand on.
        ...(full ? { releasesAfter: null } : {})
    };
}
function releasesOf(list) {
    return list
        .filter((x) => typeof x?.tag_name === 'string')
        .map((x) => ({
        tag: x.tag_name,
        url: str(x.html_url),
        draft: x.draft === true,
        prerelease: x.prerelease === true,
        createdAt: str(x.created_at),
        publishedAt: str(x.published_at),
        notes: str(x.body)
    }));
}


/***/ })

};

//# sourceMappingURL=399.index.js.map