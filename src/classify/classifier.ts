// Every release an admin crosses is judged, the most severe wins, and the rationale names
// the release, the words that weighed most and, in plain words, the evidence that decided.
import { createHash } from 'node:crypto'
import { LIMITS, type Classification } from '../schema/index.js'
import type { ReleaseNotes, Verdict } from '../util/types.js'
import { judgeRelease, quoteOf, type BreakingKind, type ReleaseJudgement } from './judge.js'
import type { Model } from './model.js'
import { floorKindsOf } from './cues.js'
import { applyFloor, FLOOR_KINDS } from './floor.js'
import type { ModelAnswer } from './model-answer.js'
import { MODEL, MODEL_ID } from './trained.js'
import { EMPTY_SUMMARY, summariseUnits } from './summary.js'
import { namesSafe, releaseInjection } from './injection.js'
import { clip, plainNotes, safeLabel } from './text.js'
import { SEVERITY } from './upgrade.js'

export interface Judgement extends Verdict {
  /** Name of the deciding evidence (a detector of ./detectors.ts, a heading kind or an outcome), null only when nothing was judged. */
  rule: string | null
  /** The release whose notes decided, null when no release did (archived, no releases). */
  decidedBy: string | null
  /** Why a breaking update is breaking: an urgent fix to apply now, or a required step; null unless breaking. */
  breakingKind: BreakingKind | null
  /** Some release crossed announces a security fix. */
  security: boolean
  /** Each release judged on its own, oldest first (empty for an archived repository: nothing was read). */
  releases: ReleaseVerdict[]
}

/** One release's own verdict, for the per-release history. */
export interface ReleaseVerdict {
  /** The label as given (bounded). */
  version: string
  safeToUpdate: Classification
  /** One sentence: the class, the deciding words and what they mean. */
  rationale: string
  /** What the deciding evidence means, in plain words. */
  evidence: string
  /** The deciding words, null when no line decided. */
  quote: string | null
  security: boolean
  breakingKind: BreakingKind | null
  /** Who judged: `rules`, or `model:<id>` (with the rules' floor under it). */
  judge: string
  /** The rules' own class for this release. */
  rules: Classification
  /** The model's answer, when a model judged. */
  model: JudgeAnswer | null
  /** The notes hold a line written to the judge (injection.ts): the rules alone judged, any answer set aside. */
  injection?: true
}

/** A model's checked answer for one release, and which model and prompt gave it. */
export interface JudgeAnswer extends ModelAnswer {
  /** The model id, e.g. `openai/gpt-4.1-mini`. */
  id: string
  /** PROMPT_VERSION of the prompt it answered. */
  prompt: number
}

/** One release judged: by the rules alone, or by a model's answer with the rules' floor under it. */
interface Decided {
  safeToUpdate: Classification
  breakingKind: BreakingKind | null
  rule: string
  /** The sentence of the rationale, without its final stop. */
  because: string
  evidence: string
  quote: string | null
  judge: string
  model: JudgeAnswer | null
}

function byRules(j: ReleaseJudgement, version: string): Decided {
  return {
    safeToUpdate: j.safeToUpdate,
    breakingKind: j.breakingKind,
    rule: j.rule,
    because: because(j, version),
    evidence: j.describes,
    quote: j.unit && j.safeToUpdate !== 'unknown' ? quoteOf(j.unit, j.at) : null,
    judge: 'rules',
    model: null
  }
}

/** Notes that address the judge: the rules' verdict, saying why no model's answer counts. */
function byRulesAlone(j: ReleaseJudgement, version: string): Decided {
  const d = byRules(j, version)
  return {
    ...d,
    because: `${d.because} (judged by the rules alone: a line of the notes or the release's name addresses the reviewer or asks for a class)`
  }
}

/**
 * A model's answer with the rules' floor under it (floor.ts: applyFloor). Where the floor holds, the rules'
 * verdict and reason stand, and the rationale says what the model read.
 */
function byModel(j: ReleaseJudgement, a: JudgeAnswer, version: string, promptCut: boolean, notes: string): Decided {
  const judge = `model:${a.id}`
  const kinds = floorKindsOf(j.floor.evidence)
  const cut = j.cut || promptCut
  const floor = applyFloor(a, {
    safeToUpdate: j.safeToUpdate,
    kinds,
    cut,
    // Read only where it can matter: a safe answer.
    namesSafe: a.class === 'safe' && namesSafe(notes)
  })
  const quote = a.line === '' ? null : a.line
  if (!floor.floored) {
    const kind = a.breakingKind ? ` (${KIND_WORDS[a.breakingKind]})` : ''
    return {
      safeToUpdate: a.class,
      breakingKind: a.class === 'breaking' ? a.breakingKind : null,
      rule: judge,
      because: `${CLASS_WORD[a.class]}${kind} in ${version}${quote ? `: "${quote}"` : ''}: ${a.reason.replace(/[.\s]+$/, '')}`,
      evidence: a.reason,
      quote,
      judge,
      model: a
    }
  }
  const rules = byRules(j, version)
  const cls = floor.safeToUpdate
  const fired = kinds.filter((k) => FLOOR_KINDS.includes(k))
  // Floored with no kept kind and the notes read whole: only the notes' own "safe" can have done it (applyFloor).
  const echoed = fired.length === 0 && !cut
  const why = fired.some((k) => k !== 'advisory')
    ? 'the rules find a line that calls for action or a breaking change'
    : fired.length > 0
      ? 'the rules find a line that names a security advisory'
      : cut
        ? 'the notes are longer than the model read'
        : 'the notes themselves say "safe", and the rules find a change to read first'
  const lead =
    cls === j.safeToUpdate
      ? rules.because
      : `${CLASS_WORD[cls]} in ${version}: ${why}${rules.quote ? ` ("${rules.quote}")` : ''}`
  return {
    ...rules,
    safeToUpdate: cls,
    breakingKind: cls === 'breaking' ? (j.breakingKind ?? 'required') : null,
    // A model's unknown gives way to the rules' own verdict, which may be the less cautious one.
    because: `${lead} (the model read it as ${a.class}${echoed ? ', a word the notes themselves use' : ''}; the ${a.class === 'unknown' ? "rules'" : 'more cautious'} verdict stands)`,
    judge,
    model: a
  }
}

function releaseVerdict(raw: string, j: ReleaseJudgement, d: Decided, injection: boolean): ReleaseVerdict {
  return {
    version: raw,
    safeToUpdate: d.safeToUpdate,
    rationale: clip(`${d.because}.`, LIMITS.rationale),
    evidence: clip(d.evidence, LIMITS.reason),
    quote: d.quote === null ? null : clip(d.quote, LIMITS.reason),
    security: j.security,
    breakingKind: d.breakingKind,
    judge: d.judge,
    rules: j.safeToUpdate,
    model: d.model,
    ...(injection ? { injection: true as const } : {})
  }
}

/** Releases read per update; an admin crossing more is told only the newest were read. */
export const MAX_RELEASES = 200

const CLASS_WORD: Record<Classification, string> = {
  safe: 'Safe',
  caution: 'Caution',
  breaking: 'Breaking',
  unknown: 'Unknown',
  unmaintained: 'Unmaintained'
}
const KIND_WORDS: Record<BreakingKind, string> = {
  urgent: 'an urgent fix to apply now',
  required: 'a required step'
}

function because(j: ReleaseJudgement, version: string): string {
  const cls = CLASS_WORD[j.safeToUpdate]
  const kind = j.breakingKind ? ` (${KIND_WORDS[j.breakingKind]})` : ''
  if (j.unit && j.safeToUpdate !== 'unknown') {
    // A heading's own colon ("### Bug fixes:") is not part of its name: 'under "Bug fixes"', as the summary says.
    const section = j.unit.section ? `, under "${clip(j.unit.section.title.replace(/\s*:$/, ''), 60)}"` : ''
    const quote = `"${quoteOf(j.unit, j.at)}"`
    if (j.safeToUpdate === 'safe')
      return `Safe in ${version}: no line weighs toward caution; the closest, ${quote}${section}, ${j.describes}`
    if (j.diffuse)
      return `Caution in ${version}: no line names a change to read first, but the notes as a whole weigh toward caution; the strongest, ${quote}${section}, ${j.describes}`
    return `${cls}${kind} in ${version}${section}: ${quote}: the line ${j.describes}`
  }
  return `${cls}${kind} in ${version}: ${j.describes}`
}

export interface ClassifyInput {
  /** Oldest first; the last is the release published. */
  releases: ReleaseNotes[]
  archived?: boolean
  /**
   * A model's checked answers, by release version as given in `releases`; a release without one is judged by the
   * rules. `cut` lists the versions whose notes were longer than the model read.
   */
  answers?: ReadonlyMap<string, JudgeAnswer & { cut?: boolean }>
}

/** Classify with a given model (the tests and the cross-validation by app pass their own). */
export function classifyWith(model: Model, input: ClassifyInput): Judgement {
  const all = Array.isArray(input.releases) ? input.releases : []
  if (input.archived) {
    // The rationale says it is archived; the summary says what the last release brought, or nothing.
    const last = all[all.length - 1]
    const summary = last ? summariseUnits(judgeRelease(last.notes, String(last.version), model).units) : EMPTY_SUMMARY
    return {
      safeToUpdate: 'unmaintained',
      rationale:
        'Unmaintained (archived): the upstream repository is archived (read-only), so no further releases or fixes will come.',
      changelogSummary: summary === EMPTY_SUMMARY ? null : `The last release: ${summary}`,
      rule: 'archived',
      decidedBy: null,
      breakingKind: null,
      security: false,
      releases: []
    }
  }
  if (all.length === 0) {
    return {
      safeToUpdate: 'unknown',
      rationale: 'Unknown (no releases): no release notes are known for this update.',
      changelogSummary: EMPTY_SUMMARY,
      rule: 'no-releases',
      decidedBy: null,
      breakingKind: null,
      security: false,
      releases: []
    }
  }
  const releases = all.slice(-MAX_RELEASES)
  const judged = releases.map((r) => {
    const version = safeLabel(String(r.version))
    // Cleaned once: the parser reads them formatted, the injection check as a model reads them.
    const plain = plainNotes(r.notes)
    const j = judgeRelease(r.notes, String(r.version), model, plain)
    // Notes (or a name) that address the judge or ask for a class are the rules' alone, whatever a model answered.
    const injection = releaseInjection(String(r.version), plain.text) !== null
    const a = injection ? undefined : input.answers?.get(r.version)
    return {
      raw: String(r.version).slice(0, LIMITS.version),
      version,
      j,
      injection,
      d: a
        ? byModel(j, a, version, a.cut ?? false, plain.text)
        : injection
          ? byRulesAlone(j, version)
          : byRules(j, version)
    }
  })
  // Newest first, so that among equally severe releases the newest one decides.
  let decided = judged[judged.length - 1]!
  for (let i = judged.length - 2; i >= 0; i--) {
    if (SEVERITY[judged[i]!.d.safeToUpdate] > SEVERITY[decided.d.safeToUpdate]) decided = judged[i]!
  }
  const newest = judged[judged.length - 1]!
  let rationale = `${decided.d.because}.`
  if (all.length > 1) {
    const skipped = all.length - releases.length
    rationale += ` Judged ${all.length} releases from ${judged[0]!.version} to ${newest.version}${skipped > 0 ? ` (only the newest ${releases.length} were read)` : ''}; the most severe decides: ${decided.version}.`
  }
  const security = judged.some((r) => r.j.security)
  if (security && decided.d.safeToUpdate !== 'breaking') rationale += ' It includes a security fix.'
  return {
    safeToUpdate: decided.d.safeToUpdate,
    rationale: clip(rationale, LIMITS.rationale),
    changelogSummary: summariseUnits(newest.j.units, { releasesSpanned: all.length }),
    rule: decided.d.rule,
    decidedBy: decided.raw,
    breakingKind: decided.d.breakingKind,
    security,
    releases: judged.map((r) => releaseVerdict(r.raw, r.j, r.d, r.injection))
  }
}

/**
 * The revision of the code that turns notes and a model into a verdict, its rationale and its summary. Bump
 * it with any change to what a release's judgement says (classes, rationale, quote, summary): verdicts a
 * build finds in the previous snapshot are reused while CLASSIFIER_DIGEST holds, so an unbumped change would
 * leave yesterday's words published. __tests__/classify/revision.test.ts holds it to the judgements of the
 * real notes.
 */
export const JUDGING_REVISION = 66

/**
 * The classifier's identity (8 hex digits): the committed model and the judging code's revision. A
 * verdict computed by another model or another revision is judged again.
 */
export const CLASSIFIER_DIGEST = createHash('sha256')
  .update(`${MODEL_ID}\n${JUDGING_REVISION}`)
  .digest('hex')
  .slice(0, 8)

export function classifyReleases(input: ClassifyInput): Judgement {
  return classifyWith(MODEL, input)
}
