// One app's page: the verdict and why, then the facts a reader needs to act.
import { LIMITS, NOT_READ_VERSION, REPO_PATTERN, SLUG_PATTERN, type AppRecord, type Lifecycle, type ReleasesDoc } from '../../schema/index.js'
import { CLASS_INFO } from './classes.js'
import { categoriesCredit, categoryLink, chip } from './index-page.js'
import { paths, relativeLink, rootLink } from '../paths.js'
import { layout } from './layout.js'
import { safeHttpUrl } from '../../util/http-url.js'
import { cleanText, escapeMarkup, isDate, offlineNotice, shownVersion, text, type OfflineData } from './text.js'
import { upgradeTable } from './upgrade-table.js'

export interface PageInput {
  record: AppRecord
  /** YYYY-MM-DD of latestVersion, when known. */
  releaseDate: string | null
  /** Versions the classifier read, oldest first (may be just [latestVersion]). */
  releasesConsidered: string[]
  /** Name of the classifier rule that decided, when any: for logs and tests, never shown on a page. */
  rule: string | null
  /** The release version that decided it. */
  decidedBy: string | null
  /** Upstream could not be reached this run; facts are last-known-good. */
  stale: boolean
  /** The catalog's categories of the app (awesome-selfhosted's), shown on the pages; never part of the record. */
  categories?: readonly string[] | undefined
  /** The slug of the successor's own page, when this catalog tracks it. */
  successorSlug?: string | undefined
}

export interface AppPageInput extends PageInput {
  /** Since when (ISO timestamp) the facts have been stale, when they are. */
  staleSince?: string | null
  feeds?: boolean
  /** The app's judged releases, when published: the upgrade table is rendered from them. */
  history?: ReleasesDoc | null
  /** Built from offline data; without its own day, as of the app's last check. */
  offline?: OfflineData | null
}

/**
 * Breaking for an urgent fix (the rubric's "a fix to apply now"): the class's own advice, "plan the update", would
 * tell a reader to put off a security fix.
 */
const URGENT_ADVICE = 'An urgent fix the notes say to apply now: read them and update soon.'

/** The release that decided a breaking verdict is an urgent fix, by the app's published history. */
function urgentFix(p: AppPageInput): boolean {
  if (p.record.safeToUpdate !== 'breaking' || p.decidedBy === null) return false
  return p.history?.releases.find((e) => e.version === p.decidedBy)?.breakingKind === 'urgent'
}

/** At most this many releases are listed; the rest are counted. */
export const MAX_RELEASES_SHOWN = 50

/**
 * The lifecycle sentence, in plain text. Null when nothing is tracked. It names the date, never a count of
 * days: a page is rewritten only when its record changes, so a count would go wrong on the next quiet day.
 * The browser adds the count (site.js, `data-until`).
 */
export function lifecycleText(l: Lifecycle | null): string | null {
  if (l === null) return null
  const cycle = cleanText(l.cycle, 64)
  const date = lifecycleDate(l)
  if (date === null) return `Release cycle ${cycle}: no end of life set.`
  return l.status === 'eol'
    ? `Release cycle ${cycle} reached end of life on ${date}.`
    : `Release cycle ${cycle} reaches end of life on ${date}.`
}

/** The end-of-life date of a lifecycle, when one is set. */
function lifecycleDate(l: Lifecycle): string | null {
  const date = l.eolDate ?? l.eol
  return l.eol !== false && isDate(date) ? date : null
}

/** Markdown for embedding the badge; parentheses are encoded so the link cannot break out. */
export function badgeMarkdown(record: Pick<AppRecord, 'badge' | 'url'>): string | null {
  const badge = safeHttpUrl(record.badge)
  const url = safeHttpUrl(record.url)
  if (!badge || !url) return null
  const md = (u: string) => u.replace(/\(/g, '%28').replace(/\)/g, '%29')
  return `[![update safety](${md(badge)})](${md(url)})`
}

function link(href: string | null, label: string): string {
  return href ? `<a href="${escapeMarkup(href)}" rel="noopener noreferrer">${label}</a>` : label
}

/**
 * The line over a single release considered. "Only this release was read" was untrue above an upgrade table of
 * many releases (issue 60): the verdict reads one release, the table every release judged so far.
 */
function oneRelease(history: ReleasesDoc | null): string {
  const judged = history?.releases.length ?? 0
  return judged > 1
    ? `The verdict reads this release alone: it is the only one since the version published before. Updating from an older version crosses more of the ${judged} releases judged so far: see the table below.`
    : 'Only this release was read.'
}

/** The app's categories, each a link to the index filtered to it, with the credit their license asks. */
function categoriesFact(categories: readonly string[] | undefined, root: string): string {
  const names = [...new Set((categories ?? []).map((c) => cleanText(c, 80)).filter((c) => c !== ''))]
  if (names.length === 0) return ''
  const links = names.map((c) => `<a href="${escapeMarkup(categoryLink(root, c))}">${escapeMarkup(c)}</a>`)
  return `<dt>Categories</dt><dd><span class="cats">${links.join(', ')}</span> <small id="credit">${categoriesCredit()}</small></dd>\n`
}

export function renderAppPage(p: AppPageInput): string {
  const r = p.record
  const slug = r.slug
  const here = paths.page(slug)
  const from = (to: string) => relativeLink(here, to)
  const info = CLASS_INFO[r.safeToUpdate]
  const name = cleanText(r.name, LIMITS.name)
  const version = shownVersion(r.latestVersion, LIMITS.version)
  const advice = urgentFix(p) ? URGENT_ADVICE : info.advice
  const read = r.latestVersion !== NOT_READ_VERSION
  const decidedBy = p.decidedBy === null ? null : cleanText(p.decidedBy, LIMITS.version)
  const parts: string[] = []

  parts.push(`<nav aria-label="Breadcrumb"><a href="../../">All apps</a></nav>
<h1>${escapeMarkup(name)}${read ? ` <span class="v">${escapeMarkup(version)}</span>` : ''}</h1>
<p class="muted">${text(r.repo, 140)}</p>\n`)

  if (p.offline)
    parts.push(
      offlineNotice(
        { source: p.offline.pageSource ?? p.offline.source, asOf: null, demo: p.offline.demo ?? false },
        p.offline.asOf ?? r.lastChecked,
        'This page'
      )
    )

  if (p.stale) {
    const since = p.staleSince ? p.staleSince.slice(0, 10) : null
    parts.push(
      `<p class="notice" role="note"><strong>Stale data${isDate(since) ? ` since ${since}` : ''}.</strong> The upstream project could not be reached ${isDate(since) ? `by any build since ${since}` : 'during the latest build'}; these are the last known facts, checked on ${isDate(r.lastChecked) ? r.lastChecked : 'an earlier day'}.</p>\n`
    )
  }

  parts.push(`<section class="verdict c-${r.safeToUpdate}" aria-labelledby="verdict-h">
<h2 id="verdict-h" class="vh">Update safety</h2>
<p>${chip(r.safeToUpdate)} <span>${escapeMarkup(advice)}</span></p>
<p class="prose">${text(r.rationale, LIMITS.rationale, { multiline: true })}</p>
${decidedBy ? `<p class="muted">Decided by release <code>${escapeMarkup(decidedBy)}</code>.</p>\n` : ''}</section>\n`)

  if (r.safeToUpdate === 'unmaintained' || r.successor !== null) {
    const succ = r.successor === null ? '' : cleanText(r.successor, LIMITS.successor)
    // A repository reference links to GitHub; any other text stays text.
    const succHtml =
      succ === ''
        ? 'No successor is named.'
        : REPO_PATTERN.test(succ)
          ? p.successorSlug !== undefined && SLUG_PATTERN.test(p.successorSlug)
            ? `Maintained successor: <a href="${from(paths.pageDir(p.successorSlug))}">${escapeMarkup(succ)}</a>, tracked here too (${link(`https://github.com/${succ}`, 'on GitHub')})`
            : `Maintained successor: ${link(`https://github.com/${succ}`, escapeMarkup(succ))}`
          : `Maintained successor: ${escapeMarkup(succ)}`
    parts.push(`<h2>Successor</h2>\n<p>${succHtml}</p>\n`)
  }

  const notes = safeHttpUrl(r.sourceUrl)
  parts.push(`<dl class="facts">
<dt>Latest version</dt><dd>${read ? `<code>${escapeMarkup(version)}</code>` : version}</dd>
<dt>Released</dt><dd>${isDate(p.releaseDate) ? p.releaseDate : 'date not known'}</dd>
<dt>Last checked</dt><dd>${isDate(r.lastChecked) ? r.lastChecked : 'not known'}</dd>
<dt>Release notes</dt><dd>${notes ? link(notes, read ? `Release notes for ${escapeMarkup(version)}` : 'The releases page') : 'no link available'}</dd>
${categoriesFact(p.categories, rootLink(here))}</dl>\n`)

  const noSummary = r.changelogSummary === null || cleanText(r.changelogSummary, 8) === ''
  // An archived app without a summary: its verdict and successor say it all; "no summary" would add nothing.
  if (!(noSummary && r.safeToUpdate === 'unmaintained')) {
    parts.push(`<h2>Changelog summary</h2>\n`)
    parts.push(
      noSummary
        ? `<p class="muted">No summary is available.</p>\n`
        : `<p class="prose">${text(r.changelogSummary, LIMITS.summary, { multiline: true })}</p>\n`
    )
  }

  const releases = p.releasesConsidered.slice(0, MAX_RELEASES_SHOWN)
  if (releases.length > 0) {
    const more = p.releasesConsidered.length - releases.length
    parts.push(`<h2>Releases considered</h2>
<p class="muted">${p.releasesConsidered.length === 1 ? oneRelease(p.history ?? null) : `Updating from the previously published version crosses these ${p.releasesConsidered.length} releases; the most severe finding decides.`}</p>
<ol class="releases">
${releases
  .map((v) => {
    const label = cleanText(v, LIMITS.version)
    const decisive = decidedBy !== null && label === decidedBy
    return `<li><code>${escapeMarkup(label)}</code>${decisive ? ' <strong>decided the class</strong>' : ''}</li>\n`
  })
  .join('')}</ol>
${more > 0 ? `<p class="muted">and ${more} more.</p>\n` : ''}`)
  }

  parts.push(upgradeTable(r, p.history ?? null))

  const life = lifecycleText(r.lifecycle)
  if (life !== null && r.lifecycle !== null) {
    const passed = r.lifecycle.status === 'eol'
    const date = lifecycleDate(r.lifecycle)
    const product = cleanText(r.lifecycle.product, 80)
    parts.push(`<h2>Lifecycle</h2>
<p${passed ? ' class="eol"' : ''}>${escapeMarkup(life)}${date ? ` <span data-until="${date}"></span>` : ''}</p>
<p class="muted">Source: ${link(safeHttpUrl(r.lifecycle.link), `endoflife.date: ${escapeMarkup(product)}`)}</p>\n`)
  }

  const md = badgeMarkdown(r)
  parts.push(`<h2>Badge</h2>
<div class="badge"><img src="${from(paths.badge(slug))}" alt="update safety: ${escapeMarkup(info.label.toLowerCase())}, ${escapeMarkup(version)}"></div>
${md ? `<p>Markdown for a README:</p>\n<pre data-copy tabindex="0" aria-label="Badge Markdown"><code>${escapeMarkup(md)}</code></pre>\n` : ''}`)

  parts.push(`<h2>Data</h2>
<ul>
<li><a href="${from(paths.app(slug))}">This app as JSON</a> (${paths.app(slug)})</li>
${p.history ? `<li><a href="${from(paths.releases(slug))}">Judged releases as JSON</a> (${paths.releases(slug)})</li>\n` : ''}<li><a href="${from(paths.shields(slug))}">Shields endpoint</a> (for shields.io badge styles)</li>
${p.feeds ? `<li><a href="${from(paths.appFeed(slug))}">Atom feed of changes to this app</a></li>\n` : ''}</ul>\n`)

  return layout({
    title: `${name}${read ? ` ${version}` : ''}: ${info.label} – updatesafe`,
    description: `${name}${read ? ` ${version}` : ''}: ${info.label}. ${advice}`,
    root: rootLink(here),
    main: parts.join(''),
    feeds: p.feeds,
    head: p.feeds
      ? `<link rel="alternate" type="application/atom+xml" title="Changes to ${escapeMarkup(name)}" href="${from(paths.appFeed(slug))}">\n`
      : ''
  })
}
