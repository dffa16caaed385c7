// The one build flow shared by the action and the CLI:
// catalog → facts (seed, previous snapshot, optional refresh) → verdicts →
// lifecycle → records → documents and pages → validate → write aside and swap.
// Every side effect comes in through `deps`, so tests hand in fakes.
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { finishAssessment, planAssessment, type Assessment } from './assess.js'
import type { ClassifyInput } from '../classify/classifier.js'
import { loadCatalog, type LoadedEntry } from '../catalog/load.js'
import { forgetNotes, offlineFacts, publishedVersion, refreshedFacts, type AppFacts } from './facts.js'
import { buildLifecycle } from '../lifecycle/index.js'
import { feedFileEntries, readPreviousChanges } from '../site/changes.js'
import { readPrevious } from './previous.js'
import { formatZodIssues, snapshotChecker } from '../output/validate.js'
import { checkOutputDir, writeTree } from '../output/write-tree.js'
import { toJson } from '../util/json.js'
import { buildDocuments, jsonSchemas } from '../site/api.js'
import { pageFiles, type PageInput } from '../site/pages.js'
import { appRecordSchema, compareSlugs, type AppRecord, type Lifecycle } from '../schema/index.js'
import type { Logger } from '../util/types.js'
import { readStoredProduct, writeStoredProduct, type EndoflifeProduct } from '../upstream/endoflife.js'
import type { RefreshOutcome, RefreshStats, RefreshTarget } from '../upstream/github/refresh.js'
import { appUrls, normaliseBaseUrl, paths } from '../site/paths.js'
import { inChunks, inProcess, recordReader, type Parallel } from '../workers/index.js'

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
}

export interface BuildDeps {
  log: Logger
  refresh?: (targets: RefreshTarget[]) => Promise<{ outcomes: Map<string, RefreshOutcome>; stats: RefreshStats }>
  fetchProduct?: (product: string) => Promise<EndoflifeProduct>
  /** Where reading, classifying and writing run (worker threads for large catalogs); in-process when absent. */
  parallel?: Parallel
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
  stats: RefreshStats | null
}

export interface RecordChange {
  slug: string
  before: Pick<AppRecord, 'latestVersion' | 'safeToUpdate'> | null
  after: Pick<AppRecord, 'latestVersion' | 'safeToUpdate'> | null
}

/**
 * A record whose only difference from the published one is lastChecked is the
 * published one: a run that finds nothing new must not rewrite the snapshot.
 */
export function settle(record: AppRecord, previous: AppRecord | undefined): AppRecord {
  if (previous && isDeepStrictEqual({ ...record, lastChecked: previous.lastChecked }, previous)) return previous
  return record
}

export function diffRecords(before: ReadonlyMap<string, AppRecord>, after: readonly AppRecord[]): RecordChange[] {
  const brief = (r: AppRecord | undefined) =>
    r ? { latestVersion: r.latestVersion, safeToUpdate: r.safeToUpdate } : null
  const changes: RecordChange[] = after
    .filter((r) => !isDeepStrictEqual(before.get(r.slug), r))
    .map((r) => ({ slug: r.slug, before: brief(before.get(r.slug)), after: brief(r) }))
  const kept = new Set(after.map((r) => r.slug))
  for (const [slug, r] of before) if (!kept.has(slug)) changes.push({ slug, before: brief(r), after: null })
  return changes.sort((a, b) => compareSlugs(a.slug, b.slug))
}

export class BuildError extends Error {
  override name = 'BuildError'
}

async function gatherFacts(
  entries: LoadedEntry[],
  previous: Map<string, AppRecord>,
  opts: BuildOptions,
  deps: BuildDeps
) {
  if (!opts.refresh) return { apps: entries.map((e) => offlineFacts(e, previous.get(e.slug))), stats: null }
  if (!deps.refresh) throw new BuildError('refresh was requested but no GitHub client is configured')
  const targets: RefreshTarget[] = entries.map((e) => ({
    slug: e.slug,
    repo: e.entry.repo,
    ...(e.entry.tagPrefix ? { tagPrefix: e.entry.tagPrefix } : {}),
    ...(e.entry.tagPattern ? { tagPattern: e.entry.tagPattern } : {}),
    ...(publishedVersion(e, previous.get(e.slug))
      ? { previousVersion: publishedVersion(e, previous.get(e.slug))! }
      : {})
  }))
  const { outcomes, stats } = await deps.refresh(targets)
  const apps = entries.map((e) => refreshedFacts(e, previous.get(e.slug), outcomes.get(e.slug)))
  return { apps, stats }
}

/** One product document per product and run: refreshed when asked, else the stored copy. */
async function productDocs(
  apps: AppFacts[],
  catalogDir: string,
  opts: BuildOptions,
  deps: BuildDeps
): Promise<Map<string, EndoflifeProduct | null>> {
  const dir = path.join(catalogDir, 'endoflife')
  const docs = new Map<string, EndoflifeProduct | null>()
  for (const product of new Set(apps.flatMap((a) => (a.entry.lifecycle ? [a.entry.lifecycle.product] : [])))) {
    let doc: EndoflifeProduct | null = null
    if (opts.refresh && deps.fetchProduct) {
      try {
        doc = await deps.fetchProduct(product)
      } catch (e) {
        deps.log.warning(`endoflife.date product "${product}": ${(e as Error).message}; using the stored copy`)
      }
      // Keep the fresh data for this build even if storing it for the next offline build fails.
      if (doc)
        await writeStoredProduct(dir, product, doc).catch((e: Error) =>
          deps.log.warning(`could not store endoflife.date data for "${product}": ${e.message}`)
        )
    }
    doc ??= await readStoredProduct(dir, product).catch((e: Error) => {
      deps.log.warning(`stored endoflife.date data for "${product}" is unreadable: ${e.message}`)
      return null
    })
    docs.set(product, doc)
  }
  return docs
}

function lifecycleFor(
  app: AppFacts,
  version: string,
  docs: Map<string, EndoflifeProduct | null>,
  now: Date,
  log: Logger
): Lifecycle | null {
  const product = app.entry.lifecycle?.product
  if (!product) return null
  const doc = docs.get(product)
  if (!doc) {
    // No data at all: keep what was published before rather than drop it.
    if (app.kept?.lifecycle) return app.kept.lifecycle
    log.warning(`${app.slug}: no endoflife.date data for product "${product}"`, { file: app.file })
    return null
  }
  const { lifecycle, warning } = buildLifecycle(
    product,
    doc,
    version,
    now,
    app.entry.tagPrefix ? { tagPrefix: app.entry.tagPrefix } : {}
  )
  if (warning) log.warning(`${app.slug}: ${warning}`, { file: app.file })
  return lifecycle
}

/**
 * Every app's verdict (null for a republished record). Seeds were judged as
 * the catalog was read; other notes (a refresh's) go to the runner a chunk at a
 * time and are dropped once handed over: they are never published, and across
 * thousands of apps they are most of what a build holds.
 */
async function assessAll(apps: AppFacts[], par: Parallel, log: Logger): Promise<(Assessment | null)[]> {
  const out: (Assessment | null)[] = new Array(apps.length).fill(null)
  const runner = par.forJob(apps.filter((a) => a.facts && !a.facts.judged).length)
  await inChunks(runner, apps.length, async (from, to, lane) => {
    const chunk = apps.slice(from, to)
    const inputs: ClassifyInput[] = []
    // Per app: null (republished), a pending verdict, or the releases read with their judgement
    // (made as the record was read) or the index of its classifier input.
    const plans = chunk.map((app) => {
      if (!app.facts) return null
      const plan = planAssessment({ ...app, facts: app.facts }, log)
      if ('pending' in plan) return plan
      const considered = plan.input.releases.map((r) => r.version)
      return app.facts.judged
        ? { considered, judged: app.facts.judged }
        : { considered, at: inputs.push(plan.input) - 1 }
    })
    const judging = inputs.length > 0 ? runner.run({ kind: 'classify', inputs }, lane) : Promise.resolve([])
    inputs.length = 0
    chunk.forEach(forgetNotes)
    const judged = await judging
    plans.forEach((plan, i) => {
      const app = chunk[i]!
      if (plan === null) return
      if ('pending' in plan) out[from + i] = plan.pending
      else
        out[from + i] = finishAssessment(
          { ...app, facts: app.facts! },
          plan.considered,
          plan.judged ?? judged[plan.at]!,
          log
        )
    })
  })
  return out
}

export async function build(opts: BuildOptions, given: BuildDeps): Promise<BuildResult> {
  const warnings: string[] = []
  const log: Logger = {
    info: (m) => given.log.info(m),
    warning: (m, ref) => {
      warnings.push(m)
      given.log.warning(m, ref)
    },
    error: (m, ref) => given.log.error(m, ref)
  }
  const deps: BuildDeps = { ...given, log }
  const cwd = opts.cwd ?? process.cwd()
  const baseUrl = normaliseBaseUrl(opts.baseUrl)
  if (Number.isNaN(opts.now.getTime())) throw new BuildError('--now is not a valid date')
  const catalogDir = path.resolve(cwd, opts.catalogDir)
  const outDir = path.resolve(cwd, opts.outDir)
  await checkOutputDir(opts.outDir, { catalogDir: opts.catalogDir, cwd })

  // Relative to the process, so messages name files the way the user typed the path.
  const par = deps.parallel ?? inProcess
  const entries = await loadCatalog(path.relative(process.cwd(), catalogDir) || '.', recordReader(par))
  const previousDir = opts.previousDir && path.resolve(cwd, opts.previousDir)
  const previous = await readPrevious(previousDir, log)
  const previousChanges = await readPreviousChanges(previousDir, log)
  const { apps, stats } = await gatherFacts(entries, previous?.records ?? new Map(), opts, deps)

  const missing = apps.filter((a) => !a.facts && !a.kept)
  if (missing.length > 0) {
    throw new BuildError(
      missing
        .map(
          (a) =>
            `${a.file}: release: ${a.slug} has no release data; add a release: {version, url, checked} block or build with --refresh`
        )
        .join('\n')
    )
  }

  const docs = await productDocs(apps, catalogDir, opts, deps)
  const assessments = await assessAll(apps, par, log)
  // Reading and classifying are over; the threads that did it still hold the heaps
  // they grew (about 45 MB at 10,000 apps). Writing threads of their own write the tree.
  await par.recycle()
  const records: AppRecord[] = []
  const pages: PageInput[] = []
  for (const [i, app] of apps.entries()) {
    const urls = appUrls(baseUrl, app.slug)
    let record: AppRecord
    let page: Omit<PageInput, 'record' | 'stale'>
    if (app.facts) {
      const { verdict, rule, decidedBy, considered } = assessments[i]!
      record = {
        slug: app.slug,
        name: app.entry.name,
        repo: app.entry.repo,
        latestVersion: app.facts.version,
        ...verdict,
        sourceUrl: app.facts.url,
        lastChecked: app.facts.checked,
        successor: app.entry.successor ?? null,
        ...urls,
        lifecycle: lifecycleFor(app, app.facts.version, docs, opts.now, log)
      }
      page = { releaseDate: app.facts.date, releasesConsidered: considered, rule, decidedBy }
    } else {
      // Republish the last-known-good record; curated fields and addresses follow the catalog.
      const kept = app.kept!
      record = {
        ...kept,
        name: app.entry.name,
        repo: app.entry.repo,
        successor: app.entry.successor ?? null,
        ...urls,
        lifecycle: lifecycleFor(app, kept.latestVersion, docs, opts.now, log)
      }
      page = { releaseDate: null, releasesConsidered: [], rule: null, decidedBy: null }
    }
    const checked = appRecordSchema.safeParse(record)
    if (!checked.success) {
      throw new BuildError(
        `${app.file}: the record built for ${app.slug} is invalid: ${formatZodIssues(checked.error)}`
      )
    }
    if (app.stale)
      log.warning(`${app.slug}: stale, republished last-known-good (${app.note ?? 'upstream failed'})`, {
        file: app.file
      })
    const settled = settle(checked.data, previous?.records.get(app.slug))
    records.push(settled)
    pages.push({ record: settled, stale: app.stale, ...page })
  }

  const before = previous?.records ?? new Map<string, AppRecord>()
  const changes = diffRecords(before, records)
  // Nothing changed: keep the previous generatedAt so the tree is byte-identical and a publish has nothing to commit.
  const generatedAt = previous && changes.length === 0 ? previous.generatedAt : opts.now.toISOString()
  const { catalog, apps: appDocs } = buildDocuments(records, generatedAt, baseUrl)
  // Produced lazily and checked one by one as they are written aside.
  function* files(): Generator<[string, string]> {
    yield [paths.catalog, toJson(catalog)]
    for (const doc of appDocs) yield [paths.app(doc.slug), toJson(doc)]
    yield* jsonSchemas(baseUrl)
    // Pages are rendered as of the snapshot, so the same snapshot always renders the same bytes.
    yield* pageFiles(pages, { generatedAt, now: new Date(generatedAt), baseUrl, feeds: true })
    yield* feedFileEntries({ records, changes, previous: previousChanges, generatedAt, baseUrl })
  }
  const checker = snapshotChecker(baseUrl)
  const written = await writeTree(
    outDir,
    (function* () {
      for (const [file, content] of files()) {
        checker.add(file, content)
        yield [file, content] as const
      }
    })(),
    () => checker.finish(),
    par.write
  )

  const stale = apps.filter((a) => a.stale).map((a) => a.slug)
  const threads = par.threads()
  log.info(
    `wrote ${written} files for ${catalog.count} apps to ${outDir}${threads ? ` (${threads} worker threads)` : ''}${stale.length ? `; stale: ${stale.join(', ')}` : ''}`
  )
  return {
    outDir,
    generatedAt,
    count: catalog.count,
    changed: changes.map((c) => c.slug),
    changes,
    stale,
    warnings,
    stats
  }
}
