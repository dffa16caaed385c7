// The index: every app in one table. The full list, the class filter and its
// count work without JavaScript (radios + CSS :has); the script adds search, the
// category filter and the sort, each kept in the address (site.js).
// Markup per row is kept lean: 1,000 apps must stay under 100 KB gzipped.
import {
  CATEGORIES_CREDIT,
  CLASSES,
  compareSlugs,
  LIMITS,
  type AppRecord,
  type Classification
} from '../../schema/index.js'
import { plausibleUntil } from '../../util/dates.js'
import { CLASS_INFO } from './classes.js'
import { paths, rootLink } from '../paths.js'
import { layout } from './layout.js'
import { cleanText, escapeMarkup, formatTimestamp, isDate, offlineNotice, shownVersion, text, type OfflineData } from './text.js'
import { whyOf } from './why.js'

/** One row of the index: the record, and what the pages know beside it. */
export interface IndexRow {
  record: AppRecord
  /** YYYY-MM-DD of the latest release, when known: shown, and sorted on. */
  releaseDate?: string | null
  /** The catalog's categories of the app. */
  categories?: readonly string[] | undefined
}

export interface IndexInput {
  records: (AppRecord | IndexRow)[]
  generatedAt: string
  /** When the run that wrote this page happened (the index is the one page that moves on a quiet day). */
  runAt?: string
  feeds?: boolean
  /** Slugs whose facts are last-known-good because upstream was unreachable. */
  stale?: ReadonlySet<string>
  /** Built from offline data; without its own day, as of the newest `lastChecked` of the records. */
  offline?: OfflineData | null
}

/** The newest day any record was checked on, up to `until` (a day past it is a typo), null for none. */
export function newestChecked(records: readonly AppRecord[], until = '9999-12-31'): string | null {
  let newest: string | null = null
  for (const r of records)
    if (isDate(r.lastChecked) && r.lastChecked <= until && (newest === null || r.lastChecked > newest))
      newest = r.lastChecked
  return newest
}

/**
 * Letters that have no decomposition, written as a reader would look for them: "µTask" files under U (the micro
 * sign's usual spelling in names, as in uTorrent), "Pønskelisten" under O. site.js folds names the same way.
 */
export const NAME_FOLDS: Readonly<Record<string, string>> = {
  μ: 'u',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ł: 'l',
  ð: 'd',
  þ: 'th',
  ı: 'i'
}
const ASCII = /^[\x00-\x7f]*$/
const FOLDED = new RegExp(`[${Object.keys(NAME_FOLDS).join('')}]`, 'gu')

/**
 * A name's sort key: lower case, accents dropped (NFKD, which also makes the micro sign µ a Greek μ), the letters of
 * NAME_FOLDS spelled out. Not Intl.Collator: its order depends on the ICU data of the machine (and puts µ after z),
 * and the page is recorded byte for byte.
 */
export function nameKey(name: string): string {
  // Most names are ASCII: lower case is all they need, and a sort asks for each key many times.
  if (ASCII.test(name)) return name.toLowerCase()
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}/gu, '')
    .replace(FOLDED, (c) => NAME_FOLDS[c] ?? c)
}

/** Human order: by name folded (nameKey, compared by code units), then slug: the same on every machine. */
export function byName(a: AppRecord, b: AppRecord): number {
  const ak = nameKey(a.name)
  const bk = nameKey(b.name)
  if (ak !== bk) return ak < bk ? -1 : 1
  return compareSlugs(a.slug, b.slug)
}

/**
 * The default order: apps with a judged class first, then the unknown ones, each by name. At 1,000 apps most records
 * may not be read yet; by name alone the judged apps, what a reader comes for, would be scattered among them.
 */
export function judgedFirst(a: AppRecord, b: AppRecord): number {
  const au = a.safeToUpdate === 'unknown'
  const bu = b.safeToUpdate === 'unknown'
  return au !== bu ? (au ? 1 : -1) : byName(a, b)
}

/** A record whose release notes no build has read yet (an offline build of a new record): unknown, and says so. */
export function notReadYet(r: Pick<AppRecord, 'safeToUpdate' | 'rationale'>): boolean {
  return r.safeToUpdate === 'unknown' && typeof r.rationale === 'string' && /\bnot (?:been )?read yet\b/i.test(r.rationale)
}

/** Every category of these rows, in code-unit order (the order of categories.json). */
export function categoryNames(rows: readonly IndexRow[]): string[] {
  const names = new Set<string>()
  for (const r of rows) for (const c of r.categories ?? []) names.add(c)
  return [...names].sort(compareSlugs)
}

/** The credit awesome-selfhosted's license (CC-BY-SA 3.0) asks of pages that show its categories. */
export function categoriesCredit(): string {
  return `Categories: <a href="${CATEGORIES_CREDIT.url}" rel="noopener noreferrer">awesome-selfhosted</a> (CC-BY-SA 3.0).`
}

/** The index's address filtered to one category (site.js reads `category`; without it the index lists all). */
export function categoryLink(root: string, name: string): string {
  return `${root === '' ? './' : root}?category=${encodeURIComponent(name)}`
}

export function chip(c: Classification): string {
  return `<span class="k k-${c}">${CLASS_INFO[c].label}</span>`
}

/**
 * One row. `data-d` (release day) and `data-g` (indexes into the category list, in the order of the category select)
 * are for site.js; both are left out when empty, so a row without them costs nothing.
 */
function row(x: IndexRow, stale: boolean, categoryIndex: ReadonlyMap<string, number>): string {
  const r = x.record
  const c = r.safeToUpdate
  const checked = isDate(r.lastChecked) ? r.lastChecked : 'not known'
  const released = isDate(x.releaseDate) ? x.releaseDate : null
  const groups = [...new Set((x.categories ?? []).map((g) => categoryIndex.get(g)))].filter((i) => i !== undefined)
  const why = notReadYet(r) ? 'not read yet' : escapeMarkup(whyOf(r) ?? '')
  return `<tr data-c="${c}"${released ? ` data-d="${released}"` : ''}${groups.length ? ` data-g="${groups.join(' ')}"` : ''}><th scope="row"><a href="${paths.pageDir(r.slug)}">${text(r.name, LIMITS.name)}</a><small>${text(r.repo, 140)}</small></th><td class="v">${escapeMarkup(shownVersion(r.latestVersion, LIMITS.version))}${released ? `<small>${released}</small>` : ''}</td><td>${chip(c)}</td><td class="w">${why}</td><td class="d">${checked}${stale ? ' <small>stale</small>' : ''}</td></tr>\n`
}

/**
 * Search, category and sort: shown by site.js (hidden without it, where they could do nothing: the page's CSP allows
 * no form submission). Each is a labelled control whose state the script keeps in the address.
 */
function tools(categories: readonly string[], counts: ReadonlyMap<string, number>): string {
  const options = categories
    .map((g) => `<option value="${escapeMarkup(g)}">${escapeMarkup(g)} (${counts.get(g) ?? 0})</option>`)
    .join('')
  const category = categories.length
    ? `<span><label for="g">Category</label><select id="g"><option value="">All categories</option>${options}</select></span>`
    : ''
  return (
    `<div class="search" id="search" hidden><span><label for="q">Search by name, slug or repository</label><input id="q" type="search" autocomplete="off" spellcheck="false"></span>` +
    `${category}<span><label for="sort">Sort by</label><select id="sort"><option value="">Judged first, then name</option><option value="name">Name</option><option value="class">Class</option><option value="date">Release date, newest first</option></select></span></div>\n`
  )
}

/** The last run and the last change: a pipeline that stopped shows as an old run, not as a quiet day. */
function freshness(runAt: string, lastChange: string): string {
  const at = (iso: string) => `<time datetime="${escapeMarkup(iso)}">${escapeMarkup(formatTimestamp(iso))}</time>`
  return `<p class="muted" id="freshness">Last run ${at(runAt)}; last change to any app ${at(lastChange)}. Run status: <a href="${paths.status}">${paths.status}</a>.</p>\n`
}

const plural = (n: number) => `${n} ${n === 1 ? 'app' : 'apps'}`

/**
 * How many apps are shown. Without JavaScript the class filter hides rows through CSS alone, so the line holds one
 * sentence per filter and the stylesheet shows the checked one's; site.js replaces them with its own count, which
 * also follows the category and the search.
 */
function shownLine(total: number, counts: ReadonlyMap<Classification, number>): string {
  const all = plural(total)
  return (
    `<p id="shown" role="status"><span class="n-all">${all}</span>` +
    CLASSES.map((c) => `<span class="n-${c}">Showing ${counts.get(c) ?? 0} of ${all}</span>`).join('') +
    `</p>`
  )
}

export function renderIndex(input: IndexInput): string {
  // Categories are cleaned as the app pages show them, so a page's link finds its option here.
  const rows = input.records
    .map((x): IndexRow => ('record' in x ? x : { record: x }))
    .map((x) => (x.categories ? { ...x, categories: x.categories.map((c) => cleanText(c, 80)).filter(Boolean) } : x))
    .sort((a, b) => judgedFirst(a.record, b.record))
  const records = rows.map((x) => x.record)
  const categories = categoryNames(rows)
  const categoryIndex = new Map(categories.map((g, i) => [g, i]))
  const inCategory = new Map<string, number>()
  for (const x of rows) for (const g of new Set(x.categories ?? [])) inCategory.set(g, (inCategory.get(g) ?? 0) + 1)
  const unread = records.filter(notReadYet).length
  const counts = new Map<Classification, number>(CLASSES.map((c) => [c, 0]))
  for (const r of records) counts.set(r.safeToUpdate, (counts.get(r.safeToUpdate) ?? 0) + 1)
  const total = records.length

  const filters =
    `<fieldset class="filters"><legend>Show</legend>` +
    `<input type="radio" name="c" id="f-all" value="" checked><label for="f-all">All <b>${total}</b></label>` +
    CLASSES.map(
      (c) =>
        `<input type="radio" name="c" id="f-${c}" value="${c}"><label for="f-${c}"><span class="k k-${c}">${CLASS_INFO[c].label}</span> <b>${counts.get(c)}</b></label>`
    ).join('') +
    `</fieldset>\n`

  const table =
    total === 0
      ? `<p>No apps are tracked yet.</p>\n`
      : `<table id="apps"><caption class="vh">Tracked apps and the update safety of their latest release</caption>
<thead><tr><th scope="col">App</th><th scope="col">Latest version, released</th><th scope="col">Update safety</th><th scope="col">Why</th><th scope="col">Last checked</th></tr></thead>
<tbody>
${rows.map((x) => row(x, input.stale?.has(x.record.slug) ?? false, categoryIndex)).join('')}</tbody></table>
<div id="none" hidden><p>No app matches this filter.</p><p id="add-hint">Not in the catalog? Ask the people who run this catalog to add it, naming its GitHub repository; or track it in a catalog of your own: <code>updatesafe add OWNER/REPO --image IMAGE</code> writes its record.</p></div>\n`

  const legend =
    `<section class="legend" aria-labelledby="legend-h"><h2 id="legend-h">What the classes mean</h2><dl>` +
    CLASSES.map((c) => `<dt>${chip(c)}</dt><dd>${escapeMarkup(CLASS_INFO[c].advice)}</dd>`).join('') +
    `</dl></section>\n`

  const main = `<h1>Update safety of ${plural(total)}</h1>
<p class="lede">For each self-hosted app: its newest release, and whether the release notes say it is safe to install. Also as JSON: <a href="${paths.catalog}">${paths.catalog}</a>.</p>
${input.offline ? offlineNotice(input.offline, input.offline.asOf ?? newestChecked(records, plausibleUntil(input.generatedAt)), 'This snapshot') : ''}${freshness(input.runAt ?? input.generatedAt, input.generatedAt)}${filters}${tools(categories, inCategory)}${categories.length ? `<p class="muted" id="credit">${categoriesCredit()}</p>\n` : ''}${unread ? `<p class="muted" id="unread">${unread === 1 ? '1 app is' : `${unread} apps are`} not read yet: no build has read ${unread === 1 ? 'its' : 'their'} release notes, so ${unread === 1 ? 'it shows' : 'they show'} as Unknown, listed after the judged apps.</p>\n` : ''}${shownLine(total, counts)}
${table}${legend}`

  return layout({
    title: 'updatesafe: is the newest release safe to install?',
    description: `Update safety of the latest release of ${plural(total)}.`,
    root: rootLink(paths.index),
    main,
    generatedAt: input.generatedAt,
    feeds: input.feeds,
    head: input.feeds ? `<link rel="alternate" type="application/atom+xml" title="All changes" href="${paths.feed}">\n` : ''
  })
}
