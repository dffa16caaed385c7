// The last gate before a tree replaces the published one: every document is
// re-read from the exact bytes we are about to write and checked against the
// schemas and the spec's cross-document rules.
import { isDeepStrictEqual } from 'node:util'
import { appDocSchema, catalogDocSchema, type AppRecord } from '../schema/index.js'
import { appUrls, paths } from '../urls.js'

export class SnapshotInvalidError extends Error {
  constructor(readonly problems: string[]) {
    super(`the new snapshot is invalid, nothing was published:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'SnapshotInvalidError'
  }
}

function parseJson(files: ReadonlyMap<string, string | Buffer>, file: string, problems: string[]): unknown {
  const text = files.get(file)
  if (text === undefined) {
    problems.push(`${file} is missing`)
    return undefined
  }
  try {
    return JSON.parse(text.toString())
  } catch (e) {
    problems.push(`${file} is not JSON: ${(e as Error).message}`)
    return undefined
  }
}

export function validateSnapshot(files: ReadonlyMap<string, string | Buffer>, baseUrl: string): void {
  const problems: string[] = []
  const catalogRaw = parseJson(files, paths.catalog, problems)
  const catalog = catalogDocSchema.safeParse(catalogRaw)
  if (!catalog.success) {
    if (catalogRaw !== undefined) problems.push(`${paths.catalog}: ${catalog.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
    throw new SnapshotInvalidError(problems)
  }
  const { apps, generatedAt } = catalog.data
  for (const f of ['index.html', '404.html', paths.appsSchema, paths.appSchema]) if (!files.has(f)) problems.push(`${f} is missing`)
  let previous = ''
  for (const app of apps) {
    if (app.slug <= previous) problems.push(`apps are not ordered by unique slug at "${app.slug}"`)
    previous = app.slug
    const want = appUrls(baseUrl, app.slug)
    if (app.url !== want.url) problems.push(`${app.slug}: url is ${app.url}, expected ${want.url}`)
    if (app.badge !== want.badge) problems.push(`${app.slug}: badge is ${app.badge}, expected ${want.badge}`)
    for (const f of [paths.badge(app.slug), paths.page(app.slug)]) if (!files.has(f)) problems.push(`${f} is missing`)
    const docRaw = parseJson(files, paths.app(app.slug), problems)
    if (docRaw === undefined) continue
    const doc = appDocSchema.safeParse(docRaw)
    if (!doc.success) {
      problems.push(`${paths.app(app.slug)}: ${doc.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
      continue
    }
    const { schema: _schema, generatedAt: docAt, ...record } = doc.data
    if (docAt !== generatedAt) problems.push(`${paths.app(app.slug)}: generatedAt differs from the catalog's`)
    if (!isDeepStrictEqual(record as AppRecord, app)) problems.push(`${paths.app(app.slug)}: record differs from its catalog element`)
  }
  const slugs = new Set(apps.map((a) => a.slug))
  for (const f of files.keys()) {
    const m = /^api\/v1\/apps\/([^/]+)\.json$/.exec(f)
    if (m && !slugs.has(m[1]!)) problems.push(`${f} has no element in the catalog`)
  }
  if (problems.length > 0) throw new SnapshotInvalidError(problems)
}
