export const id = 710;
export const ids = [710];
export const modules = {

/***/ 7710:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  refreshFromGitHub: () => (/* binding */ refreshFromGitHub)
});

// UNUSED EXPORTS: DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY, DEFAULT_MAX_CONSECUTIVE_FAILURES, DEFAULT_MAX_CROSSED, DEFAULT_MIN_REMAINING

// EXTERNAL MODULE: ./src/util/text.ts
var util_text = __webpack_require__(9997);
// EXTERNAL MODULE: ./src/schema/index.ts
var schema = __webpack_require__(1107);
// EXTERNAL MODULE: ./src/util/dates.ts
var dates = __webpack_require__(3621);
// EXTERNAL MODULE: ./src/upstream/github/facts.ts
var facts = __webpack_require__(654);
// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(1758);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-retry/dist-bundle/index.js
var dist_bundle = __webpack_require__(9735);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-throttling/dist-bundle/index.js
var plugin_throttling_dist_bundle = __webpack_require__(6856);
// EXTERNAL MODULE: ./src/util/network.ts
var util_network = __webpack_require__(4506);
;// CONCATENATED MODULE: ./src/upstream/github/client.ts
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
                const network = (0,util_network/* networkFailure */.rd)(error, host, { timeout, timeoutMs: limits.requestTimeoutMs, ...limits });
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
        return (0,util_network/* hostOf */.w4)(base);
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
    const octokit = (0,github/* getOctokit */.Q)(opts.token, {
        baseUrl: opts.apiUrl.replace(/\/+$/, ''),
        throttle,
        retry: { retries: opts.retry?.retries ?? 3, retryAfterBaseValue: opts.retry?.baseMs ?? 1000 }
    }, attemptsPlugin(counter, throttleBase, maxWait, {
        requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        apiUrl: opts.apiUrl,
        ...(opts.deadline ? { deadline: opts.deadline } : {})
    }), plugin_throttling_dist_bundle/* throttling */.A, dist_bundle/* retry */.L);
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

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 6 modules
var schemas = __webpack_require__(104);
;// CONCATENATED MODULE: ./src/upstream/github/query.ts
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
const releaseNode = schemas/* object */.Ikc({
    tagName: schemas/* string */.YjP(),
    url: schemas/* string */.YjP().nullable().optional(),
    isDraft: schemas/* boolean */.zMY(),
    isPrerelease: schemas/* boolean */.zMY(),
    createdAt: schemas/* string */.YjP().nullable().optional(),
    publishedAt: schemas/* string */.YjP().nullable().optional(),
    description: schemas/* string */.YjP().nullable().optional()
});
const commitDate = schemas/* looseObject */._H3({ committedDate: schemas/* string */.YjP().nullable().optional() });
const refNode = schemas/* object */.Ikc({
    name: schemas/* string */.YjP(),
    target: schemas/* object */.Ikc({
        __typename: schemas/* string */.YjP().optional(),
        committedDate: schemas/* string */.YjP().nullable().optional(),
        tagger: schemas/* object */.Ikc({ date: schemas/* string */.YjP().nullable().optional() }).nullable().optional(),
        target: commitDate.nullable().optional()
    })
        .nullable()
        .optional()
});
// Absent in an answer to an older query (or a fake's): then the list is taken as whole.
const pageInfo = schemas/* object */.Ikc({ hasNextPage: schemas/* boolean */.zMY(), endCursor: schemas/* string */.YjP().nullable().optional() })
    .nullable()
    .optional();
const releasesAnswer = schemas/* object */.Ikc({
    totalCount: schemas/* number */.aig().optional(),
    pageInfo,
    nodes: schemas/* array */.YOg(releaseNode.nullable())
});
const repositoryAnswer = schemas/* object */.Ikc({
    nameWithOwner: schemas/* string */.YjP().regex(schema/* REPO_PATTERN */.WA),
    url: schemas/* string */.YjP(),
    isArchived: schemas/* boolean */.zMY(),
    isDisabled: schemas/* boolean */.zMY(),
    releases: releasesAnswer,
    refs: schemas/* object */.Ikc({ pageInfo, nodes: schemas/* array */.YOg(refNode.nullable()) })
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
    const parsed = schemas/* object */.Ikc({ releases: releasesAnswer }).safeParse(value);
    if (!parsed.success)
        return null;
    return { releases: releasesOf(parsed.data.releases.nodes), ...after(parsed.data.releases.pageInfo) };
}
const rateLimitAnswer = schemas/* object */.Ikc({
    cost: schemas/* number */.aig(),
    remaining: schemas/* number */.aig(),
    resetAt: schemas/* string */.YjP().optional(),
    limit: schemas/* number */.aig().optional()
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

// EXTERNAL MODULE: ./src/util/versions.ts
var versions = __webpack_require__(395);
;// CONCATENATED MODULE: ./src/upstream/github/rest.ts
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
    const r = (answerData(info) ?? {});
    const fullName = str(r.full_name);
    if (!fullName || !schema/* REPO_PATTERN */.WA.test(fullName))
        throw new Error('malformed repository answer');
    const [newOwner = owner, newRepo = repo] = fullName.split('/');
    const perPage = mono ? MONOREPO_RELEASES_WINDOW : RELEASES_WINDOW;
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
        const list = answerData(listData);
        // An answer that is not a list (cut off, unparsable) is no answer: never read it as "no releases".
        if (!Array.isArray(list))
            throw new Error(`unreadable releases answer for ${fullName}`);
        releases.push(...rest_releasesOf(list));
        full = list.length >= perPage;
        const snapshot = { nameWithOwner: fullName, url: '', archived: false, releases, tags: [], releasesAfter: null };
        if (!full || !(0,facts/* wantsOlder */.S$)(snapshot, target) || releases.length + perPage > (maxRead ?? MAX_RELEASES_READ))
            break;
    }
    let tags = [];
    const filter = { tagPrefix: target.tagPrefix, tagPattern: target.tagPattern };
    if (!releases.some((x) => !x.draft && !x.prerelease && (0,versions/* isStableVersion */.Qg)(x.tag, filter))) {
        const { data: tagData } = await client.octokit.request('GET /repos/{owner}/{repo}/tags', {
            owner: newOwner,
            repo: newRepo,
            per_page: mono ? MONOREPO_TAGS_WINDOW : TAGS_WINDOW
        });
        // REST tags carry no date; the facts then say date: null.
        const tagList = answerData(tagData);
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
function rest_releasesOf(list) {
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

;// CONCATENATED MODULE: ./src/upstream/github/refresh.ts
// Refresh every app's release facts from GitHub: aliased GraphQL batches, a batch
// that keeps failing is split in halves down to single repositories, a single
// repository that GraphQL still cannot answer is read over REST, and the budget
// (GraphQL points) is watched so a run stops asking before it runs dry.
// Every target gets exactly one outcome; the caller merges failures with
// last-known-good data. Per-app warnings are the caller's (it knows the fallback).







const DEFAULT_BATCH_SIZE = 50;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_MAX_CROSSED = MAX_RELEASES_READ;
const DEFAULT_MIN_REMAINING = 50;
const DEFAULT_MAX_CONSECUTIVE_FAILURES = 6;
async function refreshFromGitHub(targets, options) {
    if (!options.token)
        throw new Error('refreshFromGitHub needs a GitHub token (GITHUB_TOKEN or the github-token input)');
    const slugs = new Set();
    for (const t of targets) {
        if (slugs.has(t.slug))
            throw new Error(`duplicate slug in refresh targets: ${t.slug}`);
        slugs.add(t.slug);
    }
    const state = {
        client: createGitHubClient({
            token: options.token,
            apiUrl: options.apiUrl,
            log: options.log,
            retry: options.retry,
            throttle: options.throttle,
            ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
            ...(options.deadline ? { deadline: options.deadline } : {})
        }),
        options,
        outcomes: new Map(),
        stats: {
            requests: 0,
            graphqlPoints: 0,
            remaining: null,
            batches: 0,
            restFallbacks: 0,
            olderPages: 0,
            pagedApps: 0,
            gaps: 0
        },
        budget: { inFlight: 0, exhausted: null },
        failuresInARow: 0,
        stopped: null,
        older: [],
        gapSlugs: []
    };
    const askable = [];
    for (const t of targets) {
        if (schema/* REPO_PATTERN */.WA.test(t.repo))
            askable.push(t);
        else
            state.outcomes.set(t.slug, { status: 'not-found', reason: 'the catalog repo is not "<owner>/<name>"' });
    }
    const size = Math.max(1, Math.min(options.batchSize ?? DEFAULT_BATCH_SIZE, 100));
    const batches = [];
    for (let i = 0; i < askable.length; i += size)
        batches.push(askable.slice(i, i + size));
    let next = 0;
    const worker = async () => {
        while (next < batches.length)
            await runBatch(state, batches[next++]);
    };
    const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
    // Apps behind by more than their first answer, from every batch: OLDER_BATCH of them a request.
    await readOlder(state, state.older, concurrency);
    // Never lose an app, whatever happened above.
    for (const t of targets) {
        if (!state.outcomes.has(t.slug))
            state.outcomes.set(t.slug, { status: 'failed', reason: 'no answer was recorded' });
    }
    state.stats.requests = state.client.counter.requests;
    report(state, targets.length);
    return { outcomes: state.outcomes, stats: state.stats };
}
function report(state, total) {
    const counts = new Map();
    for (const o of state.outcomes.values())
        counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
    const { requests, graphqlPoints, remaining, restFallbacks, olderPages, pagedApps, gaps } = state.stats;
    const perApp = total > 0 ? (requests / total).toFixed(3) : '0';
    const summary = [...counts].map(([k, v]) => `${k} ${v}`).join(', ');
    const older = olderPages ? `, ${olderPages} pages of older releases for ${pagedApps} apps` : '';
    state.options.log.info(`GitHub refresh: ${total} apps, ${requests} requests (${perApp} per app), ${graphqlPoints} GraphQL points used, ` +
        `${remaining ?? 'unknown'} remaining, ${restFallbacks ?? 0} REST fallbacks${older}; ${summary}`);
    if (gaps) {
        const names = state.gapSlugs.slice(0, 20).join(', ') + (gaps > 20 ? ` and ${gaps - 20} more` : '');
        state.options.log.warning(`GitHub: ${gaps} apps published more releases since their published version than one refresh reads ` +
            `(${names}); the releases not read are recorded as a gap in their history, and updates across it are unknown`);
    }
    const skipped = counts.get('skipped') ?? 0;
    if (skipped > 0 && state.budget.exhausted) {
        state.options.log.warning(`GitHub: ${state.budget.exhausted}; ${skipped} apps were not asked and keep last-known-good data`);
    }
}
function settle(state, target, snapshot) {
    const maxCrossed = Math.max(1, state.options.maxCrossed ?? DEFAULT_MAX_CROSSED);
    const result = (0,facts/* factsFromSnapshot */.kD)(snapshot, target, { now: state.options.now, maxCrossed });
    if (result.kind === 'facts' && result.facts.gap) {
        state.stats.gaps = (state.stats.gaps ?? 0) + 1;
        state.gapSlugs.push(target.slug);
    }
    // Releases between those read that were not read (flagged as prereleases): a gap too, never in silence.
    if (result.kind === 'facts' && result.facts.unread) {
        for (const u of result.facts.unread)
            state.options.log.warning(`GitHub: ${target.slug}: ${u.why}, after ${(0,util_text/* quoted */.TL)(u.after)} and before ${(0,util_text/* quoted */.TL)(u.before)}; not read, recorded as a gap in its history, and updates across it are unknown`);
    }
    const moved = snapshot.nameWithOwner.toLowerCase() !== target.repo.toLowerCase() && schema/* REPO_PATTERN */.WA.test(snapshot.nameWithOwner);
    let outcome;
    if (moved) {
        const movedTo = snapshot.nameWithOwner;
        outcome = { status: 'moved', movedTo, facts: result.kind === 'facts' ? { ...result.facts, movedTo } : null };
    }
    else if (result.kind === 'facts') {
        outcome = { status: 'fresh', facts: result.facts };
    }
    else {
        outcome = {
            status: 'no-release',
            reason: result.reason,
            archived: snapshot.archived,
            checked: (0,dates/* utcDay */.d)(state.options.now)
        };
    }
    state.outcomes.set(target.slug, outcome);
}
function markAll(state, batch, outcome) {
    for (const t of batch)
        if (!state.outcomes.has(t.slug))
            state.outcomes.set(t.slug, outcome);
}
// GitHub's cost: one "request" per connection per repository, divided by 100, minimum 1.
function estimatedCost(batch) {
    return Math.max(1, Math.round((2 * batch.length) / 100));
}
/** Once the deadline passed, every target not answered yet keeps last-known-good. */
function pastDeadline(state) {
    if (!state.options.deadline?.aborted)
        return null;
    if (!state.stopped) {
        state.stopped = { status: 'skipped', reason: 'the refresh deadline was reached before GitHub answered' };
        state.options.log.warning('GitHub refresh: the deadline was reached; apps not answered yet keep last-known-good');
    }
    return state.stopped;
}
async function runBatch(state, batch, counts = true) {
    await (await askBatch(state, batch, counts)).next?.();
}
/** `counts`: a failure of this request counts towards the breaker (false when another failure explains it). */
async function askBatch(state, batch, counts) {
    if (batch.length === 0)
        return { failed: false };
    pastDeadline(state);
    const cost = estimatedCost(batch);
    const notAsked = state.stopped ?? skippedFor(budgetExhausted(state, cost));
    if (notAsked) {
        markAll(state, batch, notAsked);
        return { failed: false };
    }
    state.stats.batches++;
    const { query, variables } = buildBatchQuery(batch);
    const answer = await askGraphQL(state, query, variables, cost);
    // An answer without data (unreadable, or an error such as a query timeout) is a transient failure, about what was
    // asked: onBatchFailure splits it.
    if ('failure' in answer)
        return onBatchFailure(state, batch, answer.failure, counts);
    const { data, errors } = answer;
    state.failuresInARow = 0;
    const again = [];
    batch.forEach((target, i) => {
        const alias = aliasOf(i);
        const value = data[alias];
        if (value === null || value === undefined) {
            const own = errors.filter((e) => Array.isArray(e?.path) && e.path[0] === alias);
            const notFound = own.find((e) => e.type === 'NOT_FOUND' || e.type === 'FORBIDDEN');
            if (notFound) {
                const why = notFound.type === 'FORBIDDEN' ? 'no access' : 'not found';
                state.outcomes.set(target.slug, { status: 'not-found', reason: (0,facts/* capReason */.HA)(`${why}: ${notFound.message ?? ''}`) });
            }
            else
                again.push(target);
            return;
        }
        const snapshot = snapshotFromGraphQL(value);
        if (!snapshot)
            again.push(target);
        else if ((0,facts/* wantsOlder */.S$)(snapshot, target))
            state.older.push({ target, snapshot });
        else
            settle(state, target, snapshot);
    });
    if (again.length === batch.length) {
        return onBatchFailure(state, batch, { kind: 'transient', status: 200, message: 'every repository in the batch errored', serviceDown: false }, counts);
    }
    // Some repositories errored while the rest answered: ask again for those only (GitHub answered: no breaker count).
    return again.length > 0 ? { failed: false, next: () => runBatch(state, again, false) } : { failed: false };
}
/**
 * A rate limit or a refused token ends the asking for the whole run: the outcome every app not yet answered gets
 * (the budget or the stop is recorded once); null for a failure that concerns this request alone.
 */
function runWideStop(state, failure, what) {
    if (failure.kind === 'rate-limited') {
        state.budget.exhausted ??= 'GitHub rate limit reached';
        return { status: 'skipped', reason: state.budget.exhausted };
    }
    if (failure.kind !== 'unauthorized')
        return null;
    state.stats.tokenRefused ??= what;
    state.stopped ??= { status: 'failed', reason: `GitHub rejected the token (${what})` };
    return state.stopped;
}
function skippedFor(reason) {
    return reason ? { status: 'skipped', reason } : null;
}
/**
 * Why no request of `cost` more points is to be made (the budget already spent, or what is left would dip into the
 * reserve, which then marks it spent), or null when it may be.
 */
function budgetExhausted(state, cost) {
    const { budget, stats, options } = state;
    if (budget.exhausted)
        return budget.exhausted;
    const minRemaining = options.minRemaining ?? DEFAULT_MIN_REMAINING;
    if (stats.remaining !== null && stats.remaining - budget.inFlight - cost < minRemaining)
        budget.exhausted = `GraphQL budget too low (${stats.remaining} points left, ${minRemaining} kept in reserve)`;
    return budget.exhausted;
}
/**
 * One GraphQL request of `cost` points (held in flight while it runs): its data, with the points it cost and
 * those left recorded, or why it failed. GitHub answers a rate limit with 200 and a RATE_LIMITED error: a failure;
 * so is an answer without data (a transient one, carrying GitHub's error messages).
 */
async function askGraphQL(state, query, variables, cost) {
    const { stats, budget, options } = state;
    budget.inFlight += cost;
    let body;
    try {
        const res = await state.client.octokit.request({ method: 'POST', url: options.graphqlUrl, query, variables });
        const data = answerData(res.data);
        body = (data && typeof data === 'object' ? data : {});
    }
    catch (error) {
        return { failure: classifyFailure(error) };
    }
    finally {
        budget.inFlight -= cost;
    }
    const rate = rateLimitAnswer.safeParse(body.data?.rateLimit);
    if (rate.success) {
        stats.graphqlPoints += rate.data.cost;
        stats.remaining = rate.data.remaining;
    }
    const errors = Array.isArray(body.errors) ? body.errors : [];
    if (errors.some((e) => e?.type === 'RATE_LIMITED'))
        return { failure: { kind: 'rate-limited', status: 200, message: 'RATE_LIMITED', serviceDown: true } };
    if (!body.data || typeof body.data !== 'object') {
        const message = errors.map((e) => e?.message ?? '').join('; ') || 'no data in the GraphQL answer';
        return { failure: { kind: 'transient', status: 200, message, serviceDown: false } };
    }
    return { data: body.data, errors };
}
/**
 * A batch whose request failed: stop, give up, or go on (split it, or read a single repository over REST).
 *
 * The breaker counts failures that say GitHub is down, not the bisection of one repository GraphQL cannot answer
 * (a timeout, a 502 for a heavy query, an answer cut off): such a repository fails every batch that holds it, so
 * halving down to it fails about log2(batch) requests in a row, and with a few of them in flight at once that used to
 * trip the breaker and stop the whole refresh. So a half's failure counts only when its parent's failure does not
 * explain it: the first half's never does (the fault may lie in it); the second half's does when the first answered
 * (the fault must lie in it), and counts when the first failed too (two disjoint sets of repositories failed). Both
 * halves are asked before either is split, so a GitHub that is down still trips the breaker within a few requests.
 */
async function onBatchFailure(state, batch, failure, counts) {
    const { log } = state.options;
    const done = (outcome) => {
        markAll(state, batch, outcome);
        return { failed: true };
    };
    const late = pastDeadline(state);
    if (late)
        return done(late);
    const what = `${failure.status ?? 'network error'}: ${(0,facts/* capReason */.HA)(failure.message)}`;
    const stop = runWideStop(state, failure, what);
    if (stop) {
        if (failure.kind === 'unauthorized')
            log.error(`GitHub rejected the token; not asking further (${what})`);
        return done(stop);
    }
    // A wrong GraphQL URL or a token without access: splitting cannot help.
    if (failure.kind !== 'transient')
        return done({ status: 'failed', reason: `GitHub GraphQL answered ${what}` });
    // Only a service that is down trips the breaker; one repository's oversized or malformed answer is split down to it.
    if (failure.serviceDown && counts)
        tripBreaker(state, what);
    if (state.stopped)
        return done(state.stopped);
    if (batch.length === 1)
        return { failed: true, next: () => restFallback(state, batch[0], what) };
    return {
        failed: true,
        next: async () => {
            const half = Math.ceil(batch.length / 2);
            log.info(`GitHub batch of ${batch.length} failed (${what}); splitting into ${half} + ${batch.length - half}`);
            const first = await askBatch(state, batch.slice(0, half), false);
            const second = await askBatch(state, batch.slice(half), first.failed);
            await first.next?.();
            await second.next?.();
        }
    };
}
function tripBreaker(state, what) {
    state.failuresInARow++;
    const max = state.options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
    if (state.failuresInARow >= max && !state.stopped) {
        state.stopped = { status: 'failed', reason: `GitHub kept failing; stopped asking (${what})` };
        state.options.log.warning(`GitHub failed ${state.failuresInARow} times in a row; not asking further this run`);
    }
    return state.stopped !== null;
}
async function restFallback(state, target, graphqlFailure) {
    pastDeadline(state);
    if (state.stopped)
        return markAll(state, [target], state.stopped);
    state.options.log.info(`GitHub GraphQL could not answer for ${target.repo} (${graphqlFailure}); reading it over REST`);
    state.stats.restFallbacks = (state.stats.restFallbacks ?? 0) + 1;
    try {
        const snapshot = await snapshotFromRest(state.client, target, state.options.maxReleasesRead);
        state.failuresInARow = 0;
        settle(state, target, snapshot);
    }
    catch (error) {
        const late = pastDeadline(state);
        if (late)
            return markAll(state, [target], late);
        const f = classifyFailure(error);
        const what = `${f.status ?? 'network error'}: ${(0,facts/* capReason */.HA)(f.message)}`;
        if (f.kind === 'not-found' || f.kind === 'forbidden') {
            state.outcomes.set(target.slug, {
                status: 'not-found',
                reason: (0,facts/* capReason */.HA)(`${f.kind === 'forbidden' ? 'no access' : 'not found'} (REST ${what})`)
            });
        }
        else if (f.kind === 'rate-limited') {
            state.budget.exhausted ??= 'GitHub rate limit reached';
            state.outcomes.set(target.slug, { status: 'skipped', reason: state.budget.exhausted });
        }
        else {
            if (f.serviceDown)
                tripBreaker(state, what);
            state.outcomes.set(target.slug, {
                status: 'failed',
                reason: (0,facts/* capReason */.HA)(`GraphQL ${graphqlFailure}; REST ${what}`)
            });
        }
    }
}
/**
 * Page back through the releases of the apps that need it (see query.ts), OLDER_BATCH apps a request, until each
 * meets the version published before, the oldest release or the cap. Whatever stops it (the cap, a failure, the
 * budget, the deadline), each app is settled with what was read: the span not read becomes a gap in its history.
 */
async function readOlder(state, items, concurrency) {
    state.stats.pagedApps = (state.stats.pagedApps ?? 0) + items.length;
    let open = items;
    while (open.length > 0) {
        const chunks = [];
        for (let i = 0; i < open.length; i += OLDER_BATCH)
            chunks.push(open.slice(i, i + OLDER_BATCH));
        const next = [];
        let at = 0;
        const worker = async () => {
            while (at < chunks.length)
                next.push(...(await olderPage(state, chunks[at++])));
        };
        await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
        open = next;
    }
}
/** One follow-up request; returns the apps that still want older releases. */
async function olderPage(state, chunk) {
    const { options, stats } = state;
    const cap = Math.max(1, options.maxReleasesRead ?? MAX_RELEASES_READ);
    // At the cap (or where REST left no cursor): settled with what was read, the rest a gap (facts.ts: unreadSpan).
    const asked = chunk.filter((o) => typeof o.snapshot.releasesAfter === 'string' && o.snapshot.releases.length < cap);
    for (const o of chunk)
        if (!asked.includes(o))
            settle(state, o.target, o.snapshot);
    if (asked.length === 0)
        return [];
    // A read cut short for a passing reason (deadline, budget, GitHub down) is not a gap: the app keeps last-known-good
    // and the next run reads it all again.
    const targets = asked.map((o) => o.target);
    pastDeadline(state);
    if (state.stopped)
        return markOlder(state, targets, state.stopped);
    const exhausted = budgetExhausted(state, 1);
    if (exhausted)
        return markOlder(state, targets, { status: 'skipped', reason: exhausted });
    const { query, variables } = buildOlderQuery(asked.map((o) => ({
        repo: o.target.repo,
        cursor: o.snapshot.releasesAfter,
        first: Math.min(OLDER_PAGE, cap - o.snapshot.releases.length)
    })));
    stats.olderPages = (stats.olderPages ?? 0) + 1;
    const answer = await askGraphQL(state, query, variables, 1);
    if ('failure' in answer)
        return olderFailed(state, asked, answer.failure);
    const { data } = answer;
    state.failuresInARow = 0;
    const open = [];
    const unanswered = [];
    asked.forEach((o, i) => {
        const page = olderFromGraphQL(data[aliasOf(i)]);
        if (!page)
            return void unanswered.push(o);
        o.snapshot.releases.push(...page.releases);
        if (page.releasesAfter === undefined)
            delete o.snapshot.releasesAfter;
        else
            o.snapshot.releasesAfter = page.releasesAfter;
        if ((0,facts/* wantsOlder */.S$)(o.snapshot, o.target) && page.releases.length > 0)
            open.push(o);
        else
            settle(state, o.target, o.snapshot);
    });
    // A repository whose older releases GraphQL would not give: read over REST, as a batch that keeps failing is.
    for (const o of unanswered)
        await restFallback(state, o.target, 'its older releases were not in the answer');
    return open;
}
/** Apps whose paging back stopped for a passing reason: last-known-good (see olderPage). */
function markOlder(state, targets, outcome) {
    markAll(state, targets, outcome);
    return [];
}
/** A follow-up request failed: stop, skip or fall back to REST, as for a batch (see onBatchFailure). */
async function olderFailed(state, asked, failure) {
    const targets = asked.map((o) => o.target);
    const late = pastDeadline(state);
    if (late)
        return markOlder(state, targets, late);
    const what = `${failure.status ?? 'network error'}: ${(0,facts/* capReason */.HA)(failure.message)}`;
    const stop = runWideStop(state, failure, what);
    if (stop)
        return markOlder(state, targets, stop);
    switch (failure.kind) {
        case 'transient':
            if (failure.serviceDown && tripBreaker(state, what))
                return markOlder(state, targets, state.stopped);
            break;
        default:
            return markOlder(state, targets, { status: 'failed', reason: `GitHub GraphQL answered ${what}` });
    }
    state.options.log.info(`GitHub: older releases of ${asked.length} apps could not be read (${what}); reading them over REST`);
    for (const t of targets)
        await restFallback(state, t, what);
    return [];
}


/***/ })

};

//# sourceMappingURL=710.index.js.map