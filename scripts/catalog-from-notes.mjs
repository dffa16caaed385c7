// Seeds catalog records from the team's shared release-notes data set: every app in notes.jsonl
// gets a record whose release is its newest stable entry there (by version order, as
// src/util/versions.ts orders versions, not by file order). Records hold facts only (version, url,
// date, the day read); the notes stay in the data set, which `build --notes-from` reads in place.
//
//   node --import tsx scripts/catalog-from-notes.mjs            write catalog/apps/*.yml
//   node --import tsx scripts/catalog-from-notes.mjs --check    exit 1 if a record would change
//
// Options: --notes FILE (default ../shared/data/release-notes/notes.jsonl),
//          --endoflife DIR (default ../shared/data/endoflife/v1), --catalog DIR (default catalog).
//
// Rules, so that nothing is invented and nothing goes backwards:
// - An app whose repository has no record gets catalog/apps/<slug>.yml (slug from notes.jsonl).
// - A record for the same repository (under any slug) is updated when it has no release or an
//   older one; its other keys (lifecycle, tagPrefix, archived, override, images, ...) are kept,
//   and so is its `checked` day when it already records the same release. A record holding a
//   newer release is left alone.
// - checked: the day the data set's README gives for the app's read (2026-11-21 for the apps of
//   the first read, which the catalog already holds; 2026-11-28 for the apps added that day).
// - lifecycle.product only where the endoflife.date data has a product for the app (its
//   pkg:github identifier names the repository, or its id/alias is the slug), and only
//   if catalog/endoflife/ holds that product's file (the build reads it there).
// - tagPrefix only where every tag of the app in notes.jsonl starts with the same prefix
//   other than "v" and reads as a stable version once it is stripped.
// - categories, images and community are kept as the record has them, with their comments; run
//   scripts/catalog-generate.mjs afterwards to write them (and their sources) from the shared data set.
// - The header comment names every source; url is the tag's release page when the tag is
//   known, else the changelog file at the commit read.
import fs from 'node:fs'
import path from 'node:path'
import YAML from 'yaml'
import { compareVersions, isStableVersion, newestStable } from '../src/util/versions.ts'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(name)
  return i >= 0 && args[i + 1] ? path.resolve(args[i + 1]) : fallback
}
const check = args.includes('--check')
const notesFile = opt('--notes', path.resolve(root, '../shared/data/release-notes/notes.jsonl'))
const eolDir = opt('--endoflife', path.resolve(root, '../shared/data/endoflife/v1'))
const catalogDir = opt('--catalog', path.join(root, 'catalog'))
const appsDir = path.join(catalogDir, 'apps')

// Apps new to the catalog are those the data set added on its last read day (its README).
const NEW_APPS_READ_DAY = '2026-11-28'

const readJsonl = (file) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))

const notes = readJsonl(notesFile)

const bySlug = new Map()
for (const e of notes) {
  if (!bySlug.has(e.slug)) bySlug.set(e.slug, [])
  bySlug.get(e.slug).push(e)
}

// Existing records, by repository (case-insensitive: GitHub names are).
const records = new Map()
for (const file of fs.readdirSync(appsDir).filter((f) => f.endsWith('.yml'))) {
  const text = fs.readFileSync(path.join(appsDir, file), 'utf8')
  const entry = YAML.parse(text)
  records.set(String(entry.repo).toLowerCase(), { slug: file.slice(0, -4), entry, text })
}

// endoflife.date products: what the shared data set has, and what the build can read.
const products = fs
  .readdirSync(eolDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(eolDir, f), 'utf8')).result)
function productFor(slug, repo) {
  const purl = `pkg:github/${repo}`.toLowerCase()
  return products.find(
    (p) =>
      (p.identifiers ?? []).some((i) => String(i.id).toLowerCase() === purl) ||
      p.name === slug ||
      (p.aliases ?? []).includes(slug)
  )?.name
}

function inferTagPrefix(entries) {
  const tags = entries.map((e) => e.tag).filter((t) => t != null)
  if (tags.length === 0) return { prefix: null }
  const heads = new Set(tags.map((t) => /^[^0-9]*/.exec(t)[0]))
  if (heads.size !== 1) return { prefix: null }
  const head = [...heads][0]
  if (head === '' || /^[vV]$/.test(head)) return { prefix: null }
  if (tags.every((t) => isStableVersion(t, { tagPrefix: head }))) return { prefix: head, tags }
  return { prefix: null, unreadable: tags }
}

function render(entry, { inferred, unreadable, keptProduct }) {
  const r = entry
  const lines = [
    `# Source: the ${r.version} section of ${r.source.path} in ${r.source.repo}`,
    `# at commit ${r.source.commit} (updatesafe shared data release-notes/notes.jsonl,`,
    `# entry "${r.id}"). checked: the data set's read day for this app (the earlier one where its`,
    '# README gives two). Only facts are kept here; a build reads the notes from that data set',
    '# (--notes-from) or from GitHub (--refresh).',
    r.tag != null
      ? `# The tag ${r.tag} exists in that snapshot, so url is its GitHub release page.`
      : '# No tag for this version could be confirmed in that snapshot, so url points at the changelog file at that commit.',
    r.date != null
      ? '# date: as the changelog heading gives it.'
      : '# The changelog gives no date for this version, so date is left out.'
  ]
  if (inferred)
    lines.push(
      `# tagPrefix: inferred from the tag values in notes.jsonl alone: all ${inferred.length} of this app's tags`,
      `# there (e.g. ${r.tag ?? inferred[0]}) start with "${inferred.prefix}".`
    )
  if (unreadable)
    lines.push(
      `# Its tags in notes.jsonl (e.g. ${unreadable[0]}) write the version with underscores, which no`,
      '# tagPrefix turns into a version label, so none is set.'
    )
  if (keptProduct)
    lines.push(
      `# lifecycle.product: the endoflife.date product id "${keptProduct}" (catalog/endoflife/${keptProduct}.json).`
    )
  return lines.join('\n') + '\n\n'
}

function recordFor(slug, newest, entries, existing) {
  const old = existing?.entry ?? {}
  const tagInfo = inferTagPrefix(entries)
  const tagPrefix = old.tagPrefix ?? tagInfo.prefix ?? undefined
  if (old.tagPrefix && tagInfo.prefix && old.tagPrefix !== tagInfo.prefix)
    console.warn(`${slug}: keeps tagPrefix "${old.tagPrefix}"; notes.jsonl's tags suggest "${tagInfo.prefix}"`)
  const product = old.lifecycle?.product ?? productFor(slug, newest.repo)
  if (product && !fs.existsSync(path.join(catalogDir, 'endoflife', `${product}.json`)))
    throw new Error(`${slug}: copy endoflife.date product "${product}" into catalog/endoflife/ first`)
  const url =
    newest.tag != null
      ? `https://github.com/${newest.repo}/releases/tag/${newest.tag}`
      : `https://github.com/${newest.source.repo}/blob/${newest.source.commit}/${newest.source.path}`
  const held = old.release
  const checked =
    held && compareVersions(held.version, newest.version, old.tagPrefix) === 0 && held.checked
      ? held.checked
      : NEW_APPS_READ_DAY
  const body = {
    name: newest.app,
    repo: newest.repo,
    ...(tagPrefix ? { tagPrefix } : {}),
    ...(old.tagPattern ? { tagPattern: old.tagPattern } : {}),
    ...(old.archived !== undefined ? { archived: old.archived } : {}),
    ...(old.successor ? { successor: old.successor } : {}),
    // Written by scripts/catalog-generate.mjs: kept as the record has them, in its key order.
    ...(old.categories ? { categories: old.categories } : {}),
    ...(old.images ? { images: old.images } : {}),
    ...(old.community ? { community: old.community } : {}),
    ...(product ? { lifecycle: { product } } : {}),
    ...(old.override ? { override: old.override } : {}),
    release: {
      version: newest.version,
      url,
      ...(newest.date != null ? { date: newest.date } : {}),
      checked
    }
  }
  const doc = new YAML.Document(body)
  // The comments naming the sources of the keys scripts/catalog-generate.mjs writes: kept as they are.
  const heldKeys = existing ? YAML.parseDocument(existing.text).contents.items : []
  for (const key of ['categories', 'images', 'community']) {
    const comment = heldKeys.find((p) => p.key?.value === key)?.key.commentBefore
    if (!comment) continue
    const pair = doc.contents.items.find((p) => (p.key?.value ?? p.key) === key)
    pair.key = doc.createNode(key)
    pair.key.commentBefore = comment
  }
  const header = render(newest, {
    checked,
    inferred:
      tagInfo.prefix && tagPrefix === tagInfo.prefix
        ? Object.assign([...tagInfo.tags], { prefix: tagInfo.prefix })
        : null,
    unreadable: tagInfo.unreadable ?? null,
    keptProduct: product
  })
  return header + doc.toString({ lineWidth: 0 })
}

const report = { added: [], updated: [], keptNewer: [], unchanged: [], skipped: [] }
let differs = 0
for (const [slug, entries] of bySlug) {
  const newest = newestStable(entries, (e) => e.version)
  if (!newest) {
    report.skipped.push(`${slug} (no stable version among its entries)`)
    continue
  }
  const existing = records.get(newest.repo.toLowerCase())
  const target = existing?.slug ?? slug
  const file = path.join(appsDir, `${target}.yml`)
  if (!existing && fs.existsSync(file)) {
    report.skipped.push(`${slug} (catalog/apps/${slug}.yml already holds another repository)`)
    continue
  }
  const held = existing?.entry.release
  if (held) {
    const cmp = compareVersions(held.version, newest.version, existing.entry.tagPrefix)
    if (cmp === null) {
      report.skipped.push(`${target} (cannot order ${held.version} against ${newest.version})`)
      continue
    }
    if (cmp > 0) {
      report.keptNewer.push(`${target} ${held.version} (notes.jsonl ends at ${newest.version})`)
      continue
    }
  }
  const text = recordFor(target, newest, entries, existing)
  if (existing?.text === text) {
    report.unchanged.push(target)
    continue
  }
  differs++
  ;(existing ? report.updated : report.added).push(`${target} ${newest.version}`)
  if (!check) fs.writeFileSync(file, text)
}

for (const [k, v] of Object.entries(report)) console.log(`${k} (${v.length}): ${v.join(', ')}`)
if (check && differs > 0) {
  console.error(`${differs} record(s) would change`)
  process.exit(1)
}
