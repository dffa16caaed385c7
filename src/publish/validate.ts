// The last gate before a tree replaces the published one: every document is
// re-read from the exact bytes we are about to write and checked against the
// schemas and the spec's cross-document rules. Files are checked one at a time
// as they are produced, so a large site never sits in memory whole.
import { isDeepStrictEqual } from 'node:util'
import { appDocSchema, catalogDocSchema, type AppRecord } from '../schema/index.js'
import { appUrls, paths } from '../urls.js'

export class SnapshotInvalidError extends Error {
  constructor(readonly problems: string[]) {
    super(`the new snapshot is invalid, nothing was published:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'SnapshotInvalidError'
  }
}

const APP_DOC = /^api\/v1\/apps\/([^/]+)\.json$/

export function formatZodIssues(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ')
}

export interface SnapshotChecker {
  /** Check one file; the catalog document must come before the per-app documents. */
  add(file: string, content: string | Buffer): void
  /** Throw SnapshotInvalidError listing every problem found. */
  finish(): void
}

export function snapshotChecker(baseUrl: string): SnapshotChecker {
  const problems: string[] = []
  const seen = new Set<string>()
  let apps: Map<string, AppRecord> | null = null
  let generatedAt = ''

  function json(file: string, content: string | Buffer): unknown {
    try {
      return JSON.parse(content.toString())
    } catch (e) {
      problems.push(`${file} is not JSON: ${(e as Error).message}`)
      return undefined
    }
  }

  function addCatalog(content: string | Buffer): void {
    const raw = json(paths.catalog, content)
    if (raw === undefined) return
    const parsed = catalogDocSchema.safeParse(raw)
    if (!parsed.success) {
      problems.push(`${paths.catalog}: ${formatZodIssues(parsed.error)}`)
      return
    }
    generatedAt = parsed.data.generatedAt
    apps = new Map()
    let previous = ''
    for (const app of parsed.data.apps) {
      if (app.slug <= previous) problems.push(`apps are not ordered by unique slug at "${app.slug}"`)
      previous = app.slug
      const want = appUrls(baseUrl, app.slug)
      if (app.url !== want.url) problems.push(`${app.slug}: url is ${app.url}, expected ${want.url}`)
      if (app.badge !== want.badge) problems.push(`${app.slug}: badge is ${app.badge}, expected ${want.badge}`)
      apps.set(app.slug, app)
    }
  }

  function addAppDoc(file: string, slug: string, content: string | Buffer): void {
    const element = apps?.get(slug)
    if (!element) {
      problems.push(`${file} has no element in the catalog`)
      return
    }
    const raw = json(file, content)
    if (raw === undefined) return
    const parsed = appDocSchema.safeParse(raw)
    if (!parsed.success) {
      problems.push(`${file}: ${formatZodIssues(parsed.error)}`)
      return
    }
    const { schema: _schema, generatedAt: docAt, ...record } = parsed.data
    if (docAt !== generatedAt) problems.push(`${file}: generatedAt differs from the catalog's`)
    if (!isDeepStrictEqual(record, element)) problems.push(`${file}: record differs from its catalog element`)
  }

  return {
    add(file, content) {
      if (seen.has(file)) problems.push(`${file} is produced twice`)
      seen.add(file)
      if (file === paths.catalog) return addCatalog(content)
      const m = APP_DOC.exec(file)
      if (m) addAppDoc(file, m[1]!, content)
    },
    finish() {
      if (!seen.has(paths.catalog)) problems.push(`${paths.catalog} is missing`)
      for (const f of ['index.html', '404.html', paths.appsSchema, paths.appSchema]) if (!seen.has(f)) problems.push(`${f} is missing`)
      for (const slug of apps?.keys() ?? []) {
        for (const f of [paths.app(slug), paths.badge(slug), paths.page(slug)]) if (!seen.has(f)) problems.push(`${f} is missing`)
      }
      if (problems.length > 0) throw new SnapshotInvalidError(problems)
    }
  }
}
