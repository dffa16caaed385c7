// One release's notes → one class, the rule that decided and the words it quotes.
import { parseUnits, type Unit } from './blocks.js'
import { judgeUnit, rulePriority, RULES, type Finding } from './rules.js'
import { cleanNotes, isBlankNotes, squash } from './text.js'
import type { Classification } from '../schema/index.js'

export interface ReleaseJudgement {
  safeToUpdate: Classification
  /** Rule name: a rule of ./rules.ts, or one of the outcomes below. */
  rule: string
  /** What the rule means, in words for the rationale. */
  describes: string
  finding: Finding | null
  units: Unit[]
  /** The notes were cut (over the cap, or marked `[truncated]` upstream). */
  cut: boolean
}

export const OUTCOMES = {
  noRiskFound: 'no-risk-found',
  emptyNotes: 'empty-notes',
  noContent: 'no-content',
  unreadable: 'unreadable-notes'
} as const

const WITHDRAWN =
  /\b(?:cancell?ed|withdrawn|yanked|retracted|pulled|skipped|not (?:been )?released|do not use|don't use)\b/i

// Common words of English changelogs. Notes in which almost no word is one of these
// are in another language (or junk), and "no finding" there means nothing.
const ENGLISH = new Set(
  (
    'the a an and or of to in on for with from by at as is are was were be been it this that these not no new now ' +
    'add added adds adding fix fixed fixes fixing update updated updates bump bumped remove removed improve improved ' +
    'improvement improvements change changed changes support supported use used using allow allows make when if ' +
    'bug bugs feature features release version error errors issue issues more all can should will has have only into ' +
    'after before default option options config configuration security deprecated breaking docs documentation test ' +
    'tests dependency dependencies minor major patch set show list page user users file files api server client'
  ).split(' ')
)

function words(units: Unit[]): string[] {
  const out: string[] = []
  for (const u of units) {
    if (u.kind === 'code') continue
    const ws = u.text.replace(/\bhttps?:\/\/\S+/g, ' ').match(/\p{L}[\p{L}\p{M}'’-]*/gu)
    if (ws) for (const w of ws) out.push(w)
    if (out.length > 400) break
  }
  return out
}

/** Is `a` stronger evidence than `b`? Class, then rule, then the unit's own words, then more evidence. */
function better(a: Finding, b: Finding): boolean {
  if (a.rule.severity !== b.rule.severity) return a.rule.severity === 'breaking'
  const pa = rulePriority(a.rule)
  const pb = rulePriority(b.rule)
  if (pa !== pb) return pa < pb
  if (a.direct !== b.direct) return a.direct
  return a.weight > b.weight
}

/** Judge one release's notes. Total: any string (or none) gives a judgement. */
export function judgeRelease(notes: unknown): ReleaseJudgement {
  const { text, cut } = cleanNotes(notes)
  if (isBlankNotes(text)) {
    return {
      safeToUpdate: 'unknown',
      rule: OUTCOMES.emptyNotes,
      describes: 'no release notes',
      finding: null,
      units: [],
      cut
    }
  }
  const units = parseUnits(text)
  let best: Finding | null = null
  for (const u of units) {
    for (const f of judgeUnit(u)) if (best === null || better(f, best)) best = f
  }
  if (best) {
    return {
      safeToUpdate: best.rule.severity,
      rule: best.rule.name,
      describes: best.rule.describes,
      finding: best,
      units,
      cut
    }
  }
  const ws = words(units)
  const content = units.filter((u) => u.kind !== 'heading' && u.kind !== 'code')
  if (ws.length < 2 || (ws.length < 15 && content.some((u) => WITHDRAWN.test(u.text))) || content.length === 0) {
    return {
      safeToUpdate: 'unknown',
      rule: OUTCOMES.noContent,
      describes: 'the notes carry no usable content',
      finding: null,
      units,
      cut
    }
  }
  const english = ws.filter((w) => ENGLISH.has(w.toLowerCase())).length
  if (english < Math.max(1, ws.length * 0.08)) {
    return {
      safeToUpdate: 'unknown',
      rule: OUTCOMES.unreadable,
      describes: 'no rule applies and the notes are not in a language or form the rules read',
      finding: null,
      units,
      cut
    }
  }
  if (cut) {
    const r = RULES.truncatedNotes
    return { safeToUpdate: 'caution', rule: r.name, describes: r.describes, finding: null, units, cut }
  }
  return {
    safeToUpdate: 'safe',
    rule: OUTCOMES.noRiskFound,
    describes:
      'the notes show no breaking change, required step, raised requirement, security fix, deprecation or behaviour change',
    finding: null,
    units,
    cut
  }
}

/** The words around a finding, bounded, for the rationale. */
export function quoteOf(f: Finding, max = 200): string {
  const t = f.unit.text
  let start = f.at > 80 ? t.lastIndexOf(' ', f.at - 40) + 1 : 0
  if (start < 0) start = 0
  let q = t.slice(start)
  if (q.length > max) {
    q = q.slice(0, max - 1)
    const sp = q.lastIndexOf(' ')
    if (sp > max * 0.6) q = q.slice(0, sp)
    q = `${q}…`
  }
  return squash(`${start > 0 ? '…' : ''}${q}`)
}
