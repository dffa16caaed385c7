// The gate's rules, shared by `updatesafe check` and the pull-request check action: each judged
// update's worst class (its verdict or the worst release it crosses, whichever is more severe) and
// the words that decided it, and the exit status `--fail-on` asks for. An image the catalog does
// not know, or a version it cannot place, is unknown: never safe, failing only `--fail-on unknown`.
import type { Classification } from '../schema/index.js'
import type { CheckedApp, CheckResult } from './report.js'

export const FAIL_ON = ['breaking', 'caution', 'unknown', 'never'] as const
export type FailOn = (typeof FAIL_ON)[number]

/** Gate order: what each `--fail-on` level stops at, and above. */
const LEVEL: Record<Exclude<Classification, 'unmaintained'>, number> = { safe: 0, unknown: 1, caution: 2, breaking: 3 }
const THRESHOLD: Record<FailOn, number> = { unknown: 1, caution: 2, breaking: 3, never: Infinity }

export function parseFailOn(value: string | undefined, name = '--fail-on'): FailOn {
  const v = (value ?? 'breaking').trim().toLowerCase() || 'breaking'
  if (!(FAIL_ON as readonly string[]).includes(v))
    throw new Error(`${name} "${value}" is not one of ${FAIL_ON.join(', ')}`)
  return v as FailOn
}

/** Does a class reach the `failOn` level? */
export function reaches(c: Exclude<Classification, 'unmaintained'>, failOn: FailOn): boolean {
  return LEVEL[c] >= THRESHOLD[failOn]
}

export interface Worst {
  /** The class the gate counts: safe, unknown, caution or breaking. */
  safeToUpdate: Exclude<Classification, 'unmaintained'>
  /** The release that carries it, when one does. */
  version: string | null
  /** The deciding words: the release's quoted line (or evidence), else the verdict's rationale. */
  words: string
  /** A breaking release let through by `allowUrgent` (every breaking release crossed is an urgent fix). */
  urgentAllowed: boolean
  /** Counted as breaking: the update changes the major version and the catalog cannot judge it. */
  unjudgedMajor: boolean
}

/** What the gate lets through: `allowUrgent` (urgent fixes as caution), `allowUnjudgedMajor` (as unknown). */
export interface GateOptions {
  allowUrgent?: boolean
  allowUnjudgedMajor?: boolean
}

const norm = (c: Classification): Exclude<Classification, 'unmaintained'> => (c === 'unmaintained' ? 'caution' : c)

/**
 * The worst of an app's update: the verdict's class, or the most severe release crossed when that is
 * worse (an update that is unknown overall but crosses a breaking release is breaking for the gate,
 * and says which release and why). With `allowUrgent`, a breaking path of urgent fixes only counts as caution.
 */
export function worstOf(a: CheckedApp, opts: GateOptions = {}): Worst {
  const verdict = norm(a.safeToUpdate)
  const d = a.decidedBy
  const crossed = d ? norm(d.safeToUpdate) : 'safe'
  const byRelease = d !== null && LEVEL[crossed] >= LEVEL[verdict] && crossed !== 'safe'
  let cls = byRelease ? crossed : verdict
  const urgentAllowed = cls === 'breaking' && a.urgentOnly && opts.allowUrgent === true
  if (urgentAllowed) cls = 'caution'
  if (a.safeToUpdate === 'unknown' && a.changesMajor && cls !== 'breaking' && opts.allowUnjudgedMajor !== true)
    return {
      safeToUpdate: 'breaking',
      version: null,
      words: `The update changes the major version and the catalog cannot judge it, so it counts as breaking (allow-unjudged-major lets it pass as unknown). ${a.rationale}`,
      urgentAllowed: false,
      unjudgedMajor: true
    }
  const words = byRelease ? (d.quote ?? d.evidence ?? d.rationale) : a.rationale
  return { safeToUpdate: cls, version: byRelease ? d.version : null, words, urgentAllowed, unjudgedMajor: false }
}

/** The most severe class the gate counts over every judged app; null when none was judged. */
export function worstOverall(
  result: CheckResult,
  opts: GateOptions = {}
): Exclude<Classification, 'unmaintained'> | null {
  let worst: Exclude<Classification, 'unmaintained'> | null = null
  for (const a of result.apps) {
    const c = worstOf(a, opts).safeToUpdate
    if (worst === null || LEVEL[c] > LEVEL[worst]) worst = c
  }
  return worst
}

/** 1 when any app's worst class (or, for `unknown`, an image the catalog does not know) reaches `failOn`. */
export function gateStatus(result: CheckResult, opts: GateOptions & { failOn?: FailOn } = {}): 0 | 1 {
  const threshold = THRESHOLD[opts.failOn ?? 'breaking']
  if (result.apps.some((a) => LEVEL[worstOf(a, opts).safeToUpdate] >= threshold)) return 1
  // A service built from source has no image to update; any other untracked image is unknown.
  if (result.untracked.some((u) => u.image !== null) && LEVEL.unknown >= threshold) return 1
  return 0
}
