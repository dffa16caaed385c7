// The job summary (GITHUB_STEP_SUMMARY) of one action run, as Markdown: what
// a maintainer needs to review a scheduled publish without opening the site.
// Pure: the action writes the string; tests read it.
import type { RecordChange } from '../pipeline/pipeline.js'
import type { RunJudging } from '../site/status.js'
import type { RefreshStats } from '../upstream/github/refresh.js'

export interface SummaryInput {
  /** Apps in the snapshot; null when the run failed before building one. */
  count: number | null
  changes: readonly RecordChange[]
  stale: readonly string[]
  /** Apps left out of the snapshot (never published, no release found upstream); absent in older callers. */
  leftOut?: readonly { slug: string; reason: string }[]
  /** History of the previous snapshot that could not be carried over (status.json historyReset); absent: none. */
  historyReset?: readonly { document: string; problem: string; rebuilt: boolean }[]
  /** Apps whose record built from upstream data failed its schema (status.json faults); absent: none. */
  faults?: readonly { slug: string; field: string; problem: string; published: 'previous' | 'unknown' | 'none' }[]
  warnings: readonly string[]
  /** Errors that stopped the run (catalog issues as `file:line:col: field: message`). */
  errors: readonly string[]
  refresh: boolean
  stats: RefreshStats | null
  /** Who judged this run's releases (status.json's judging), when a build ran. */
  judging?: RunJudging | null
}

/** Past this many lines a list is cut; a summary is capped at 1 MiB by GitHub and must stay readable. */
export const MAX_LIST_ITEMS = 50

const ARROW = ' → '

/**
 * Text from upstream (warnings quote release notes, error messages, tags) must
 * not turn into Markdown or HTML: escape the characters that could, and keep
 * it on one line so it cannot break a table row or list item.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_{}[\]()<>#|!~&]/g, (c) => `\\${c}`)
}

function code(text: string): string {
  // A backtick cannot sit inside a one-backtick code span; fall back to escaped text.
  // A pipe would end the table cell even inside a code span, so GFM wants it escaped there too.
  return text.includes('`') || text.trim() === ''
    ? escapeMarkdown(text)
    : `\`${text.replace(/\s+/g, ' ').replace(/\|/g, '\\|')}\``
}

/** `old → new`, or the one value when it did not move; a new or removed app says so once, in the version column. */
function transition<T extends string>(
  before: T | undefined,
  after: T | undefined,
  show: (v: T) => string,
  edge: boolean
): string {
  if (before === undefined) return after === undefined ? '' : `${show(after)}${edge ? ' (new app)' : ''}`
  if (after === undefined) return edge ? `${show(before)}${ARROW}removed` : show(before)
  if (before === after) return show(after)
  return `${show(before)}${ARROW}${show(after)}`
}

function list(items: readonly string[], render: (s: string) => string): string[] {
  const shown = items.slice(0, MAX_LIST_ITEMS).map((s) => `- ${render(s)}`)
  if (items.length > MAX_LIST_ITEMS) shown.push(`- … and ${items.length - MAX_LIST_ITEMS} more`)
  return shown
}

/** Changes a reader cares about at a glance: the version or the classification moved, or the app came or went. */
export function headlineChanges(changes: readonly RecordChange[]): RecordChange[] {
  return changes.filter(
    (c) =>
      !c.before ||
      !c.after ||
      c.before.latestVersion !== c.after.latestVersion ||
      c.before.safeToUpdate !== c.after.safeToUpdate
  )
}

export function buildSummary(input: SummaryInput): string {
  const out: string[] = ['## updatesafe', '']
  if (input.errors.length > 0) {
    out.push(
      `**Failed: nothing was published.** ${input.errors.length} error${input.errors.length === 1 ? '' : 's'}:`,
      ''
    )
    out.push(...list(input.errors, escapeMarkdown), '')
  } else {
    const facts = [
      `${input.count ?? 0} apps`,
      `${input.changes.length} changed`,
      `${input.stale.length} stale`,
      ...(input.leftOut?.length ? [`${input.leftOut.length} left out`] : []),
      ...(input.historyReset?.length ? [`${input.historyReset.length} histories not carried over`] : []),
      ...(input.faults?.length ? [`${input.faults.length} upstream fault${input.faults.length === 1 ? '' : 's'}`] : []),
      `${input.warnings.length} warning${input.warnings.length === 1 ? '' : 's'}`,
      input.refresh ? 'refreshed from upstream' : 'built from the catalog (no refresh)'
    ]
    out.push(facts.join(' · '), '')
    if (input.stats) {
      out.push(
        `GitHub: ${input.stats.requests} requests, ${input.stats.graphqlPoints} GraphQL points, ${input.stats.remaining ?? '?'} points left.`,
        ''
      )
    }
    if (input.judging && input.judging.judge !== 'rules') {
      const byModel = input.judging.verdicts[input.judging.judge] ?? 0
      const byRules = input.judging.verdicts.rules ?? 0
      const releases = (n: number) => `${n} new release${n === 1 ? '' : 's'}`
      // The later models of a list, for the releases the first could not take (its daily limit spent).
      const others = Object.entries(input.judging.verdicts)
        .filter(([judge]) => judge !== 'rules' && judge !== input.judging!.judge)
        .map(([judge, n]) => `; the next model, \`${judge.slice('model:'.length)}\`, judged ${releases(n)}`)
        .join('')
      out.push(
        `Judge: \`${input.judging.judge.slice('model:'.length)}\` (GitHub Models) judged ${releases(byModel)} in ${input.judging.calls} request${input.judging.calls === 1 ? '' : 's'}` +
          others +
          (byRules > 0 ? `; ${byRules} left to the rules, asked again next run.` : '.') +
          // An answer that failed the check twice is not asked for again: a maintainer may want to read why.
          (input.judging.unusable
            ? ` ${input.judging.unusable} release${input.judging.unusable === 1 ? '' : 's'} got ${input.judging.unusable === 1 ? 'an answer' : 'answers'} that could not be used (the release's history names the model).`
            : '') +
          (input.judging.pending
            ? ` ${input.judging.pending} latest release${input.judging.pending === 1 ? '' : 's'} still wait${input.judging.pending === 1 ? 's' : ''} for the model.`
            : ''),
        ''
      )
    }
    if (input.judging?.injection?.length) {
      out.push(
        `Notes that address the reviewer or ask for a class, judged by the rules alone: ${input.judging.injection.slice(0, MAX_LIST_ITEMS).join(', ')}${input.judging.injection.length > MAX_LIST_ITEMS ? ` and ${input.judging.injection.length - MAX_LIST_ITEMS} more` : ''}.`,
        ''
      )
    }
  }

  const headline = headlineChanges(input.changes)
  if (headline.length > 0) {
    out.push('### Version or classification changed', '', '| App | Version | Safe to update |', '| --- | --- | --- |')
    for (const c of headline.slice(0, MAX_LIST_ITEMS)) {
      const version = transition(c.before?.latestVersion, c.after?.latestVersion, code, true)
      const verdict = transition(
        c.before?.safeToUpdate,
        c.after?.safeToUpdate,
        (v) => `**${escapeMarkdown(v)}**`,
        false
      )
      out.push(`| ${escapeMarkdown(c.slug)} | ${version} | ${verdict} |`)
    }
    if (headline.length > MAX_LIST_ITEMS) out.push(`| … and ${headline.length - MAX_LIST_ITEMS} more | | |`)
    out.push('')
  }
  const quiet = input.changes.filter((c) => !headline.includes(c)).map((c) => c.slug)
  if (quiet.length > 0) {
    out.push(`Also changed (rationale, summary, lifecycle or links): ${quiet.map(escapeMarkdown).join(', ')}.`, '')
  }
  if (input.errors.length === 0 && input.changes.length === 0) {
    out.push(
      'No record changed since the previous snapshot: only the run report (`api/v1/status.json`) and the index that shows it are new.',
      ''
    )
  }

  if (input.stale.length > 0) {
    out.push(
      '### Stale',
      '',
      'Upstream could not be read for these apps; their last-known-good records were republished.',
      ''
    )
    out.push(...list(input.stale, escapeMarkdown), '')
  }
  if (input.leftOut?.length) {
    out.push(
      '### Left out',
      '',
      'Never published before and upstream gave no release for them: not in this snapshot; the next run tries again.',
      ''
    )
    out.push(
      ...list(
        input.leftOut.map((l) => `${l.slug}: ${l.reason}`),
        escapeMarkdown
      ),
      ''
    )
  }
  if (input.historyReset?.length) {
    out.push(
      '### History not carried over',
      '',
      'The previous snapshot held these histories, and they could not be read: what they held before this run may be lost.',
      ''
    )
    out.push(
      ...list(
        input.historyReset.map(
          (h) => `${h.document} ${h.problem}; ${h.rebuilt ? 'read again from upstream' : 'starts again from this run'}`
        ),
        escapeMarkdown
      ),
      ''
    )
  }
  if (input.faults?.length) {
    const instead = { previous: 'last published record kept', unknown: 'published as unknown', none: 'left out' }
    out.push(
      '### Upstream data not published',
      '',
      'The record built from upstream data failed its schema for these apps; the run went on without it. The next run builds them again.',
      ''
    )
    out.push(
      ...list(
        input.faults.map((f) => `${f.slug}: ${f.field}: ${f.problem}; ${instead[f.published]}`),
        escapeMarkdown
      ),
      ''
    )
  }
  if (input.warnings.length > 0) {
    out.push('### Warnings', '')
    out.push(...list(input.warnings, escapeMarkdown), '')
  }
  return `${out.join('\n').trimEnd()}\n`
}
