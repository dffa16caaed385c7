// The zod schemas are the single source of truth for every document we read or
// write: catalog records on the way in, the v1 API documents on the way out.
// JSON Schemas under /api/v1/schema/ are generated from these (see ../site/api.ts).
import { z } from 'zod'
import { tagPatternError } from '../util/tag-pattern.js'
import { unsafeTextProblem } from '../util/text.js'

export const SERVICE = 'updatesafe'
export const APPS_SCHEMA_ID = `${SERVICE}.apps.v1` as const
export const APP_SCHEMA_ID = `${SERVICE}.app.v1` as const
export const RELEASES_SCHEMA_ID = `${SERVICE}.releases.v1` as const
export const IMAGES_SCHEMA_ID = `${SERVICE}.images.v1` as const

export const CLASSES = ['safe', 'caution', 'breaking', 'unknown', 'unmaintained'] as const
export type Classification = (typeof CLASSES)[number]

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/
/** An endoflife.date product id, in the catalog and in what we ask endoflife.date for. */
export const PRODUCT_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/
/** The catalog's order: by slug, in code units, so it never depends on a locale. */
export function compareSlugs(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
// GitHub owners are alphanumerics and hyphens; repository names add `_` and `.`.
// `.` and `..` alone are never valid names.
export const REPO_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/
/**
 * A container image name as Docker Compose's `image:` gives it, less tag and digest: an optional registry host
 * (with a dot or a port, or `localhost`), then lowercase path components.
 */
export const IMAGE_PATTERN =
  /^(?:(?:[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)+|localhost)(?::\d{1,5})?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** Bounds on text that reaches readers; upstream text is hostile and unbounded. */
export const LIMITS = {
  name: 100,
  version: 128,
  rationale: 1000,
  summary: 500,
  successor: 200,
  reason: 500,
  /** Notes read from upstream (GitHub or a notes file), in characters; the rest is cut. */
  notes: 65_536
} as const

/**
 * Catalog text is refused with control characters, bidi controls or noncharacters (src/util/text.ts).
 */
function cleanText() {
  return (s: string, ctx: z.RefinementCtx) => {
    const problem = unsafeTextProblem(s)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  }
}

/** A YYYY-MM-DD text (DATE_PATTERN) that names a day of the proleptic Gregorian calendar. */
function isRealDate(s: string): boolean {
  const [y, m, d] = [Number(s.slice(0, 4)), Number(s.slice(5, 7)), Number(s.slice(8, 10))]
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  const days = m === 2 ? (leap ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31
  return m >= 1 && m <= 12 && d >= 1 && d <= days
}

export const dateString = z
  .string()
  // abort: a text that is not YYYY-MM-DD at all gets one message, not also the calendar one.
  .regex(DATE_PATTERN, { message: 'must be a date written YYYY-MM-DD', abort: true })
  .refine(isRealDate, 'must be a real calendar date')

export const httpUrl = z
  // Only the format's own message: a schema-wide one would also word the length check's.
  .url({
    protocol: /^https?$/,
    error: (issue) => (issue.code === 'invalid_format' ? 'must be an http:// or https:// URL' : undefined)
  })
  .max(2048)

/** One word without control, format or noncharacter code points: what a version label may be. */
export const VERSION_LABEL = /^[^\p{Cc}\p{Cf}\p{Noncharacter_Code_Point}\s]+$/u

/**
 * VERSION_LABEL for the published JSON Schemas, in `\uXXXX` escapes that every regular-expression engine reads
 * (Python's `re` and ajv 6 cannot read `\p{…}`): the same code points of the Basic Multilingual Plane, as Unicode 16
 * classes them. It leaves out the few astral ones, so it is looser, never stricter: every document we publish passes.
 */
export const VERSION_LABEL_PORTABLE =
  '^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E' +
  '\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFDD0-\\uFDEF\\uFEFF\\uFFF9-\\uFFFB\\uFFFE\\uFFFF\\s]+$'

const versionLabel = z
  .string()
  .min(1)
  .max(LIMITS.version)
  // A version label is shown everywhere and used in comparisons: no control characters.
  .regex(VERSION_LABEL, 'must be a single word without control characters')

// ---------------------------------------------------------------------------
// Catalog records: catalog/apps/<slug>.yml

export const seedReleaseSchema = z
  .strictObject({
    version: versionLabel.describe('The release tag or version label exactly as upstream names it'),
    url: httpUrl.describe('The upstream release page of this version'),
    date: dateString.nullable().optional().describe('Release date, when upstream gives one'),
    checked: dateString.describe('The day these facts were read')
  })
  .describe('The last known release, so an offline build has real data')

export const overrideSchema = z
  .strictObject({
    class: z.enum(CLASSES),
    reason: z.string().min(1).max(LIMITS.reason).superRefine(cleanText()),
    version: versionLabel.describe('The latestVersion this override applies to; it expires after')
  })
  .describe('A curated classification that wins over the rules for one version')

/**
 * How a community build's tag carries the upstream version (../shared/data/images/COMMUNITY.md names each
 * publisher's rule): `linuxserver` `4.0.15.2941-ls301`, `version-…`, `develop-…`; `home-operations`, `onedr0p`,
 * `bjw-s` the version as-is (a leading `v` dropped); `k8s-at-home` `v` + version; `hotio` `<branch>-<version>`;
 * `binhex` `<version>-<pkgrel>-<NN>`; `as-is` the upstream tag; `revision` the upstream version plus one image
 * revision number (`3.7.5.0`); `own` the publisher's own numbering, never an upstream version.
 */
export const TAG_RULES = [
  'linuxserver',
  'home-operations',
  'onedr0p',
  'k8s-at-home',
  'bjw-s',
  'hotio',
  'binhex',
  'as-is',
  'revision',
  'own'
] as const
export type TagRule = (typeof TAG_RULES)[number]

/** The upstream channel a build follows: its tags name releases of that channel (a develop build, say). */
export const IMAGE_CHANNELS = ['stable', 'develop', 'nightly', 'beta'] as const
export type ImageChannel = (typeof IMAGE_CHANNELS)[number]

export const communityImageSchema = z
  .strictObject({
    image: z
      .string()
      .regex(IMAGE_PATTERN, 'must be a container image name without tag or digest, e.g. lscr.io/linuxserver/sonarr'),
    tags: z.enum(TAG_RULES).describe("The publisher's tag rule: how a tag names the upstream version"),
    channel: z
      .enum(IMAGE_CHANNELS)
      .optional()
      .describe('The upstream channel its version tags follow; absent when each tag names its own (hotio)')
  })
  .describe("A container image a third party builds around the app, with the publisher's tag rule")

export type CommunityImage = z.infer<typeof communityImageSchema>

export const catalogEntrySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(LIMITS.name).superRefine(cleanText()),
    repo: z
      .string()
      .regex(REPO_PATTERN, 'must be "<owner>/<name>"')
      // A clone URL's suffix: GitHub names no repository so, and the same one would be tracked twice.
      .refine((r) => !/\.git$/i.test(r), 'must not end in ".git": give "<owner>/<name>" as GitHub shows it'),
    tagPrefix: z
      .string()
      .min(1)
      .max(64)
      .superRefine(cleanText())
      .optional()
      .describe('Only tags starting with this belong to the app, e.g. "server@"'),
    tagPattern: z
      .string()
      .min(1)
      .max(256)
      .superRefine((s, ctx) => {
        const error = tagPatternError(s)
        if (error) ctx.addIssue({ code: 'custom', message: `must be a regular expression in RE2 syntax (${error})` })
      })
      .optional()
      .describe(
        'Only tags matching this regular expression (RE2 syntax: linear time, no lookaround or backreferences) belong to the app'
      ),
    archived: z.boolean().optional().describe('The repository was archived (read-only) when last checked'),
    successor: z.string().trim().min(1).max(LIMITS.successor).superRefine(cleanText()).optional(),
    lifecycle: z
      .strictObject({ product: z.string().regex(PRODUCT_PATTERN, 'must be an endoflife.date product id') })
      .optional(),
    override: overrideSchema.optional(),
    images: z
      .array(
        z.string().regex(IMAGE_PATTERN, 'must be a container image name without tag or digest, e.g. ghcr.io/owner/name')
      )
      .min(1)
      .max(20)
      .optional()
      .describe('Container image names this app is published as, e.g. ghcr.io/goauthentik/server; no tag'),
    community: z
      .array(communityImageSchema)
      .min(1)
      .max(40)
      .optional()
      .describe('Community builds of the app (LinuxServer.io, home-operations, hotio, …), each with its tag rule'),
    categories: z
      .array(z.string().trim().min(1).max(80).superRefine(cleanText()))
      .min(1)
      .max(8)
      .optional()
      .describe('The app\'s categories, e.g. awesome-selfhosted\'s "Media Streaming - Video Streaming"'),
    release: seedReleaseSchema.optional()
  })
  .describe('One curated catalog record')

export type CatalogEntry = z.infer<typeof catalogEntrySchema>
export type SeedRelease = z.infer<typeof seedReleaseSchema>
export type Override = z.infer<typeof overrideSchema>

// ---------------------------------------------------------------------------
// Published documents

export const LIFECYCLE_STATUSES = ['supported', 'eol-scheduled', 'eol'] as const

export const lifecycleSchema = z
  .strictObject({
    product: z.string().min(1),
    link: httpUrl,
    cycle: z.string().min(1),
    eol: z.union([dateString, z.literal(false)]),
    status: z.enum(LIFECYCLE_STATUSES),
    eolDate: dateString.nullable()
  })
  .refine((l) => (l.eol === false ? l.eolDate === null : l.eolDate === l.eol), {
    message: 'eolDate must equal eol when eol is a date, and be null when eol is false',
    path: ['eolDate']
  })
  .refine((l) => (l.eol === false ? l.status === 'supported' : l.status !== 'supported'), {
    message: 'status must be "supported" exactly when eol is false',
    path: ['status']
  })
  .describe('End-of-life data from endoflife.date for the release cycle of latestVersion')

export type Lifecycle = z.infer<typeof lifecycleSchema>

/**
 * The latestVersion of a record published before any release of its app was read (an offline build of a record with
 * no release facts): not a version, so never compared with one (pipeline/facts.ts: publishedRelease).
 */
export const NOT_READ_VERSION = 'not-read-yet'

const appRecordShape = {
  slug: z.string().regex(SLUG_PATTERN).describe('URL-safe key of the app; used in every path'),
  name: z.string().min(1).max(LIMITS.name).describe('Display name'),
  repo: z.string().regex(REPO_PATTERN).describe('Source repository, <owner>/<name>'),
  latestVersion: versionLabel.describe(
    'Latest stable release, exactly as upstream labels it; do not parse as one scheme'
  ),
  safeToUpdate: z.enum(CLASSES).describe('How safe it is to update to latestVersion'),
  rationale: z
    .string()
    .min(1)
    .max(LIMITS.rationale)
    .describe('Why: the rule, the release and the quoted words that decided'),
  changelogSummary: z
    .string()
    .min(1)
    .max(LIMITS.summary)
    .nullable()
    .describe('Plain-text summary of the notes; "..." when they were empty; null only for unknown/unmaintained'),
  sourceUrl: httpUrl.describe('Upstream release page of latestVersion'),
  lastChecked: dateString.describe('The last day upstream was read for this app (YYYY-MM-DD)'),
  successor: z.string().min(1).max(LIMITS.successor).nullable().describe('What replaces an unmaintained app, or null'),
  url: httpUrl.describe('{base_url}/apps/<slug>/'),
  badge: httpUrl.describe('{base_url}/badge/<slug>.svg'),
  lifecycle: lifecycleSchema.nullable().describe('End-of-life data, or null when none is tracked')
}

type RecordLike = { safeToUpdate: Classification; changelogSummary: string | null }
const summaryNullOnlyWhereAllowed = (r: RecordLike) =>
  r.changelogSummary !== null || r.safeToUpdate === 'unknown' || r.safeToUpdate === 'unmaintained'
const summaryRule = {
  message: 'changelogSummary may be null only when safeToUpdate is "unknown" or "unmaintained"',
  path: ['changelogSummary']
}

export const appRecordSchema = z
  .strictObject(appRecordShape)
  .refine(summaryNullOnlyWhereAllowed, summaryRule)
  .describe('One tracked application')

export type AppRecord = z.infer<typeof appRecordSchema>

/** When a document was built; the same rule in both documents. */
const generatedAt = z.string().regex(TIMESTAMP_PATTERN, 'must be ISO 8601 UTC with milliseconds and Z')

/** The catalog document's fields besides `apps`. */
export const catalogEnvelopeShape = {
  schema: z.literal(APPS_SCHEMA_ID),
  generatedAt,
  docs: z.string().min(1),
  count: z.number().int().nonnegative()
}
export const COUNT_MESSAGE = 'count must equal the number of apps'

export const catalogDocSchema = z
  .strictObject({ ...catalogEnvelopeShape, apps: z.array(appRecordSchema) })
  .refine((d) => d.count === d.apps.length, { message: COUNT_MESSAGE, path: ['count'] })
  .describe(`The whole catalog (${APPS_SCHEMA_ID})`)

export const appDocSchema = z
  .strictObject({
    schema: z.literal(APP_SCHEMA_ID),
    generatedAt,
    ...appRecordShape
  })
  .refine(summaryNullOnlyWhereAllowed, summaryRule)
  .describe(`One application (${APP_SCHEMA_ID}); the record's fields sit directly on the document`)

export type CatalogDoc = z.infer<typeof catalogDocSchema>
export type AppDoc = z.infer<typeof appDocSchema>

/** Field order of a record, as published. */
export const RECORD_FIELDS = Object.keys(appRecordShape) as (keyof AppRecord)[]

export const STATUS_SCHEMA_ID = `${SERVICE}.status.v1` as const

/** What a run published for an app whose record built from upstream data failed its schema (pipeline/records.ts). */
export const FAULT_OUTCOMES = ['previous', 'unknown', 'none'] as const

/** The run report (/api/v1/status.json): rewritten by every run, so a dead pipeline shows. */
/** `rules`, or `model:` and a model id as GitHub Models names them (`openai/gpt-4.1-mini`). */
export const JUDGE_PATTERN = /^(?:rules|model:[A-Za-z0-9][\w./-]{0,99})$/
/** A model id as GitHub Models names them (`openai/gpt-4.1-mini`). */
export const MODEL_ID_PATTERN = /^[A-Za-z0-9][\w./-]{0,99}$/
/** Most models a `model` list names (inputs.ts: MAX_MODELS). */
export const MAX_MODELS_LISTED = 5

export const statusDocSchema = z
  .strictObject({
    schema: z.literal(STATUS_SCHEMA_ID),
    runAt: generatedAt.describe('When this run built the site (ISO 8601 UTC); moves on every run'),
    lastChange: generatedAt.describe(
      'When a record last changed: the generatedAt of apps.json, which stays put on a run that finds nothing new'
    ),
    refresh: z.boolean().describe('Whether this run asked GitHub and endoflife.date for fresh data'),
    sourceCommit: z
      .string()
      .regex(/^[0-9a-f]{40}$/)
      .nullable()
      .describe('The commit of the catalog repository this run built from, when known'),
    counts: z
      .strictObject({
        apps: z.number().int().nonnegative().describe('Apps published'),
        refreshed: z.number().int().nonnegative().describe('Apps whose facts upstream answered this run'),
        stale: z.number().int().nonnegative().describe('Apps republished from last-known-good because upstream failed'),
        failed: z
          .number()
          .int()
          .nonnegative()
          .describe('Apps left out: upstream failed and no record had ever been published for them')
      })
      .describe('How the run went, per app'),
    stale: z
      .array(
        z.strictObject({
          slug: z.string().regex(SLUG_PATTERN),
          since: generatedAt.describe('The first run of the current unbroken stretch in which upstream failed')
        })
      )
      .describe('Stale apps, ordered by slug'),
    failed: z.array(z.string().regex(SLUG_PATTERN)).describe('Slugs left out of this snapshot, ordered'),
    historyReset: z
      .array(
        z.strictObject({
          document: z
            .string()
            .regex(/^api\/v1\/(?:apps\/[a-z0-9]+(?:-[a-z0-9]+)*\/releases|changes)\.json$/)
            .describe('The history document: api/v1/apps/<slug>/releases.json or api/v1/changes.json'),
          problem: z
            .string()
            .min(1)
            .max(LIMITS.reason)
            .describe("Why the previous one could not be used: missing, unreadable, not its schema, another app's"),
          rebuilt: z
            .boolean()
            .describe('Read again from upstream this run; false: it starts again from this run, older entries lost')
        })
      )
      .min(1)
      .optional()
      .describe(
        'History the previous snapshot could not hand on, ordered by document; absent when there was none. Judged releases and feed entries older than this run may be missing from these documents'
      ),
    faults: z
      .array(
        z.strictObject({
          slug: z.string().regex(SLUG_PATTERN),
          field: z.string().min(1).max(200).describe('The field of the record that failed its schema'),
          problem: z.string().min(1).max(LIMITS.reason).describe('What was wrong with it'),
          published: z
            .enum(FAULT_OUTCOMES)
            .describe(
              'What was published instead: "previous", its last published record; "unknown", a record saying its upstream data could not be published; "none", nothing (the app is in failed too)'
            )
        })
      )
      .min(1)
      .optional()
      .describe(
        "Apps whose record, built from upstream data, failed its schema this run, ordered by slug; absent when there was none. One app's fault never stops the run"
      ),
    judging: z
      .strictObject({
        judge: z.string().regex(JUDGE_PATTERN).describe('The judge this run was set to use'),
        calls: z.number().int().nonnegative().describe('Requests made to the model this run'),
        verdicts: z
          .record(z.string().regex(JUDGE_PATTERN), z.number().int().nonnegative())
          .describe(
            'Releases a model was to judge this run (none answered before), by who judged them: the model, or the rules when its budget or service ran out'
          ),
        pending: z
          .number()
          .int()
          .nonnegative()
          .optional()
          .describe(
            "Latest releases the first model has not judged yet (its budget or service ran out), and older releases read this run that a later model of the list judged: the rules' verdict, or a later model's of the list, stands for them until a later run asks the first model, the most recently published first. Present when the judge is a model; a first run over many apps catches up over days, and this counts down"
          ),
        unusable: z
          .number()
          .int()
          .positive()
          .optional()
          .describe(
            "Releases whose answers from a model could not be used this run (malformed twice, or quoting a line the notes do not hold): each release's history names the model in `unusable`, and that model is not asked about it again until the prompt's version or the notes change; the next model of the list, or the rules, judge it. Not counted in pending. Absent when there is none"
          ),
        models: z
          .array(z.string().regex(MODEL_ID_PATTERN))
          .min(2)
          .optional()
          .describe(
            'The models asked, in order, when the input `model` lists more than one: each release goes to the first whose daily limit is not spent, then the rules'
          ),
        injection: z
          .strictObject({
            count: z.number().int().positive().describe('How many apps'),
            apps: z.array(z.string().regex(SLUG_PATTERN)).min(1).describe('Their slugs, ordered')
          })
          .optional()
          .describe(
            'Apps with a release read this run whose notes address a reviewer or model, or ask for a class: those releases are judged by the rules alone and no model is asked. Absent when there is none'
          )
      })
      .optional()
      .describe('Who judged the releases of this run (absent in documents written before the model judge)')
  })
  .refine((d) => d.counts.stale === d.stale.length && d.counts.failed === d.failed.length, {
    message: 'counts.stale and counts.failed must equal the lengths of stale and failed',
    path: ['counts']
  })
  .describe(`The last run of the pipeline (${STATUS_SCHEMA_ID})`)

export type StatusDoc = z.infer<typeof statusDocSchema>
// ---------------------------------------------------------------------------
// Per-release history: /api/v1/apps/<slug>/releases.json

/** Releases kept per app, newest first; older ones drop off. */
export const HISTORY_MAX = 50

export const BREAKING_KINDS = ['urgent', 'required'] as const

/** A language model's answer for one release, as checked (classify/model-answer.ts) and kept for reuse. */
export const modelAnswerRecord = z
  .strictObject({
    id: z.string().regex(MODEL_ID_PATTERN).describe('The model id'),
    prompt: z.number().int().positive().describe('The version of the prompt it answered'),
    notes: z
      .string()
      .regex(/^[0-9a-f]{12}$/)
      .describe('Digest of the notes it read: the answer is reused only for the same notes'),
    class: z.enum(['safe', 'caution', 'breaking', 'unknown']).describe("The model's class"),
    breakingKind: z.enum(BREAKING_KINDS).nullable(),
    line: z.string().max(300).describe('The deciding line, as the notes write it; empty for unknown'),
    reason: z.string().min(1).max(300).describe('Why, in one sentence')
  })
  .describe("A language model's answer")

export type ModelAnswerRecord = z.infer<typeof modelAnswerRecord>

export const historyEntrySchema = z
  .strictObject({
    version: versionLabel.describe('The release as upstream labels it (the latestVersion it had, or would have had)'),
    tag: versionLabel.describe('The git tag of the release'),
    date: dateString.nullable().describe('Release date, when known'),
    url: httpUrl.describe('The release page (or the notes) of this release'),
    safeToUpdate: z.enum(CLASSES).describe('The class of this release alone, judged from its own notes'),
    rationale: z.string().min(1).max(LIMITS.rationale).describe('Why, in one sentence, quoting the deciding words'),
    evidence: z.string().min(1).max(LIMITS.reason).describe('What the deciding line does, in plain words'),
    quote: z.string().min(1).max(LIMITS.reason).nullable().describe('The deciding words, or null when no line decided'),
    security: z.boolean().describe('The notes announce a security fix'),
    breakingKind: z
      .enum(BREAKING_KINDS)
      .nullable()
      .describe(
        'For a breaking release: "urgent" (an urgent fix to apply now) or "required" (a required step); else null'
      ),
    basis: z
      .string()
      .regex(/^[0-9a-f]{8}\.[0-9a-f]{8}\.[0-9a-f]{12}$/)
      .describe(
        'What the verdict was computed from: classifier (model and judging code), curated override and notes digests'
      ),
    judge: z
      .string()
      .regex(JUDGE_PATTERN)
      .describe('Who judged: "rules", or "model:<id>" (a language model, with the rules\' floor under it)'),
    rules: z.enum(CLASSES).describe("The rules' own class for this release"),
    model: modelAnswerRecord
      .nullable()
      .describe("The model's checked answer when a model judged, else null (safeToUpdate is the verdict that stands)"),
    unusable: z
      .strictObject({
        models: z
          .array(z.string().regex(MODEL_ID_PATTERN))
          .min(1)
          .max(MAX_MODELS_LISTED)
          .describe('The models, in the order of the list'),
        prompt: z.number().int().positive().describe('The version of the prompt they answered'),
        notes: z
          .string()
          .regex(/^[0-9a-f]{12}$/)
          .describe('Digest of the notes they read')
      })
      .optional()
      .describe(
        'Present when models were asked about this release and their answers could not be used, the retry included (malformed, or quoting a line the notes do not hold): they are not asked about it again until the prompt or the notes change. Absent in documents written before'
      ),
    injection: z
      .literal(true)
      .optional()
      .describe(
        'Present when a line of the notes addresses a reviewer or model or asks for a class: the rules alone judged the release, no model was asked'
      )
  })
  .refine((e) => (e.safeToUpdate === 'breaking') === (e.breakingKind !== null), {
    message: 'breakingKind is set exactly when safeToUpdate is "breaking"',
    path: ['breakingKind']
  })
  .refine((e) => (e.model === null ? e.judge === 'rules' : e.judge === `model:${e.model.id}`), {
    message: 'judge is "rules" exactly when model is null, else "model:" and the model\'s id',
    path: ['judge']
  })
  .describe('One judged release')

export type HistoryEntry = z.infer<typeof historyEntrySchema>

/** How the record's own verdict was decided: the releases it crossed and the one that decided. */
export const latestVerdictSchema = z
  .strictObject({
    version: versionLabel.describe('latestVersion of the record'),
    considered: z.array(versionLabel).max(200).describe('Releases whose notes were read for it, oldest first'),
    decidedBy: versionLabel.nullable().describe('The release that decided its class, or null'),
    rule: z.string().min(1).max(80).nullable().describe('The deciding evidence (a detector or outcome), or null')
  })
  .describe("How the record's safeToUpdate was decided")

export type LatestVerdict = z.infer<typeof latestVerdictSchema>

/** Gaps kept per app: one per refresh that could not read back far enough, so a handful at most. */
export const GAPS_MAX = HISTORY_MAX

/**
 * A span of releases a refresh could not read: more came out since the version published before than one refresh
 * reads (upstream/github/query.ts: MAX_RELEASES_READ). Any update that crosses it is not known to be safe.
 */
export const historyGapSchema = z
  .strictObject({
    after: versionLabel.describe('The version published before: the span starts above it'),
    before: versionLabel.describe('The oldest release read above the span'),
    found: dateString.describe('The day the refresh found it could not read the span')
  })
  .describe('Releases after `after` and before `before` were never read or judged')

export type HistoryGap = z.infer<typeof historyGapSchema>

export const releasesDocSchema = z
  .strictObject({
    schema: z.literal(RELEASES_SCHEMA_ID),
    generatedAt: generatedAt.describe('When this history last changed'),
    slug: z.string().regex(SLUG_PATTERN),
    latest: latestVerdictSchema.nullable(),
    releases: z.array(historyEntrySchema).max(HISTORY_MAX).describe('Judged releases, newest first'),
    gaps: z
      .array(historyGapSchema)
      .min(1)
      .max(GAPS_MAX)
      .optional()
      .describe(
        "Spans of releases that were never read, newest first; absent when there is none. An update from a version below a span's `before` crosses releases nobody judged: it is unknown, never safe"
      )
  })
  .describe(`The releases judged for one application, newest first (${RELEASES_SCHEMA_ID})`)

export type ReleasesDoc = z.infer<typeof releasesDocSchema>

// ---------------------------------------------------------------------------
// Container images of the tracked apps: /api/v1/images.json

export const imagesDocSchema = z
  .strictObject({
    schema: z.literal(IMAGES_SCHEMA_ID),
    generatedAt: generatedAt.describe('generatedAt of the catalog it belongs to'),
    images: z
      .array(
        z.strictObject({
          image: z.string().regex(IMAGE_PATTERN).describe('An image name as the catalog gives it, without tag'),
          slug: z.string().regex(SLUG_PATTERN).describe('The app it belongs to'),
          tags: z
            .enum(TAG_RULES)
            .optional()
            .describe(
              "A community build's tag rule (how its tags name the upstream version); absent for the project's own images"
            ),
          channel: z
            .enum(IMAGE_CHANNELS)
            .optional()
            .describe('The upstream channel a community build follows, where it has one')
        })
      )
      .describe('Ordered by image name')
  })
  .describe(`Container image names of the tracked apps, for mapping a Compose file to apps (${IMAGES_SCHEMA_ID})`)

export type ImagesDoc = z.infer<typeof imagesDocSchema>

// ---------------------------------------------------------------------------
// Categories of the tracked apps: /api/v1/categories.json (beside the spec's documents: its records gain no field)

export const CATEGORIES_SCHEMA_ID = `${SERVICE}.categories.v1` as const

/** Where the categories come from, said in the document and on the pages that show them (CC-BY-SA 3.0 asks it). */
export const CATEGORIES_CREDIT = {
  name: 'awesome-selfhosted',
  url: 'https://github.com/awesome-selfhosted/awesome-selfhosted-data',
  license: 'CC-BY-SA-3.0'
} as const

export const categoriesDocSchema = z
  .strictObject({
    schema: z.literal(CATEGORIES_SCHEMA_ID),
    generatedAt: generatedAt.describe('generatedAt of the catalog it belongs to'),
    source: z
      .strictObject({
        name: z.literal(CATEGORIES_CREDIT.name),
        url: z.literal(CATEGORIES_CREDIT.url),
        license: z.literal(CATEGORIES_CREDIT.license)
      })
      .describe('Where the categories come from, and their license'),
    categories: z
      .array(
        z.strictObject({
          name: z.string().min(1).max(80).describe('A category, e.g. "Media Streaming - Video Streaming"'),
          slugs: z.array(z.string().regex(SLUG_PATTERN)).min(1).describe('The apps in it, ordered by slug')
        })
      )
      .describe('Ordered by name (code-unit order)')
  })
  .describe(`The categories of the tracked apps, each with its apps (${CATEGORIES_SCHEMA_ID})`)

export type CategoriesDoc = z.infer<typeof categoriesDocSchema>
