// The one build flow shared by the action and the CLI, as named steps:
// catalog → previous snapshot → release facts (seed, last-known-good, refresh) →
// end-of-life data → one record per app (verdict included) → changes →
// documents and pages → validate → write aside and swap.
// Every side effect comes in through `deps`, so tests hand in fakes.
import { shownPath } from '../util/shown-path.js'
import { quoted } from '../util/text.js'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { plausibleUntil, utcDay } from '../util/dates.js'
import { futureDays, readCatalog, type CatalogRead, type LoadedEntry } from '../catalog/load.js'
import { checkOutputDir, recoverOutputDir, StagedTree, type SiteFile } from '../output/write-tree.js'
import { snapshotChecker } from '../output/validate.js'
import type { AppRecord, CommunityImage, ReleasesDoc } from '../schema/index.js'
import { buildDocuments, categoriesDoc, imagesDoc, jsonSchemas } from '../site/api.js'
import { atomFiles } from '../site/atom.js'
import { mergeChanges, mintIdPrefix, renderChangesDoc, type Change } from '../site/changes.js'
import { appPageFiles, sharedPageFiles, type PageInput } from '../site/pages.js'
import type { OfflineData } from '../site/html/text.js'
import { sha256 } from '../util/digest.js'
import { normaliseBaseUrl, paths } from '../site/paths.js'
import { renderStatusDoc, staleSinceOf, type HistoryLoss, type RunReport } from '../site/status.js'
import type { EndoflifeProduct } from '../upstream/endoflife.js'
import type { RefreshOutcome, RefreshStats, RefreshTarget } from '../upstream/github/refresh.js'
import { isSplitJson, joinJson, splitJson, toJson, type SplitJson } from '../util/json.js'
import { problem, ProblemsError } from '../util/problems.js'
import { compareVersions, sameVersion } from '../util/versions.js'
import type { Logger } from '../util/types.js'
import {
  notBackwards,
  notReadRecord,
  offlineFacts,
  publishedRelease,
  publishedVersion,
  refreshedFacts,
  type AppFacts
} from './facts.js'
import { productDocs } from './lifecycle.js'
import {
  historyProblem,
  previousPublishes,
  readPrevious,
  readPreviousChanges,
  readPreviousHistory,
  readPreviousReuse,
  readPreviousRun,
  type PreviousChanges,
  type PreviousSnapshot
} from './previous.js'
import { CLASSIFIER_DIGEST, PROMPT_VERSION } from '../classify/index.js'
import { againFor, judgeByModel, type ModelAsker } from './judge-models.js'
import { lostHistories } from './lost-history.js'
import { appRecord, diffRecords, type HistoryReset, type RecordChange, type RecordFault } from './records.js'
import {
  carriedFiles,
  judgedProgram,
  knownRecords,
  nextReuseDoc,
  reusableEntry,
  unchangedFeeds,
  type NotesKey
} from './reuse.js'
import {
  notesDigest,
  notesFileOutcomes,
  readNotesFile,
  type NotesFile,
  type NotesTarget
} from '../upstream/notes-file.js'

export { diffRecords, settle, type RecordChange } from './records.js'

export interface BuildOptions {
  catalogDir: string
  outDir: string
  baseUrl: string
  now: Date
  /** The published snapshot (e.g. the Pages branch checked out): last-known-good. */
  previousDir?: string
  /** Ask GitHub and endoflife.date for fresh data (needs deps.refresh / deps.fetchProduct). */
  refresh?: boolean
  /** Resolves relative paths and guards the output directory. */
  cwd?: string
  /** The commit of the catalog repository being built (GITHUB_SHA), published in status.json. */
  sourceCommit?: string | null
  /** Read release notes from this JSON-lines file, or these, read as one (the data set's shape), instead of from GitHub. */
  notesFrom?: string | readonly string[]
  /**
   * What the data of a build without `refresh` is, for the banner every page then shows: by default the catalog's
   * last known facts, as of the newest `checked` day among the records (each app page: its own).
   */
  offline?: { source: string; asOf?: string }
  /**
   * Build these apps alone (their slugs), a preview: with refresh, only they are read from upstream. The site holds
   * them alone, so it is not one to publish over a full snapshot.
   */
  only?: readonly string[]
  /** The catalog's apps are made up (`npm start`'s demo): every page says so instead of the offline banner. */
  demo?: boolean
}

/** A build with no source of notes: what the banner says, with how to get them. */
export const NO_NOTES_SOURCE =
  "the catalog's records (and the snapshot before, if any), with no release notes read: build with --refresh " +
  '(GITHUB_TOKEN set) or --notes-from a notes file to judge new releases'

/** What an app page of a --notes-from build says its data came from (the index names the file). */
export const NOTES_FILE_SOURCE = 'a file of release notes'

/** `notesFrom` as a list: none, one file or several. */
const notesFiles = (notesFrom: BuildOptions['notesFrom']): readonly string[] =>
  notesFrom === undefined ? [] : typeof notesFrom === 'string' ? [notesFrom] : notesFrom

/** The banner's data for a build without refresh, null for a refresh. */
function offlineData(opts: BuildOptions): OfflineData | null {
  if (opts.refresh) return null
  const asOf = opts.offline?.asOf ?? null
  if (opts.demo) return { source: 'made-up apps and notes', asOf, demo: true }
  if (opts.offline?.source) return { source: opts.offline.source, asOf }
  const files = notesFiles(opts.notesFrom)
  if (files.length === 0) return { source: NO_NOTES_SOURCE, asOf }
  const names = files.map((f) => path.basename(f)).join(' and ')
  return { source: `the release notes in ${names}`, pageSource: NOTES_FILE_SOURCE, asOf }
}

export interface JudgeNote {
  level: 'info' | 'warning'
  text: string
}

export interface BuildDeps {
  log: Logger
  /**
   * The running program's identity (pipeline/reuse.ts: programDigest). With it, apps that did not change since the
   * previous snapshot are carried over from it unread; without it (running from source) every app is built.
   */
  program?: string | null
  /** A language model to judge releases (pipeline/judge-models.ts); without one the rules judge. */
  modelJudge?: ModelAsker | null
  /** What to say of the judge (which model, or why the rules), once the build has accepted its inputs. */
  judgeNotes?: readonly JudgeNote[]
  refresh?: (targets: RefreshTarget[]) => Promise<{ outcomes: Map<string, RefreshOutcome>; stats: RefreshStats }>
  fetchProduct?: (product: string) => Promise<EndoflifeProduct>
}

export interface BuildResult {
  outDir: string
  generatedAt: string
  count: number
  /** Slugs whose record differs from the previous snapshot (all, on a first publication), or that were removed. */
  changed: string[]
  /** What changed for each of `changed`, for the job summary. */
  changes: RecordChange[]
  /** Every warning of the run, in order. */
  warnings: string[]
  /** Slugs republished from last-known-good because upstream failed. */
  stale: string[]
  /** Apps not in this snapshot: never published, no seed, and the refresh found no release for them. */
  leftOut: LeftOut[]
  stats: RefreshStats | null
  /** When this run happened (status.json's runAt); generatedAt is when a record last changed. */
  runAt: string
  /** Histories of the previous snapshot that could not be carried over, and what was done (status.json). */
  historyReset: HistoryLoss[]
  /** Who judged this run's releases, and the model calls made (status.json's judging). */
  judging: RunReport['judging'] | null
  /** Apps whose record built from upstream data failed its schema, and what was published instead (status.json). */
  faults: RecordFault[]
}

/**
 * Release facts for every app: offline from last-known-good, merged with a refresh, or read from a notes file
 * (an app the file has no releases of keeps its last-known-good, as offline).
 */
async function gatherFacts(
  entries: LoadedEntry[],
  previous: ReadonlyMap<string, AppRecord>,
  refresh: BuildDeps['refresh'] | undefined,
  notes: { file: NotesFile; now: Date } | null,
  /** The app's judged history in the previous snapshot was lost: the refresh (or the notes file) reads it again. */
  lostHistory: (slug: string) => boolean,
  log: Logger,
  /** Versions of the app's history to read again for the first model of a list (judge-models.ts: againFor). */
  againOf: (slug: string) => string[] = () => []
): Promise<{ apps: AppFacts[]; stats: RefreshStats | null }> {
  if (!refresh && !notes) return { apps: entries.map((e) => offlineFacts(e, previous.get(e.slug))), stats: null }
  const targets: NotesTarget[] = entries.map((e) => {
    const installed = publishedVersion(e, previous.get(e.slug))
    const again = againOf(e.slug)
    return {
      slug: e.slug,
      repo: e.entry.repo,
      ...(e.entry.tagPrefix ? { tagPrefix: e.entry.tagPrefix } : {}),
      ...(e.entry.tagPattern ? { tagPattern: e.entry.tagPattern } : {}),
      ...(installed ? { previousVersion: installed } : {}),
      ...(lostHistory(e.slug) ? { rebuildHistory: true } : {}),
      ...(again.length > 0 ? { again } : {}),
      ...(e.entry.release ? { seed: e.entry.release } : {}),
      ...(e.entry.archived ? { archived: true } : {})
    }
  })
  if (notes) {
    // The file's releases all go into a new app's history: the catalog's release is not an installed version.
    // One whose history was lost has every release of the file read again.
    const fromPublished = targets.map(({ previousVersion: _, rebuildHistory: _r, ...t }) => {
      const published = lostHistory(t.slug) ? undefined : publishedRelease(previous.get(t.slug))?.latestVersion
      return published ? { ...t, previousVersion: published } : t
    })
    const outcomes = notesFileOutcomes(notes.file, fromPublished, notes.now)
    const facts = entries.map((e) => {
      const outcome = outcomes.get(e.slug)
      const before = publishedRelease(previous.get(e.slug))
      // The file never takes an app back: what was published newer (or read later) stays, as offline.
      const behind =
        outcome?.status === 'fresh' &&
        before &&
        ((compareVersions(outcome.facts.version, before.latestVersion, e.entry.tagPrefix) ?? -1) < 0 ||
          (sameVersion(outcome.facts.version, before.latestVersion, e.entry.tagPrefix) &&
            outcome.facts.checked < before.lastChecked))
      if (behind && before && !sameVersion(outcome.facts.version, before.latestVersion, e.entry.tagPrefix))
        log.warning(
          `${e.slug}: the notes file's newest release ${quoted(outcome.facts.version)} is older than the published ${quoted(before.latestVersion)}; the published record is kept`,
          { file: e.file }
        )
      // The record names a newer release than any the file holds: its facts stand, unjudged; say so, as the
      // file's releases of the app are then not read at all.
      const held = outcome ? undefined : notes.file.byRepo.get(e.entry.repo.toLowerCase())
      const newest = held
        ?.map((h) => h.version)
        .reduce((a, b) => ((compareVersions(b, a, e.entry.tagPrefix) ?? -1) > 0 ? b : a))
      if (newest && e.entry.release && (compareVersions(e.entry.release.version, newest, e.entry.tagPrefix) ?? -1) > 0)
        log.warning(
          `${e.slug}: the notes file's ${held!.length} release${held!.length === 1 ? '' : 's'} of ${e.entry.repo} are older than the record's release ${quoted(e.entry.release.version)}, so none is read and that release is published unjudged; give a notes file that holds it, or build with --refresh`,
          { file: e.file }
        )
      return outcome && !behind
        ? refreshedFacts(e, previous.get(e.slug), outcome)
        : offlineFacts(e, previous.get(e.slug))
    })
    return { apps: facts, stats: null }
  }
  const { outcomes, stats } = await refresh!(targets.map(({ seed: _s, archived: _a, ...t }) => t))
  const apps = entries.map((e) => {
    const before = previous.get(e.slug)
    // A latest that goes back (a deleted release) keeps the published record, stale, with why (facts.ts).
    return notBackwards(refreshedFacts(e, before, outcomes.get(e.slug)), before)
  })
  return { apps, stats }
}

/** An app left out of this snapshot, and what upstream did. */
export interface LeftOut {
  slug: string
  reason: string
}

/**
 * Every app needs release data from somewhere: the catalog's seed, the previous snapshot or a refresh.
 * Offline (no refresh), a record without any is published as `unknown`, its releases not read yet (facts.ts:
 * notReadRecord): a catalog grows by records of names and images, and a build from it never fails or drops one.
 * One the previous run left out (upstream gave it no release) stays left out, so an offline run after a refresh
 * changes nothing. After a refresh it is what upstream did (no stable release or tag, 404, failures) to an app never
 * published before: that app is left out of this snapshot with a warning, and the run goes on for the others.
 */
function withReleaseData(
  apps: AppFacts[],
  refreshed: boolean,
  log: Logger,
  /** The run's day (YYYY-MM-DD), for a record published unread when no other fact names a day. */
  today: string,
  /** Apps the previous run left out: offline, one of them stays left out (upstream's doing). */
  leftBefore: ReadonlySet<string> = new Set()
): { apps: AppFacts[]; leftOut: LeftOut[]; notRead: number } {
  const missing = apps.filter((a) => !a.facts && !a.kept)
  if (missing.length === 0) return { apps, leftOut: [], notRead: 0 }
  const notRead = new Set(refreshed ? [] : missing.filter((a) => !leftBefore.has(a.slug)).map((a) => a.slug))
  if (notRead.size > 0) {
    // As of the newest day the build's other facts were read, as the index's "as of" is: not the build's own day.
    let asOf: string | null = null
    for (const a of apps) {
      const day = a.facts?.checked ?? a.kept?.lastChecked
      // A day years ahead is a typo in one record (catalog/load.ts: futureDays), not the others' "as of".
      if (day && day <= plausibleUntil(today) && (asOf === null || day > asOf)) asOf = day
    }
    const checked = asOf ?? today
    apps = apps.map((a) => (notRead.has(a.slug) ? { ...a, kept: notReadRecord(a, checked) } : a))
    log.info(
      `${notRead.size} app${notRead.size === 1 ? '' : 's'} with no release read yet (no release: in the record, none in a notes file): published as unknown until a refresh reads them`
    )
  }
  const left = missing.filter((a) => !notRead.has(a.slug))
  const leftOut = left.map((a) => ({
    slug: a.slug,
    reason:
      a.note ??
      (refreshed ? 'GitHub gave no answer' : 'the previous run left it out too, and this one read no upstream')
  }))
  for (const [i, a] of left.entries()) {
    log.warning(
      `${a.slug} left out of this snapshot: ${leftOut[i]!.reason}; it was never published and the catalog record has no release block`,
      { file: a.file, line: 1 }
    )
  }
  return { apps: apps.filter((a) => a.facts || a.kept), leftOut, notRead: notRead.size }
}

/** A file of the site as produced: the catalog and the change history split by element (see util/json.ts). */
type SiteDoc = readonly [path: string, content: SiteFile[1] | SplitJson]

/**
 * Every file of the site but each app's releases document, page, badge and shields endpoint (already in the
 * tree), produced one at a time so a large site never sits in memory whole.
 */
function* siteFiles(
  judged: Judged,
  records: AppRecord[],
  history: Change[],
  report: RunReport,
  baseUrl: string,
  idPrefix: string,
  feedsCarried: ReadonlySet<string>,
  offline: OfflineData | null
): Generator<SiteDoc> {
  const { pages, images } = judged
  const generatedAt = report.lastChange
  const { catalog, apps } = buildDocuments(records, generatedAt, baseUrl)
  yield [paths.catalog, splitJson(catalog, 'apps')]
  for (const doc of apps) yield [paths.app(doc.slug), toJson(doc)]
  yield [paths.images, toJson(imagesDoc(images, generatedAt))]
  yield [paths.categories, toJson(categoriesDoc(images, generatedAt))]
  yield* jsonSchemas(baseUrl)
  yield [paths.status, renderStatusDoc(report)]
  // Only the index says when the last run was (see publishApps in build for the app pages).
  yield* sharedPageFiles(pages, { generatedAt, runAt: report.runAt, baseUrl, feeds: true, offline })
  yield [paths.changes, renderChangesDoc(history, baseUrl, idPrefix)]
  yield* atomFiles(history, records, generatedAt, baseUrl, idPrefix, feedsCarried)
}

/**
 * Apps judged one after another before their files are rendered and staged one after another (see judgeCatalog):
 * each step's code and data stay in the processor's caches through a chunk instead of being evicted by the next
 * step after every app. Six alternated cold builds of 10,000 apps (32 a chunk, Node 20): faster in every pair,
 * wall median 11.72 → 11.07 s. On Node 24, whose small semi-spaces (util/heap.ts) promote what a chunk holds,
 * 32 a chunk peaked at 299–324 MB RSS with 4 MB semi-spaces; 16 at 250–298 MB (one at a time: 259–289 MB), as fast.
 */
const APPS_PER_CHUNK = 16

/** An app's judged releases document and page input, ready to render (see judgeCatalog). */
interface AppToPublish {
  page: PageInput
  releases: ReleasesDoc
  /** Since when its facts have been stale, when they are. */
  staleSince: string | null
}

/** What the catalog, the previous snapshot and upstream gave: one judged record per app. */
interface Judged {
  /** Apps whose files were carried over from the previous snapshot (pipeline/reuse.ts). */
  carried: Set<string>
  /** This build's reuse record, for the next one; null when nothing may be reused. */
  reuseDoc: string | null
  snapshot: PreviousSnapshot | null
  previousChanges: PreviousChanges
  staleBefore: ReadonlyMap<string, string>
  pages: PageInput[]
  stale: string[]
  leftOut: LeftOut[]
  /** Each app's image names, community builds and categories, from its catalog file (or the reuse record for a carried app). */
  images: {
    slug: string
    images?: readonly string[]
    community?: readonly CommunityImage[]
    categories?: readonly string[]
  }[]
  stats: RefreshStats | null
  /** Histories of the previous snapshot that could not be carried over (see lostHistories). */
  historyReset: HistoryLoss[]
  /** Who judged this run's releases, and the model calls made. */
  judging: RunReport['judging']
  /** Records built from upstream data that failed their schema (see records.ts: recordAtFault). */
  faults: RecordFault[]
}

/**
 * Steps 2–6: catalog → previous snapshot → release facts → end-of-life data → one record per app, the
 * releases documents and pages handed to `publishApps` APPS_PER_CHUNK apps at a time. The catalog entries and
 * facts (the release notes among them) end with this function: only records and page inputs go on.
 */
async function judgeCatalog(
  opts: BuildOptions,
  deps: BuildDeps,
  dirs: { catalogDir: string; previousDir: string | undefined; notesFrom: readonly string[]; baseUrl: string },
  log: Logger,
  out: { publishApps: (apps: AppToPublish[]) => void; carry: Carry }
): Promise<Judged> {
  const { catalogDir, previousDir, notesFrom, baseUrl } = dirs
  // 2. The previous snapshot: last-known-good records, the change history and what each app was built from.
  const snapshot = await readPrevious(previousDir, log)
  const previous = snapshot?.records ?? new Map<string, AppRecord>()
  const previousChanges = await readPreviousChanges(previousDir, log)
  const { staleSince: staleBefore, leftOut: leftBefore } = await readPreviousRun(previousDir, log)
  // An offline build of the same program carries over the apps whose catalog file and record did not change. The
  // pages name who judged and where an offline build's data came from: data named otherwise is another program's.
  const judge = deps.modelJudge?.judge ?? 'rules'
  const offline = offlineData(opts)
  const program = deps.program
    ? judgedProgram(
        offline
          ? sha256(`${deps.program}\n${offline.pageSource ?? offline.source}\n${offline.asOf ?? ''}`).slice(0, 32)
          : deps.program,
        judge,
        PROMPT_VERSION
      )
    : null
  const reused = program && !opts.refresh ? await readPreviousReuse(previousDir, program, log) : null
  const sources = new Map<string, string>()
  // Named as the catalog is, so messages give the path as the user typed it.
  const notes =
    notesFrom.length > 0
      ? readNotesFile(
          notesFrom.map((f) => shownPath(f, process.cwd())),
          log
        )
      : null
  const notesKey: NotesKey = (repo) => (notes ? notesDigest(notes, repo) : '')
  const known = program
    ? knownRecords(program, baseUrl, previous, reused, out.carry.present, sources, notesKey)
    : undefined
  // 3. The catalog, named so that messages give paths as the user typed them.
  const read = onlySome(await readCatalog(shownPath(catalogDir, process.cwd()), log, known), opts.only)
  const entries = read.entries
  // The inputs are read and accepted (the notes file, the catalog): now say who judges.
  for (const note of deps.judgeNotes ?? []) log[note.level](note.text)
  for (const { slug } of read.known) out.carry.adopt(slug)
  for (const w of futureDays(entries, utcDay(opts.now)))
    log.warning(`${w.field}: ${w.message}`, { file: w.file, line: w.line })
  // 4. Release facts for every app; an app whose judged history was lost has it read again (issue 48).
  const previousHistories = previousPublishes(previousDir, paths.releasesSchema)
  const lost = (slug: string) => historyProblem(previousDir, slug, previousHistories && previous.has(slug)) !== null
  const gathered = await gatherFacts(
    entries,
    previous,
    opts.refresh ? deps.refresh : undefined,
    notes && { file: notes, now: opts.now },
    lost,
    log,
    // A release a later model of the list judged is asked of the first again when the read holds its notes.
    (slug) => {
      const models = deps.modelJudge?.models ?? []
      if (models.length < 2) return []
      const held = readPreviousHistory(previousDir, slug)
      return 'history' in held ? againFor(models, held.history.releases) : []
    }
  )
  // A refused token with nothing published before has no last-known-good to fall back on: never publish the seeds
  // alone (or an empty catalog) as if the refresh had been done.
  if (gathered.stats?.tokenRefused && !snapshot)
    throw problem(
      'build',
      `GitHub refused the token (${gathered.stats.tokenRefused}) and there is no previous snapshot to fall back on; check GITHUB_TOKEN or the github-token input`
    )
  const { apps, leftOut } = withReleaseData(
    gathered.apps,
    Boolean(opts.refresh),
    log,
    opts.now.toISOString().slice(0, 10),
    opts.refresh ? undefined : leftBefore
  )
  // 5. End-of-life data for the products the catalog names.
  const docs = await productDocs(apps, catalogDir, opts.refresh ? deps.fetchProduct : undefined, log)
  // 5b. The judge: a language model's answers for the releases judged now, reused or asked within the run's budget
  //     (pipeline/judge-models.ts); without a model, or past its budget, the rules judge.
  const judging = await judgeByModel(apps, previousDir, deps.modelJudge ?? null)
  // 6. One record per app: facts → verdict (yesterday's, when its basis holds) → record, checked and
  //    settled against the previous one; its judged releases join the history read back from the snapshot.
  const ctx = {
    baseUrl,
    now: opts.now,
    docs,
    previous,
    previousDir,
    model: CLASSIFIER_DIGEST,
    judging,
    log,
    previousHistories,
    reset: [] as HistoryReset[],
    faults: [] as RecordFault[],
    injection: new Set<string>()
  }
  const runAt = opts.now.toISOString()
  const judged = new Map<string, { app: AppFacts; page: PageInput }>()
  // A successor this catalog tracks is linked to its own page (GitHub treats owner/name case-insensitively).
  const slugOfRepo = new Map(entries.map((e) => [e.entry.repo.toLowerCase(), e.slug]))
  for (let i = 0; i < apps.length; i += APPS_PER_CHUNK) {
    // An app with nothing it can publish (records.ts: recordAtFault) is left out, as one upstream gave nothing for.
    const chunk = apps.slice(i, i + APPS_PER_CHUNK).flatMap((app) => {
      const built = appRecord(app, ctx)
      // The catalog's categories go to the pages only, never into the record (the spec's records gain no field).
      if (!built) return []
      const successor = built.page.record.successor
      const successorSlug = successor === null ? undefined : slugOfRepo.get(successor.toLowerCase())
      return [{ app, ...built, page: { ...built.page, categories: app.entry.categories, successorSlug } }]
    })
    out.publishApps(
      chunk.map(({ app, page, releases }) => ({
        page,
        releases,
        staleSince: app.stale ? staleSinceOf(app.slug, { runAt, staleBefore }) : null
      }))
    )
    for (const { app, page } of chunk) judged.set(app.slug, { app, page })
  }
  const faulty = new Set(ctx.faults.map((f) => f.slug))
  for (const f of ctx.faults)
    if (f.published === 'none')
      leftOut.push({ slug: f.slug, reason: `its upstream data cannot be published (${f.field})` })
  const historyReset = lostHistories(ctx.reset, previousChanges, previousDir, Boolean(opts.refresh))
  // Carried apps keep their record; their page is not rendered, so it needs nothing else.
  const carried = new Map(
    read.known.map(({ slug }) => {
      const record = previous.get(slug)!
      const { images, community, categories, released } = reused!.apps[slug]!
      const releaseDate = released ?? null
      const page = {
        record,
        stale: false,
        releaseDate,
        releasesConsidered: [],
        rule: null,
        decidedBy: null,
        categories
      }
      return [slug, { page, images, community, categories }]
    })
  )
  const order = read.order.filter((slug) => judged.has(slug) || carried.has(slug))
  const imagesOf = (slug: string) => {
    const app = judged.get(slug)?.app
    return app ? app.entry.images : carried.get(slug)!.images
  }
  const categoriesOf = (slug: string) => {
    const app = judged.get(slug)?.app
    return app ? app.entry.categories : carried.get(slug)!.categories
  }
  const communityOf = (slug: string) => {
    const app = judged.get(slug)?.app
    return app ? app.entry.community : carried.get(slug)!.community
  }
  const pages = order.map((slug) => judged.get(slug)?.page ?? carried.get(slug)!.page)
  const images = order.map((slug) => ({
    slug,
    images: imagesOf(slug),
    community: communityOf(slug),
    categories: categoriesOf(slug)
  }))
  // What the next offline build may carry over: apps whose files depend on nothing but their file and record.
  const built = order.map((slug) => {
    const app = judged.get(slug)?.app
    const { record, releaseDate } = (judged.get(slug) ?? carried.get(slug)!).page
    // Facts read on this build's day (a notes file's release the catalog does not record) are recordable too: the
    // next build reads them on its own day, and a record that differs by lastChecked alone settles to the published
    // one (records.ts: settle), so the key still holds. Left out, such apps were built again every day, for ever.
    // A record at fault is built again next time, so its fault is told again.
    const recordable =
      !app || (!app.stale && reusableEntry(app.entry) && !judging.pending.has(slug) && !faulty.has(slug))
    return {
      slug,
      record,
      images: imagesOf(slug),
      community: communityOf(slug),
      categories: categoriesOf(slug),
      releaseDate,
      recordable
    }
  })
  const reuseDoc = program && !opts.refresh ? nextReuseDoc(program, baseUrl, built, sources, notesKey) : null
  return {
    carried: new Set(carried.keys()),
    reuseDoc,
    snapshot,
    previousChanges,
    staleBefore,
    pages,
    stale: apps.filter((a) => a.stale).map((a) => a.slug),
    leftOut,
    images,
    stats: gathered.stats,
    historyReset,
    judging: {
      judge: judging.judge,
      calls: judging.calls,
      verdicts: judging.verdicts,
      // Only a model judge has releases waiting for it.
      ...(deps.modelJudge ? { pending: judging.pendingReleases } : {}),
      ...(judging.unusableReleases > 0 ? { unusable: judging.unusableReleases } : {}),
      ...(deps.modelJudge && deps.modelJudge.models.length > 1 ? { models: deps.modelJudge.models } : {}),
      ...(ctx.injection.size > 0 ? { injection: [...ctx.injection] } : {})
    },
    faults: ctx.faults
  }
}

/** The catalog narrowed to `only` (every slug of it must be a record); the whole catalog without it. */
function onlySome(read: CatalogRead, only: readonly string[] | undefined): CatalogRead {
  if (!only) return read
  const wanted = new Set(only)
  const missing = [...wanted].filter((slug) => !read.order.includes(slug))
  if (missing.length > 0)
    throw new ProblemsError('build', [
      { message: `--only ${missing.join(', ')}: no such record in the catalog (apps/<slug>.yml)` }
    ])
  return {
    entries: read.entries.filter((e) => wanted.has(e.slug)),
    known: read.known.filter((k) => wanted.has(k.slug)),
    order: read.order.filter((slug) => wanted.has(slug))
  }
}

/** How an app's files are carried over from the previous snapshot (see pipeline/reuse.ts). */
interface Carry {
  /** Does the previous snapshot hold every file to carry over? */
  present: (slug: string) => boolean
  adopt: (slug: string) => void
  adoptFile: (file: string) => void
}

/** A logger that also keeps every warning, for the result and the job summary. */
function keepingWarnings(log: Logger): { log: Logger; warnings: string[] } {
  const warnings: string[] = []
  return {
    warnings,
    log: {
      info: (m) => log.info(m),
      warning: (m, ref) => {
        warnings.push(m)
        log.warning(m, ref)
      },
      error: (m, ref) => log.error(m, ref)
    }
  }
}

export async function build(opts: BuildOptions, deps: BuildDeps): Promise<BuildResult> {
  const { log, warnings } = keepingWarnings(deps.log)
  const cwd = opts.cwd ?? process.cwd()
  const baseUrl = normaliseBaseUrl(opts.baseUrl)
  if (Number.isNaN(opts.now.getTime())) throw problem('build', '--now is not a valid date')
  if (opts.refresh && !deps.refresh) throw problem('build', 'refresh was requested but no GitHub client is configured')
  if (opts.refresh && notesFiles(opts.notesFrom).length > 0)
    throw problem('usage', 'choose one source of release notes: --refresh or --notes-from')
  const catalogDir = path.resolve(cwd, opts.catalogDir)
  const outDir = path.resolve(cwd, opts.outDir)

  // 1. Refuse an output directory whose replacement would destroy something.
  await checkOutputDir(opts.outDir, { catalogDir: opts.catalogDir, cwd })
  // An interrupted build leaves its staging folder, or worse, no --out at all: recover before going on.
  for (const line of await recoverOutputDir(outDir)) log.warning(line)
  const previousDir = opts.previousDir && path.resolve(cwd, opts.previousDir)
  // A first publication gives an empty folder (publish.sh prepare makes one); a path that names nothing is a typo,
  // and taken for a first run it would republish the site from nothing and drop every app upstream failed on.
  if (
    previousDir &&
    !(await stat(previousDir).then(
      (s) => s.isDirectory(),
      () => false
    ))
  )
    throw problem(
      'bad-input',
      `previous snapshot ${JSON.stringify(opts.previousDir)} does not exist: give the published site (the Pages branch checked out; an empty folder on the first run), or leave it out`
    )
  const notesFrom = notesFiles(opts.notesFrom).map((f) => path.resolve(cwd, f))
  // The new tree is written beside outDir as the run goes; each file is checked as it is written.
  // Files equal to the previous snapshot's are linked from it rather than written again (see StagedTree).
  const tree = await StagedTree.open(outDir, previousDir ? { previousDir } : undefined)
  const offline = offlineData(opts)
  try {
    const checker = snapshotChecker(baseUrl)
    const stage = (file: string, content: SiteDoc[1], fresh = false) => {
      checker.add(file, content)
      tree.write(file, isSplitJson(content) ? joinJson(content) : content, fresh)
    }
    // 2–6. One judged record per app; its releases document, page, badge and shields endpoint go into the tree
    //      with those of its chunk of apps. App pages do not name the snapshot's time, so an app that did not
    //      change keeps its page; nothing on a page counts days from the build (see html/app-page.ts).
    const carry: Carry = {
      present: (slug) => carriedFiles(slug).every((f) => tree.hasPrevious(f)),
      adopt: (slug) => {
        for (const f of carriedFiles(slug)) carry.adoptFile(f)
      },
      adoptFile: (file) => {
        checker.kept(file)
        tree.adopt(file)
      }
    }
    const judged = await judgeCatalog(opts, deps, { catalogDir, previousDir, notesFrom, baseUrl }, log, {
      publishApps: (chunk) => {
        // Rendered, then staged: one step at a time over the chunk (see APPS_PER_CHUNK).
        const files: SiteFile[] = []
        for (const { page, releases, staleSince } of chunk) {
          files.push([paths.releases(releases.slug), toJson(releases)])
          files.push(...appPageFiles(page, { feeds: true, staleSince, history: releases, offline }))
        }
        for (const [file, content] of files) stage(file, content)
      },
      carry
    })
    const { snapshot, stats, stale, leftOut } = judged
    const previous = snapshot?.records ?? new Map<string, AppRecord>()
    const records = judged.pages.map((p) => p.record)
    // 7. What changed; nothing changed keeps the previous generatedAt, so the tree is byte-identical.
    const changes = diffRecords(previous, records)
    const generatedAt = snapshot && changes.length === 0 ? snapshot.generatedAt : opts.now.toISOString()
    const idPrefix = judged.previousChanges.idPrefix ?? mintIdPrefix(baseUrl, generatedAt)
    const history = mergeChanges({
      records,
      changes,
      previous: judged.previousChanges.changes,
      generatedAt,
      baseUrl,
      idPrefix
    })
    const report: RunReport = {
      runAt: opts.now.toISOString(),
      lastChange: generatedAt,
      refresh: Boolean(opts.refresh),
      sourceCommit: opts.sourceCommit ?? null,
      apps: records.length,
      refreshed: opts.refresh ? records.length - stale.length : 0,
      stale,
      failed: leftOut.map((l) => l.slug),
      staleBefore: judged.staleBefore,
      historyReset: judged.historyReset,
      judging: judged.judging,
      faults: judged.faults
    }
    // 8. Render and check the rest of the tree; it replaces outDir only when all of it is valid.
    // The per-app documents carry generatedAt (spec); when it moved they cannot equal yesterday's, so they are
    // not read for a comparison (which saves time only: see StagedTree).
    const stamped = new Set(
      !snapshot || snapshot.generatedAt === generatedAt ? [] : records.map((r) => paths.app(r.slug))
    )
    // A carried app's feed is carried too while its entries in the history are those of its previous feed.
    const feedsCarried = unchangedFeeds(judged.carried, history, judged.previousChanges, idPrefix)
    for (const slug of feedsCarried) {
      if (!tree.hasPrevious(paths.appFeed(slug))) feedsCarried.delete(slug)
      else carry.adoptFile(paths.appFeed(slug))
    }
    const files = siteFiles(judged, records, history, report, baseUrl, idPrefix, feedsCarried, offline)
    for (const [file, content] of files) stage(file, content, stamped.has(file))
    if (judged.reuseDoc !== null) stage(paths.reuse, judged.reuseDoc)
    const written = await tree.commit(() => checker.finish())
    log.info(
      `wrote ${written} files for ${records.length} app${records.length === 1 ? '' : 's'} to ${outDir}` +
        (tree.unchanged ? ` (${tree.unchanged} unchanged, linked from the previous snapshot)` : '') +
        (judged.carried.size
          ? `; ${judged.carried.size} app${judged.carried.size === 1 ? '' : 's'} unchanged since it, carried over unread`
          : '') +
        `${stale.length ? `; stale: ${stale.join(', ')}` : ''}` +
        (leftOut.length ? `; left out: ${leftOut.map((l) => l.slug).join(', ')}` : '') +
        (judged.historyReset.length
          ? `; history not carried over: ${judged.historyReset.map((h) => h.document).join(', ')}`
          : '')
    )
    return {
      outDir,
      generatedAt,
      count: records.length,
      changed: changes.map((c) => c.slug),
      changes,
      stale,
      leftOut,
      warnings,
      stats,
      runAt: report.runAt,
      historyReset: judged.historyReset,
      judging: judged.judging ?? null,
      faults: judged.faults
    }
  } finally {
    await tree.discard()
  }
}
