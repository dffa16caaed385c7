// The index: every app in one table. The full list and the class filter work
// without JavaScript (radios + CSS :has); the script only adds text search.
// Markup per row is kept lean: 1,000 apps must stay under 100 KB gzipped.
import { CLASSES, compareSlugs, LIMITS, type AppRecord, type Classification } from '../../schema/index.js'
import { CLASS_INFO } from './classes.js'
import { paths, rootLink } from '../paths.js'
import { layout } from './layout.js'
import { escapeMarkup, formatTimestamp, isDate, offlineNotice, text, type OfflineData } from './text.js'
import { whyOf } from './why.js'

export interface IndexInput {
  records: AppRecord[]
  generatedAt: string
  /** When the run that wrote this page happened (the index is the one page that moves on a quiet day). */
  runAt?: string
  feeds?: boolean
  /** Slugs whose facts are last-known-good because upstream was unreachable. */
  stale?: ReadonlySet<string>
  /** Built from offline data; without its own day, as of the newest `lastChecked` of the records. */
  offline?: OfflineData | null
}

/** The newest day any record was checked on, null for none. */
export function newestChecked(records: readonly AppRecord[]): string | null {
  let newest: string | null = null
  for (const r of records) if (isDate(r.lastChecked) && (newest === null || r.lastChecked > newest)) newest = r.lastChecked
  return newest
}

/** Human order: by name, case-insensitively, then slug. Code-unit comparison keeps it locale-independent. */
export function byName(a: AppRecord, b: AppRecord): number {
  const an = a.name.toLowerCase()
  const bn = b.name.toLowerCase()
  if (an !== bn) return an < bn ? -1 : 1
  return compareSlugs(a.slug, b.slug)
}

export function chip(c: Classification): string {
  return `<span class="k k-${c}">${CLASS_INFO[c].label}</span>`
}

function row(r: AppRecord, stale: boolean): string {
  const c = r.safeToUpdate
  const checked = isDate(r.lastChecked) ? r.lastChecked : 'not known'
  return `<tr data-c="${c}"><th scope="row"><a href="${paths.pageDir(r.slug)}">${text(r.name, LIMITS.name)}</a><small>${text(r.repo, 140)}</small></th><td class="v">${text(r.latestVersion, LIMITS.version)}</td><td>${chip(c)}</td><td class="w">${escapeMarkup(whyOf(r) ?? '')}</td><td class="d">${checked}${stale ? ' <small>stale</small>' : ''}</td></tr>\n`
}

/** The last run and the last change: a pipeline that stopped shows as an old run, not as a quiet day. */
function freshness(runAt: string, lastChange: string): string {
  const at = (iso: string) => `<time datetime="${escapeMarkup(iso)}">${escapeMarkup(formatTimestamp(iso))}</time>`
  return `<p class="muted" id="freshness">Last run ${at(runAt)}; last change to any app ${at(lastChange)}. Run status: <a href="${paths.status}">${paths.status}</a>.</p>\n`
}

export function renderIndex(input: IndexInput): string {
  const records = [...input.records].sort(byName)
  const counts = new Map<Classification, number>(CLASSES.map((c) => [c, 0]))
  for (const r of records) counts.set(r.safeToUpdate, (counts.get(r.safeToUpdate) ?? 0) + 1)
  const total = records.length
  const plural = (n: number) => `${n} ${n === 1 ? 'app' : 'apps'}`

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
<thead><tr><th scope="col">App</th><th scope="col">Latest version</th><th scope="col">Update safety</th><th scope="col">Why</th><th scope="col">Last checked</th></tr></thead>
<tbody>
${records.map((r) => row(r, input.stale?.has(r.slug) ?? false)).join('')}</tbody></table>
<p id="none" hidden>No app matches this filter.</p>\n`

  const legend =
    `<section class="legend" aria-labelledby="legend-h"><h2 id="legend-h">What the classes mean</h2><dl>` +
    CLASSES.map((c) => `<dt>${chip(c)}</dt><dd>${escapeMarkup(CLASS_INFO[c].advice)}</dd>`).join('') +
    `</dl></section>\n`

  const main = `<h1>Update safety of ${plural(total)}</h1>
<p class="lede">For each self-hosted app: its newest release, and whether the release notes say it is safe to install. Also as JSON: <a href="${paths.catalog}">${paths.catalog}</a>.</p>
${input.offline ? offlineNotice(input.offline, input.offline.asOf ?? newestChecked(records), 'This snapshot') : ''}${freshness(input.runAt ?? input.generatedAt, input.generatedAt)}${filters}<p class="search" id="search" hidden><label for="q">Search by name, repository or version</label><input id="q" type="search" autocomplete="off" spellcheck="false"></p>
<p id="shown" role="status">${plural(total)}</p>
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
