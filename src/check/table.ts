// `updatesafe check`'s output: a table for a terminal (the service beside the app, the verdict, the
// worst class crossed with its release, and the deciding words wrapped under their column, never
// cut), or the JSON document `--json` prints.
import { NOT_READ_VERSION } from '../schema/index.js'
import { escapeUnsafe } from '../util/text.js'
import { worstOf, worstOverall, type GateOptions } from './gate.js'
import type { CheckResult } from './report.js'

/** The JSON document `--json` prints; `worst` is what the gate counted for each app. */
export function checkJson(result: CheckResult, opts: GateOptions = {}): unknown {
  return {
    snapshot: result.snapshot,
    apps: result.apps.map((a) => ({
      slug: a.slug,
      name: a.name,
      running: a.running,
      latest: a.latest,
      safeToUpdate: a.safeToUpdate,
      rationale: a.rationale,
      worst: worstOf(a, opts),
      decidedBy: a.decidedBy,
      crossed: a.crossed,
      breaking: a.breaking,
      urgentOnly: a.urgentOnly,
      unmaintained: a.unmaintained,
      changesMajor: a.changesMajor,
      source: a.source
    })),
    untracked: result.untracked
  }
}

/** Upstream's words on a terminal: control characters shown escaped, one line, bounded. */
function cell(text: string, max: number): string {
  const s = escapeUnsafe(text.replace(/\s+/g, ' ').trim())
  return s.length > max ? `${s.slice(0, max - 1)}…` : s
}

/** A path on a terminal: like `cell`, but a long one keeps its end, which names the file. */
function pathCell(file: string, max: number): string {
  const s = escapeUnsafe(file.replace(/\s+/g, ' ').trim())
  return s.length > max ? `…${s.slice(s.length - max + 1)}` : s
}

/** Where a row's version was read: the Compose service, a manifest's file and line, or `(--from)`. */
function whereCell(source: CheckResult['apps'][number]['source'], max: number): string {
  if (source.from === 'compose') return cell(source.service, max)
  if (source.from === 'argument') return '(--from)'
  const line = `:${source.line}`
  return `${pathCell(source.file, max - line.length)}${line}`
}

/** Words wrapped at `width` columns; a word longer than the width is split. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = []
  let line = ''
  for (let word of text.split(' ').filter((w) => w !== '')) {
    while (word.length > width) {
      if (line) out.push(line)
      out.push(word.slice(0, width))
      word = word.slice(width)
      line = ''
    }
    if (!line) line = word
    else if (line.length + 1 + word.length <= width) line += ` ${word}`
    else {
      out.push(line)
      line = word
    }
  }
  if (line) out.push(line)
  return out.length > 0 ? out : ['']
}

/** The deciding words are long: at most this many characters (the JSON has them whole). */
const MAX_WORDS = 600

/** A plain table for a terminal `columns` wide, then the images not checked and why. */
export function checkTable(result: CheckResult, opts: GateOptions & { columns?: number } = {}): string {
  const head = ['SERVICE', 'APP', 'RUNNING', 'LATEST', 'VERDICT', 'WORST CROSSED', 'WHY']
  const rows = result.apps.map((a) => {
    const w = worstOf(a, opts)
    const worst =
      `${w.safeToUpdate}${w.version !== null ? ` (${w.version})` : ''}` +
      `${w.urgentAllowed ? ' urgent fix, allowed' : a.breaking && a.urgentOnly ? ' urgent fix' : ''}` +
      `${w.unjudgedMajor ? ' unjudged major' : ''}`
    return [
      // Parentheses: no Compose service can be named so, so a --from row never reads as a service.
      whereCell(a.source, 40),
      cell(a.slug, 40),
      cell(a.running ?? '?', 30),
      // The catalog's word for a release not read yet is no version: a table must not show it as one.
      a.latest === NOT_READ_VERSION ? '(not read)' : cell(a.latest, 30),
      `${a.safeToUpdate}${a.unmaintained ? ' (app unmaintained)' : ''}`,
      cell(worst, 60),
      cell(w.words, MAX_WORDS)
    ]
  })
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const indent = widths.slice(0, -1).reduce((n, w) => n + w + 2, 0)
  // The last column takes what the terminal leaves, but never fewer than 30 columns.
  const whyWidth = Math.max(30, (opts.columns ?? 120) - indent)
  const out: string[] = []
  const emit = (r: string[]) => {
    const [first, ...more] = wrap(r[r.length - 1]!, whyWidth)
    out.push([...r.slice(0, -1).map((c, i) => c.padEnd(widths[i]!)), first].join('  ').trimEnd())
    for (const m of more) out.push(`${' '.repeat(indent)}${m}`.trimEnd())
  }
  if (rows.length > 0) {
    emit(head)
    rows.forEach(emit)
    out.push('', ...LEGEND.flatMap((l) => wrap(l, Math.max(40, opts.columns ?? 120))))
  } else out.push('No tracked app to check.')
  if (result.untracked.length > 0) {
    out.push('', 'Not checked:')
    for (const u of result.untracked)
      out.push(
        u.line === 0
          ? `  ${pathCell(u.file, 80)}: ${cell(u.reason, 300)}`
          : `  ${pathCell(u.file, 80)}:${u.line}: ${cell(u.service, 40)} (${cell(u.image ?? 'no image', 80)}): ${cell(u.reason, 300)}`
      )
  }
  out.push('', summaryLine(result, opts))
  return `${out.join('\n')}\n`
}

/** What the two class columns mean: one is the update as a whole, the other the worst single release in it. */
const LEGEND = [
  'VERDICT: the update from RUNNING to LATEST as a whole (unknown when a release between was not judged).',
  'WORST CROSSED: the most severe release between them. The exit status follows the more severe of the two.'
]

/**
 * One closing line: how many updates were checked against the catalog (judged or not: a row may be unknown), the
 * worst class the gate counts among them, how many images were not checked.
 */
function summaryLine(result: CheckResult, opts: GateOptions): string {
  const worst = worstOverall(result, opts)
  const judged = `${result.apps.length} checked${worst ? `, worst ${worst}` : ''}`
  const n = result.untracked.length
  return `${judged}; ${n} not checked.`
}
