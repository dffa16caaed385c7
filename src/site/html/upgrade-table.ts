// "Upgrading from an older version?": every judged release of an app, its own class and deciding
// words, and the verdict of updating from it to the latest. A plain table: it needs no script.
import { unreadWords, verdictFrom } from '../../classify/upgrade.js'
import { LIMITS, type AppRecord, type ReleasesDoc } from '../../schema/index.js'
import { chip } from './index-page.js'
import { escapeMarkup, isDate, text } from './text.js'

/** The words that decided a release: its quote, else the evidence in plain words. */
function words(e: ReleasesDoc['releases'][number]): string {
  return e.quote !== null ? `“${text(e.quote, 200)}”` : text(e.evidence, 200)
}

/** Who judged a release: the rules (alone, for notes written to the judge), or a model (and what the rules said, where the two differ). */
function judgedBy(e: ReleasesDoc['releases'][number]): string {
  // Notes written to the judge: no model was asked, whatever judge the site uses.
  if (e.injection)
    return '<small class="muted">judged by the rules alone: a line of the notes or the release’s name addresses the reviewer or asks for a class</small>'
  if (e.model === null) return '<small class="muted">judged by the rules</small>'
  const differ = e.model.class !== e.safeToUpdate ? `; it read ${e.model.class}, the rules’ floor kept ${e.safeToUpdate}` : e.rules !== e.safeToUpdate ? `; the rules alone: ${e.rules}` : ''
  return `<small class="muted">judged by the model <code>${text(e.model.id, 100)}</code>${differ}</small>`
}

/**
 * The release that weighs most on the way. Where the update as a whole is unknown (a release between was never
 * read) but a judged one on the way is caution or breaking, its class shows beside the grey label, as `check` counts
 * it: a reader on an old version must not miss a known breaking release for the unknown around it.
 */
function decided(v: ReturnType<typeof verdictFrom>): string {
  const d = v.decidedBy
  if (!d) return ''
  const version = `<code>${text(d.version, LIMITS.version)}</code>`
  return v.safeToUpdate === 'unknown' && (d.safeToUpdate === 'breaking' || d.safeToUpdate === 'caution')
    ? ` <small>and crosses</small> ${chip(d.safeToUpdate)} <small>at ${version}</small>`
    : ` <small>decided by ${version}</small>`
}

export function upgradeTable(record: AppRecord, history: ReleasesDoc | null): string {
  const releases = history?.releases ?? []
  if (releases.length === 0) return ''
  const rows = releases.map((e) => {
    const v = verdictFrom(releases, e.version, { latest: record.latestVersion, gaps: history?.gaps ?? [] })
    // The latest release's own class is in the middle column; updating from it there is nothing to judge.
    const from =
      v.crossed.length === 0 && v.safeToUpdate === 'safe'
        ? '<strong>You run the latest release</strong>: nothing to update.'
        : `${chip(v.safeToUpdate)}${decided(v)}<br><small>${text(v.rationale, 600)}</small>`
    const kind = e.breakingKind === 'urgent' ? ' <small>urgent fix</small>' : e.breakingKind === 'required' ? ' <small>required step</small>' : ''
    return `<tr data-v="${escapeMarkup(e.version)}"><th scope="row"><code>${text(e.version, LIMITS.version)}</code>${isDate(e.date) ? `<small>${e.date}</small>` : ''}</th><td>${chip(e.safeToUpdate)}${kind}${e.security ? ' <small>security fix</small>' : ''}<br><small>${words(e)}</small><br>${judgedBy(e)}</td><td>${from}</td></tr>\n`
  })
  const gaps = history?.gaps ?? []
  // Releases a refresh could not read: said once above the table, and in the verdict of every row below them.
  const unread =
    gaps.length > 0
      ? `\n<p class="notice" role="note">Not judged: ${text(unreadWords(gaps), 600)}. Updating across them is unknown, never safe.</p>`
      : ''
  return `<h2 id="upgrade-h">Upgrading from an older version?</h2>
<p class="muted">Each release judged so far, newest first, with its own class and the words that decided it, and the verdict of updating from it to ${text(record.latestVersion, LIMITS.version)}: the most severe release crossed decides. A version not listed here is not judged.</p>${unread}
<table class="upgrade" aria-labelledby="upgrade-h">
<thead><tr><th scope="col">If you run</th><th scope="col">That release</th><th scope="col">Updating to ${text(record.latestVersion, LIMITS.version)}</th></tr></thead>
<tbody>
${rows.join('')}</tbody>
</table>\n`
}
