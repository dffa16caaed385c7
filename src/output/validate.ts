// The last gate before a tree replaces the published one: every document is
// re-read from the exact bytes we are about to write (the catalog from the texts
// that joinJson writes byte for byte: its envelope, then each element) and checked
// against the schemas and the spec's cross-document rules. Files are checked one at
// a time as they are produced, so a large site never sits in memory whole.
import { z } from 'zod'
import { sha256 } from '../util/digest.js'
import { isSplitJson, joinJson, toJson, type SplitJson } from '../util/json.js'
import { appDoc } from '../site/api.js'
import {
  appDocSchema,
  appRecordSchema,
  catalogEnvelopeShape,
  categoriesDocSchema,
  compareSlugs,
  COUNT_MESSAGE,
  imagesDocSchema,
  releasesDocSchema,
  statusDocSchema,
  type AppRecord
} from '../schema/index.js'
import { appDocSlug, appUrls, paths, releasesDocSlug } from '../site/paths.js'
import { ProblemsError, zodProblems, type Problem } from '../util/problems.js'

/** The error a snapshot that fails its checks throws: every problem, each naming the site file. */
export function snapshotInvalid(problems: Problem[]): ProblemsError {
  return new ProblemsError('snapshot', problems, 'the new snapshot is invalid')
}

export interface SnapshotChecker {
  /** Check one file; the catalog document must come before each app's document and page (its releases document may come first). */
  add(file: string, content: string | Buffer | SplitJson): void
  /** A file carried over unread from the previous snapshot (pipeline/reuse.ts): it is there, and was checked when written. */
  kept(file: string): void
  /** Throw a snapshot ProblemsError listing every problem found. */
  finish(): void
}

/**
 * A per-app document's identity for the cross-document check: the hash of the
 * bytes the build writes for a record (its fields on the document, in schema
 * order, as zod emits them). Holding every parsed element instead kept a second
 * copy of the catalog alive until the last page was written.
 */
function docDigest(record: AppRecord, generatedAt: string): string {
  return sha256(toJson(appDoc(record, generatedAt)), 'base64')
}

/** The catalog document with its elements left to be checked one at a time (and counted). */
const catalogEnvelopeSchema = z.strictObject({ ...catalogEnvelopeShape, apps: z.array(z.unknown()) })

export function snapshotChecker(baseUrl: string): SnapshotChecker {
  const problems: Problem[] = []
  const fail = (file: string, message: string) => problems.push({ file, message })
  const seen = new Set<string>()
  /** Slug → digest of its catalog element; null until the catalog document is read. */
  let apps: Map<string, string> | null = null
  let generatedAt = ''
  let count = 0
  /** Slugs of the releases documents seen: the build writes them before the catalog document. */
  const releasesOf: string[] = []

  function json(file: string, content: string | Buffer, at: (string | number)[] = []): unknown {
    try {
      return JSON.parse(content.toString())
    } catch (e) {
      const message = `is not JSON: ${(e as Error).message}`
      problems.push(at.length ? { file, field: at.join('.'), message } : { file, message })
      return undefined
    }
  }

  /** A split catalog (the build's) is read element by element; a whole one (any other) at once. */
  function addCatalog(content: string | Buffer | SplitJson): void {
    const split = isSplitJson(content) ? content : null
    const raw = json(paths.catalog, isSplitJson(content) ? content.head + content.tail : content)
    if (raw === undefined) return
    const envelope = catalogEnvelopeSchema.safeParse(raw)
    if (!envelope.success) {
      problems.push(...zodProblems(envelope.error, paths.catalog))
      return
    }
    generatedAt = envelope.data.generatedAt
    count = envelope.data.count
    // A split catalog's elements are written between the brackets of `"apps": []`; anything there would break it.
    if (split && envelope.data.apps.length > 0) {
      fail(paths.catalog, 'is not JSON: elements outside the apps array')
      return
    }
    const total = split ? split.elements.length : envelope.data.apps.length
    if (envelope.data.count !== total) problems.push({ file: paths.catalog, field: 'count', message: COUNT_MESSAGE })
    const known = new Map<string, string>()
    let previous = ''
    for (let i = 0; i < total; i++) {
      const element = split ? json(paths.catalog, split.elements[i]!, ['apps', i]) : envelope.data.apps[i]
      if (element === undefined) continue
      // Parsed copies are dropped element by element, so only the digests outlive this loop.
      const parsed = appRecordSchema.safeParse(element)
      if (!parsed.success) {
        problems.push(...zodProblems(parsed.error, paths.catalog, ['apps', i]))
        continue
      }
      const app = parsed.data
      if (app.slug <= previous) fail(paths.catalog, `apps are not ordered by unique slug at "${app.slug}"`)
      previous = app.slug
      const want = appUrls(baseUrl, app.slug)
      if (app.url !== want.url)
        problems.push({ file: paths.catalog, field: `apps.${i}.url`, message: `is ${app.url}, expected ${want.url}` })
      if (app.badge !== want.badge)
        problems.push({
          file: paths.catalog,
          field: `apps.${i}.badge`,
          message: `is ${app.badge}, expected ${want.badge}`
        })
      known.set(app.slug, docDigest(app, generatedAt))
    }
    apps = known
  }

  function addAppDoc(file: string, slug: string, content: string | Buffer): void {
    const element = apps?.get(slug)
    if (!element) {
      fail(file, 'has no element in the catalog')
      return
    }
    // The bytes the build writes for its (checked) element: valid and equal. Anything else is read and compared by content.
    if (sha256(content, 'base64') === element) return
    const raw = json(file, content)
    if (raw === undefined) return
    const parsed = appDocSchema.safeParse(raw)
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error, file))
      return
    }
    const { schema: _schema, generatedAt: docAt, ...record } = parsed.data
    if (docAt !== generatedAt) problems.push({ file, field: 'generatedAt', message: "differs from the catalog's" })
    if (docDigest(record, generatedAt) !== element) fail(file, 'record differs from its catalog element')
  }

  /** The run report: valid, and its lastChange is the catalog's generatedAt. */
  function addStatus(content: string | Buffer): void {
    const raw = json(paths.status, content)
    if (raw === undefined) return
    const parsed = statusDocSchema.safeParse(raw)
    if (!parsed.success) return void problems.push(...zodProblems(parsed.error, paths.status))
    if (apps !== null && parsed.data.lastChange !== generatedAt)
      problems.push({ file: paths.status, field: 'lastChange', message: "differs from the catalog's generatedAt" })
    if (apps !== null && parsed.data.counts.apps !== count)
      problems.push({ file: paths.status, field: 'counts.apps', message: 'differs from the number of apps' })
  }

  /** A releases document: valid, under its own slug; that its app is in the catalog is checked at the end. */
  function addReleasesDoc(file: string, slug: string, content: string | Buffer): void {
    releasesOf.push(slug)
    const raw = json(file, content)
    if (raw === undefined) return
    const parsed = releasesDocSchema.safeParse(raw)
    if (!parsed.success) problems.push(...zodProblems(parsed.error, file))
    else if (parsed.data.slug !== slug) problems.push({ file, field: 'slug', message: `is not ${slug}` })
  }

  /** The images index: valid, and naming only apps of the catalog. */
  function addImagesDoc(content: string | Buffer): void {
    const raw = json(paths.images, content)
    if (raw === undefined) return
    const parsed = imagesDocSchema.safeParse(raw)
    if (!parsed.success) return void problems.push(...zodProblems(parsed.error, paths.images))
    for (const [i, { slug }] of parsed.data.images.entries())
      if (!apps?.has(slug))
        problems.push({ file: paths.images, field: `images.${i}.slug`, message: `${slug} is not in the catalog` })
  }

  /** The categories index: valid, each name once and in order, and naming only apps of the catalog, each once. */
  function addCategoriesDoc(content: string | Buffer): void {
    const file = paths.categories
    const raw = json(file, content)
    if (raw === undefined) return
    const parsed = categoriesDocSchema.safeParse(raw)
    if (!parsed.success) return void problems.push(...zodProblems(parsed.error, file))
    if (apps !== null && parsed.data.generatedAt !== generatedAt)
      problems.push({ file, field: 'generatedAt', message: "differs from the catalog's" })
    let previousName: string | null = null
    for (const [i, { name, slugs }] of parsed.data.categories.entries()) {
      if (previousName !== null && compareSlugs(previousName, name) >= 0)
        problems.push({
          file,
          field: `categories.${i}.name`,
          message: `categories are not ordered by unique name at "${name}"`
        })
      previousName = name
      for (const [j, slug] of slugs.entries()) {
        if (!apps?.has(slug))
          problems.push({ file, field: `categories.${i}.slugs.${j}`, message: `${slug} is not in the catalog` })
        if (j > 0 && compareSlugs(slugs[j - 1]!, slug) >= 0)
          problems.push({
            file,
            field: `categories.${i}.slugs.${j}`,
            message: `slugs are not ordered and unique at "${slug}"`
          })
      }
    }
  }

  return {
    add(file, content) {
      if (seen.has(file)) fail(file, 'is produced twice')
      seen.add(file)
      if (file === paths.catalog) return addCatalog(content)
      // Only the catalog is read element by element; a document checked here is read whole. One that is not (the
      // split change history) is not joined for nothing.
      const whole = (): string | Buffer => (isSplitJson(content) ? joinJson(content) : content)
      if (file === paths.status) return addStatus(whole())
      if (file === paths.images) return addImagesDoc(whole())
      if (file === paths.categories) return addCategoriesDoc(whole())
      const slug = appDocSlug(file)
      if (slug !== null) return addAppDoc(file, slug, whole())
      const releasesSlug = releasesDocSlug(file)
      if (releasesSlug !== null) addReleasesDoc(file, releasesSlug, whole())
    },
    kept(file) {
      if (seen.has(file)) fail(file, 'is produced twice')
      seen.add(file)
      const releasesSlug = releasesDocSlug(file)
      if (releasesSlug !== null) releasesOf.push(releasesSlug)
    },
    finish() {
      if (!seen.has(paths.catalog)) fail(paths.catalog, 'is missing')
      for (const f of [
        paths.index,
        paths.notFound,
        paths.status,
        paths.images,
        paths.categories,
        paths.appsSchema,
        paths.appSchema,
        paths.changesSchema,
        paths.statusSchema,
        paths.releasesSchema,
        paths.imagesSchema,
        paths.categoriesSchema
      ])
        if (!seen.has(f)) fail(f, 'is missing')
      for (const slug of releasesOf) if (!apps?.has(slug)) fail(paths.releases(slug), 'has no element in the catalog')
      for (const slug of apps?.keys() ?? []) {
        for (const f of [paths.app(slug), paths.releases(slug), paths.badge(slug), paths.page(slug)])
          if (!seen.has(f)) fail(f, 'is missing')
      }
      if (problems.length > 0) throw snapshotInvalid(problems)
    }
  }
}
