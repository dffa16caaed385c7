// The machine-readable half of the site: the v1 JSON documents and their JSON Schemas.
import { z } from 'zod'
import {
  APP_SCHEMA_ID,
  APPS_SCHEMA_ID,
  appDocSchema,
  CATEGORIES_CREDIT,
  CATEGORIES_SCHEMA_ID,
  categoriesDocSchema,
  catalogDocSchema,
  compareSlugs,
  IMAGES_SCHEMA_ID,
  imagesDocSchema,
  RELEASES_SCHEMA_ID,
  releasesDocSchema,
  type CategoriesDoc,
  type ImagesDoc,
  type AppDoc,
  type AppRecord,
  type CatalogDoc,
  type CommunityImage,
  STATUS_SCHEMA_ID,
  statusDocSchema,
  VERSION_LABEL,
  VERSION_LABEL_PORTABLE
} from '../schema/index.js'
import { CHANGES_SCHEMA_ID, changesDocSchema } from './changes.js'
import { toJson } from '../util/json.js'
import { feedUrls, paths, SLUG_PLACEHOLDER as S, siteUrl } from './paths.js'

export function docsText(baseUrl: string): string {
  return [
    `updatesafe API v1. Catalog: ${siteUrl(baseUrl, paths.catalog)} (schema ${APPS_SCHEMA_ID}; apps ordered by slug).`,
    `One app: ${siteUrl(baseUrl, paths.app(S))} (schema ${APP_SCHEMA_ID}; the record's fields on the document itself).`,
    `Badge: ${siteUrl(baseUrl, paths.badge(S))}. Page: ${siteUrl(baseUrl, paths.pageDir(S))}. Shields endpoint: ${siteUrl(baseUrl, paths.shields(S))}.`,
    `Judged releases of one app, newest first: ${siteUrl(baseUrl, paths.releases(S))} (schema ${RELEASES_SCHEMA_ID}; each release's own class, rationale, quoted words, security and breakingKind).`,
    `Container images of the apps: ${siteUrl(baseUrl, paths.images)} (schema ${IMAGES_SCHEMA_ID}).`,
    `Categories of the apps (from awesome-selfhosted, CC-BY-SA 3.0), each with its apps' slugs: ${siteUrl(baseUrl, paths.categories)} (schema ${CATEGORIES_SCHEMA_ID}).`,
    `JSON Schemas: ${[paths.appsSchema, paths.appSchema, paths.changesSchema, paths.statusSchema, paths.releasesSchema, paths.imagesSchema, paths.categoriesSchema].map((p) => siteUrl(baseUrl, p)).join(', ')}.`,
    'This is a build-time snapshot served as static files; nothing is computed per request. generatedAt is when a record last changed:',
    `a run that finds nothing new leaves it (and every app document) as it was. When the last run happened, and how many apps it refreshed, found stale or left out: ${siteUrl(baseUrl, paths.status)} (schema ${STATUS_SCHEMA_ID}).`,
    'safeToUpdate is one of safe, caution, breaking, unknown, unmaintained. lifecycle.status is supported (no end of life set),',
    'eol-scheduled (end of life in the future) or eol (the end-of-life date has passed at generatedAt). An unknown slug answers 404.',
    'lastChecked is the day the facts of a record were read; a build that finds nothing new keeps the published record unchanged.',
    `Recent changes: ${siteUrl(baseUrl, paths.changes)}; Atom feeds: ${feedUrls(baseUrl)}.`
  ].join(' ')
}

/** The per-app document: the record's fields on the document itself, not wrapped. */
export function appDoc(record: AppRecord, generatedAt: string): AppDoc {
  return { schema: APP_SCHEMA_ID, generatedAt, ...record }
}

export function buildDocuments(
  records: AppRecord[],
  generatedAt: string,
  baseUrl: string
): { catalog: CatalogDoc; apps: AppDoc[] } {
  const apps = [...records].sort((a, b) => compareSlugs(a.slug, b.slug))
  const catalog: CatalogDoc = { schema: APPS_SCHEMA_ID, generatedAt, docs: docsText(baseUrl), count: apps.length, apps }
  return { catalog, apps: apps.map((r) => appDoc(r, generatedAt)) }
}

/**
 * The schema with every `pattern` one that any consumer's engine reads: `\p{…}` (JSON Schema asks for ECMA-262 with
 * Unicode) is written out as BMP escapes where we know an equal-or-looser form, and a pattern without one is refused,
 * so a new `\p{…}` cannot reach the published schemas unnoticed.
 */
export function portablePatterns(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(portablePatterns)
  if (json === null || typeof json !== 'object') return json
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(json)) {
    if (k === 'pattern' && typeof v === 'string' && v.includes('\\p{')) {
      if (v !== VERSION_LABEL.source) throw new Error(`no portable form of the pattern ${v}`)
      out[k] = VERSION_LABEL_PORTABLE
    } else out[k] = portablePatterns(v)
  }
  return out
}

export function jsonSchemas(baseUrl: string): Map<string, string> {
  const files = new Map<string, string>()
  const make = (schema: z.ZodType, file: string, title: string) => {
    const json = portablePatterns(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' }))
    files.set(file, toJson({ $id: siteUrl(baseUrl, file), title, ...(json as object) }))
  }
  make(catalogDocSchema, paths.appsSchema, APPS_SCHEMA_ID)
  make(appDocSchema, paths.appSchema, APP_SCHEMA_ID)
  make(changesDocSchema, paths.changesSchema, CHANGES_SCHEMA_ID)
  make(statusDocSchema, paths.statusSchema, STATUS_SCHEMA_ID)
  make(releasesDocSchema, paths.releasesSchema, RELEASES_SCHEMA_ID)
  make(imagesDocSchema, paths.imagesSchema, IMAGES_SCHEMA_ID)
  make(categoriesDocSchema, paths.categoriesSchema, CATEGORIES_SCHEMA_ID)
  return files
}

/**
 * The image names of every published app, ordered by image (a name claimed twice names both apps): the project's own
 * images, and community builds with their tag rule and channel, so that `check` and the PR gate read their tags as
 * the catalog says. A name listed both ways for one app is published once, as the community build.
 */
export function imagesDoc(
  apps: { slug: string; images?: readonly string[]; community?: readonly CommunityImage[] }[],
  generatedAt: string
): ImagesDoc {
  const items = new Map<string, ImagesDoc['images'][number]>()
  for (const a of apps) {
    for (const image of a.images ?? []) items.set(`${image} ${a.slug}`, { image, slug: a.slug })
    for (const c of a.community ?? [])
      items.set(`${c.image} ${a.slug}`, {
        image: c.image,
        slug: a.slug,
        tags: c.tags,
        ...(c.channel ? { channel: c.channel } : {})
      })
  }
  const images = [...items].sort(([a], [b]) => compareSlugs(a, b)).map(([, item]) => item)
  return { schema: IMAGES_SCHEMA_ID, generatedAt, images }
}

/**
 * Every category of the published apps with its apps' slugs: categories by name, slugs by slug (code-unit order, so
 * the same catalog gives the same bytes anywhere). A category an app names twice lists it once.
 */
export function categoriesDoc(
  apps: readonly { slug: string; categories?: readonly string[] }[],
  generatedAt: string
): CategoriesDoc {
  const bySlug = new Map<string, Set<string>>()
  for (const a of apps)
    for (const name of a.categories ?? []) {
      const slugs = bySlug.get(name) ?? new Set<string>()
      slugs.add(a.slug)
      bySlug.set(name, slugs)
    }
  const categories = [...bySlug]
    .map(([name, slugs]) => ({ name, slugs: [...slugs].sort(compareSlugs) }))
    .sort((a, b) => compareSlugs(a.name, b.name))
  return { schema: CATEGORIES_SCHEMA_ID, generatedAt, source: { ...CATEGORIES_CREDIT }, categories }
}
