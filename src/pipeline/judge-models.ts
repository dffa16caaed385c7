// The model judge's step of a build: which releases a language model is asked about, in what order, and
// with what budget. A release is asked once: an answer kept in the previous history for the same model,
// prompt and notes is reused without a call. The rest are asked each app's latest release first (it decides the
// record, and a later run reads it again), the most recently published first across apps; then the other releases
// read, again newest first; until the run's budget of calls or the service runs out. Those left are judged by the
// rules; an app's latest is asked again on a later run (`pending`), an older one stays the rules'. A release a later
// model of a list judged is asked of the first again, an older one while a run reads its notes (againFor). The answer is
// checked (classify/model-answer.ts), retried once with what was wrong, else the next model of a list or the rules
// judge that release; the history records that model's answers as unusable, and it is not asked about that release
// again until the prompt or the notes change (else it would cost two calls a run, for ever, and stay pending).
import {
  checkAnswer,
  notesForModel,
  PROMPT_VERSION,
  SYSTEM_PROMPT,
  userPrompt,
  type JudgeAnswer
} from '../classify/index.js'
import { releaseInjection } from '../classify/injection.js'
import { cleanNotes, isBlankNotes, plainNotes } from '../classify/text.js'
import { chatCompletion, ModelsError, type ChatMessage, type ModelsClientOptions } from '../upstream/models.js'
import type { HistoryEntry } from '../schema/index.js'
import type { Logger, ReleaseNotes } from '../util/types.js'
import { redact } from '../util/redact.js'
import { sameVersion } from '../util/versions.js'
import type { AppFacts } from './facts.js'
import { notesDigest } from './history.js'
import { readPreviousHistory } from './previous.js'

/** The seed of every request: the same notes give the same answer as far as the service allows. */
export const MODEL_SEED = 49

/** Consecutive failed requests (not counting a refusal or a rate limit, which stop at once) before no more are sent. */
const MAX_FAILURES_IN_A_ROW = 3

export type ModelAnswerFor = JudgeAnswer & { cut: boolean }

export interface ModelAskerOptions extends Omit<ModelsClientOptions, 'deadlineAt'> {
  model: string
  /** Requests this run may make, retries included. */
  maxCalls: number
  /** Seconds model calls may take in all, counted from the first call. */
  deadlineSeconds: number
  /** Each response as received, for a recording of the answers (bench/classifier.mjs --record). */
  record?: (response: unknown) => void
  /** When model calls must stop, shared by the models of a list: set by the first call of any of them. */
  deadline?: { at: number | null }
  /** The model asked when this one stops (a list's next), for the warning; none: the rules. */
  next?: string
}

/** Why an asker stopped: only some of them leave the next model of a list anything to try. */
export type StopKind = 'budget' | 'rate-limited' | 'refused' | 'deadline' | 'failures'

/** Asks one model about one release at a time, within the run's budget. */
export interface ModelAsker {
  /** `model:<id>` */
  readonly judge: string
  readonly model: string
  /** Requests made so far. */
  readonly calls: number
  /** The models asked, in order (one, or a list: see modelList). */
  readonly models: readonly string[]
  /** Why no more requests are sent this run (budget, rate limit, refusal, deadline), or null. */
  readonly stopped: string | null
  readonly stopKind: StopKind | null
  /** The checked answer, or null when the rules judge this release (the reason is logged once per kind). */
  ask(app: string, version: string, notes: string, opts?: AskOptions): Promise<ModelAnswerFor | null>
}

export interface AskOptions {
  /** Ask only the models before this position of the list (a release a later model judged, asked again). */
  before?: number
  /** Models not to ask: their answers for these notes and this prompt could not be used on an earlier run. */
  skip?: ReadonlySet<string>
  /** Told of each model whose answer, and the one retry, could not be used (malformed, or quoting no line). */
  unusable?: (model: string) => void
}

export function modelAsker(opts: ModelAskerOptions, log: Logger): ModelAsker {
  const now = opts.now ?? Date.now
  const deadline = opts.deadline ?? { at: null }
  let calls = 0
  let stopped: string | null = null
  let stopKind: StopKind | null = null
  let failures = 0
  const stop = (why: string, kind: StopKind) => {
    if (stopped) return
    stopped = why
    stopKind = kind
    // A deadline, or failures in a row (the service, not this model), stop the whole list (see modelList).
    const then =
      kind === 'deadline' || kind === 'failures'
        ? `no model${opts.next ? ' of the list' : ''} is asked again and the releases left are judged by the rules`
        : `the releases left are ${opts.next ? `asked of ${opts.next}` : 'judged by the rules'}`
    log.warning(`model judge ${opts.model}: ${why}; ${then} this run`)
  }
  const call = async (messages: ChatMessage[]): Promise<string | null | undefined> => {
    if (stopped) return undefined
    if (calls >= opts.maxCalls) {
      stop(`the run's budget of ${opts.maxCalls} model calls is spent`, 'budget')
      return undefined
    }
    deadline.at ??= now() + opts.deadlineSeconds * 1000
    const deadlineAt = deadline.at
    calls++
    try {
      const answer = await chatCompletion(
        {
          model: opts.model,
          messages,
          temperature: 0,
          seed: MODEL_SEED,
          max_tokens: 400,
          response_format: { type: 'json_object' }
        },
        { ...opts, deadlineAt }
      )
      failures = 0
      // A recording is a file too: an endpoint that echoes the Authorization header must not put the token in it.
      if (opts.record) opts.record(JSON.parse(redact(JSON.stringify(answer.response), [opts.token])))
      return answer.content
    } catch (e) {
      if (!(e instanceof ModelsError)) throw e
      if (e.final) stop(e.message, e.fault as StopKind)
      else if (++failures >= MAX_FAILURES_IN_A_ROW)
        stop(`${failures} requests in a row failed, the last: ${e.message}`, 'failures')
      else log.info(`model judge ${opts.model}: ${e.message}`)
      return undefined
    }
  }
  return {
    judge: `model:${opts.model}`,
    model: opts.model,
    models: [opts.model],
    get calls() {
      return calls
    },
    get stopped() {
      return stopped
    },
    get stopKind() {
      return stopKind
    },
    async ask(app, version, notes, { before, skip, unusable } = {}) {
      if ((before !== undefined && before < 1) || skip?.has(opts.model)) return null
      const sent = notesForModel(notes)
      const messages: ChatMessage[] = [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: userPrompt(app, version, sent) }
      ]
      const first = await call(messages)
      if (first === undefined) return null
      let checked = checkAnswer(first, sent.text)
      if ('error' in checked) {
        // Once more, told what was wrong; the answer refused goes back as the model's own turn, bounded.
        messages.push(
          { role: 'assistant', content: (first ?? '').slice(0, 2000) },
          {
            role: 'user',
            content: `That answer cannot be used: ${checked.error}. Answer again with one JSON object as asked, quoting the deciding line exactly as the notes write it.`
          }
        )
        const second = await call(messages)
        if (second === undefined) return null
        checked = checkAnswer(second, sent.text)
      }
      if ('error' in checked) {
        // Recorded in the release's history (judgeByModel), so that this model is not asked again, twice a run, for
        // an answer it has shown it cannot give for these notes and this prompt.
        log.info(
          `model judge ${opts.model}: ${app} ${version.slice(0, 64)}: ${checked.error}; not asked about it again until the prompt or the notes change`
        )
        unusable?.(opts.model)
        return null
      }
      // What the model wrote is published (releases.json, the page): an endpoint that echoes the Authorization
      // header, or the token, must not get it there. Logs are redacted; this text is written to files.
      const { reason, line } = checked.answer
      return {
        ...checked.answer,
        reason: redact(reason, [opts.token]),
        line: redact(line, [opts.token]),
        id: opts.model,
        prompt: PROMPT_VERSION,
        cut: sent.cut
      }
    }
  }
}

/**
 * An ordered list of models as one asker: each release goes to the first model that can still be asked. A model
 * whose daily limit (a 429 not worth waiting for), budget or access is spent this run passes the rest to the next;
 * a deadline, or requests failing in a row (the service, not one model), stops the list; the rules judge what is
 * left. The judge it names is the first model's: the one a release judged by another is asked of again later.
 */
export function modelList(askers: readonly ModelAsker[]): ModelAsker {
  const first = askers[0]
  if (!first) throw new Error('a model list needs at least one model')
  if (askers.length === 1) return first
  const over = () => askers.find((a) => a.stopKind === 'deadline' || a.stopKind === 'failures') ?? null
  return {
    judge: first.judge,
    model: first.model,
    models: askers.map((a) => a.model),
    get calls() {
      return askers.reduce((n, a) => n + a.calls, 0)
    },
    get stopped() {
      return over()?.stopped ?? (askers.every((a) => a.stopped) ? askers.at(-1)!.stopped : null)
    },
    get stopKind() {
      return over()?.stopKind ?? (askers.every((a) => a.stopped) ? askers.at(-1)!.stopKind : null)
    },
    async ask(app, version, notes, { before = askers.length, skip, unusable } = {}) {
      for (const a of askers.slice(0, before)) {
        if (over()) return null
        if (a.stopped || skip?.has(a.model)) continue
        const told = { unusable: false }
        const answer = await a.ask(app, version, notes, {
          unusable: (m) => {
            told.unusable = true
            unusable?.(m)
          }
        })
        if (answer) return answer
        // A model that stopped during this release, or whose answers could not be used, leaves it to the next; one
        // whose request failed (not yet three in a row) leaves it to the rules this run, as a single model does.
        if (!a.stopped && !told.unusable) return null
      }
      return null
    }
  }
}

/** What the judge step hands to the records: answers by app and version, and what it did. */
export interface ModelJudging {
  /** `rules`, or `model:<id>`: the judge this run was set to use. */
  judge: string
  answers: Map<string, Map<string, ModelAnswerFor>>
  /**
   * By app and version, the models of the list whose answers for the release's notes and this prompt could not be
   * used (this run or one before): kept in its history entry (`unusable`), and not asked about it again.
   */
  unusable: Map<string, Map<string, string[]>>
  /** Apps with a release that got an answer, or a model's unusable answers, this run: their history changes. */
  changed: Set<string>
  calls: number
  /** The releases the model was to judge this run (not answered before), by who judged them: the model, or the rules. */
  verdicts: Record<string, number>
  /** Apps with a release the model was to judge but did not (budget, service): asked again on a later run. */
  pending: Set<string>
  /**
   * Releases a later run asks a model about: each app's latest release read that has no answer from the first model
   * (the budget or the service ran out), and each older one a later model of the list judged; not one whose answers
   * from the models it would go to could not be used. A first run over many histories catches up over days; this
   * counts down.
   */
  pendingReleases: number
  /** Releases whose answers from a model could not be used this run (status.json's judging.unusable). */
  unusableReleases: number
}

/**
 * The versions of a history to read again for the first model of a list (FactsTarget.again): those a later model of
 * the list judged, under this prompt, that a model before it can still be asked about (its answers for them not
 * recorded as unusable). With one model there are none.
 */
export function againFor(models: readonly string[], history: readonly HistoryEntry[]): string[] {
  if (models.length < 2) return []
  return history
    .filter((e) => {
      const by = e.model && e.model.prompt === PROMPT_VERSION ? models.indexOf(e.model.id) : -1
      if (by < 1) return false
      const marks = e.unusable?.prompt === PROMPT_VERSION ? e.unusable.models : []
      return models.slice(0, by).some((m) => !marks.includes(m))
    })
    .map((e) => e.version)
}

/** The releases a record of this app judges (as pipeline/assess.ts does): the crossed ones or the latest, and earlier ones. */
function releasesOf(app: AppFacts): ReleaseNotes[] {
  const facts = app.facts
  // An archived app is unmaintained whatever its notes say: its history is the rules', and no budget goes to it.
  if (!facts || facts.movedTo || facts.notes === null || facts.archived) return []
  const latest = facts.crossed.length > 0 ? facts.crossed : [{ version: facts.version, notes: facts.notes }]
  return [...(facts.again ?? []), ...(facts.earlier ?? []), ...latest]
}

/**
 * Step 5b of a build: a model's answers for the releases this run judges, reused from the previous history or
 * asked now (latest releases first, the most recently published first), while `asker` has budget. Without an asker
 * every release is the rules'.
 */
export async function judgeByModel(
  apps: readonly AppFacts[],
  previousDir: string | undefined,
  asker: ModelAsker | null
): Promise<ModelJudging> {
  const answers = new Map<string, Map<string, ModelAnswerFor>>()
  const unusable = new Map<string, Map<string, string[]>>()
  const changed = new Set<string>()
  if (!asker)
    return {
      judge: 'rules',
      answers,
      unusable,
      changed,
      calls: 0,
      verdicts: {},
      pending: new Set(),
      pendingReleases: 0,
      unusableReleases: 0
    }
  const wanted: {
    slug: string
    name: string
    release: ReleaseNotes
    rank: number
    order: number
    date: string
    /** Where in the list the model that judged it before stands (asked again of those before it); none: not judged. */
    by?: number
    /** The models whose answers for these notes could not be used: not asked. */
    skip: Set<string>
  }[] = []
  const models = asker.models
  /** The models a run would still ask about a release: those before the one that judged it, less the unusable. */
  const askable = (by: number, skip: ReadonlySet<string>) => models.slice(0, by).filter((m) => !skip.has(m))
  for (const [order, app] of apps.entries()) {
    const releases = releasesOf(app)
    if (releases.length === 0) continue
    const mine = new Map<string, ModelAnswerFor>()
    const marks = new Map<string, string[]>()
    const read = readPreviousHistory(previousDir, app.slug)
    const before = 'history' in read ? read.history.releases : []
    answers.set(app.slug, mine)
    unusable.set(app.slug, marks)
    for (const [i, release] of releases.entries()) {
      // Notes or a name written to the judge are the rules' alone (classify/injection.ts): no model reads them.
      if (releaseInjection(release.version, plainNotes(release.notes).text) !== null) continue
      const digest = notesDigest(release.notes)
      const same = (e: (typeof before)[number]) => sameVersion(e.version, release.version, app.entry.tagPrefix)
      const kept = before.find(
        (e) =>
          e.model !== null &&
          models.includes(e.model.id) &&
          e.model.prompt === PROMPT_VERSION &&
          e.model.notes === digest &&
          same(e)
      )?.model
      // Answers that could not be used count for the same notes and prompt only: new notes or a new prompt ask again.
      const was = before.find((e) => e.unusable && same(e))?.unusable
      const skip = new Set(
        was && was.prompt === PROMPT_VERSION && was.notes === digest ? was.models.filter((m) => models.includes(m)) : []
      )
      if (skip.size > 0)
        marks.set(
          release.version,
          models.filter((m) => skip.has(m))
        )
      const rank = releases.length - 1 - i
      // The latest's date may be the facts' alone (a release read without its crossed list).
      const date = release.date ?? (rank === 0 ? app.facts?.date : null) ?? ''
      const want = { slug: app.slug, name: app.entry.name, release, rank, order, date, skip }
      if (kept) {
        const { class: cls, breakingKind } = kept
        const cut = notesForModel(release.notes).cut
        // An answer kept from before this redaction (or from a run with another token) loses anything token-shaped.
        const [line, reason] = [redact(kept.line), redact(kept.reason)]
        mine.set(release.version, { class: cls, breakingKind, line, reason, id: kept.id, prompt: kept.prompt, cut })
        // Judged by a later model of the list: asked again of the first (or the next before it that can answer),
        // after the releases no model judged.
        const by = models.indexOf(kept.id)
        if (askable(by, skip).length > 0) wanted.push({ ...want, by })
      } else if (!isBlankNotes(cleanNotes(release.notes).text) && askable(models.length, skip).length > 0) {
        // Blank notes are the rules' (unknown): nothing for a model to read. Nor is a release every model of the
        // list answered unusably: the rules' verdict stands until the prompt or the notes change.
        wanted.push(want)
      }
    }
  }
  // Releases no model judged before those a later model of the list did; each app's latest first, then the rest;
  // within each, the most recently published first (a release of yesterday before one of last year, whatever the
  // app), undated last; then the newer of an app's, then catalog order.
  const tier = (w: (typeof wanted)[number]) => (w.by === undefined ? 0 : 2) + (w.rank === 0 ? 0 : 1)
  wanted.sort(
    (a, b) =>
      tier(a) - tier(b) || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || a.rank - b.rank || a.order - b.order
  )
  const verdicts: Record<string, number> = {}
  /** Releases a later run asks a model about again (see pendingReleases). */
  const left: typeof wanted = []
  let unusableReleases = 0
  for (const w of wanted) {
    const fresh: string[] = []
    const answer = !asker.stopped
      ? await asker.ask(w.name, w.release.version, w.release.notes, {
          ...(w.by !== undefined ? { before: w.by } : {}),
          skip: w.skip,
          unusable: (m) => fresh.push(m)
        })
      : null
    if (answer) {
      answers.get(w.slug)!.set(w.release.version, answer)
      verdicts[`model:${answer.id}`] = (verdicts[`model:${answer.id}`] ?? 0) + 1
    } else if (w.by === undefined) verdicts.rules = (verdicts.rules ?? 0) + 1
    if (fresh.length > 0) {
      for (const m of fresh) w.skip.add(m)
      // In the list's order, so that the history entry does not depend on the order they were asked in.
      unusable.get(w.slug)!.set(
        w.release.version,
        models.filter((m) => w.skip.has(m))
      )
      unusableReleases++
    }
    if (answer || fresh.length > 0) changed.add(w.slug)
    // Still asked on a later run: a model before the one whose answer stands (or any, with none) can still answer.
    // An app's latest is pending then, and so is an older one a later model judged; an older one the rules judged
    // stays theirs.
    const by = answer ? models.indexOf(answer.id) : (w.by ?? models.length)
    if (askable(by, w.skip).length > 0) left.push({ ...w, by })
  }
  // Counted over the releases the model was to be asked about, so that the figures do not depend on which apps an
  // offline build carried over unread (a reused answer counts nowhere: it was counted when it was given).
  const pending = new Set(left.map((w) => w.slug))
  // An older release a later model judged is read again for the first (FactsTarget.again) while a refresh holds it.
  const pendingReleases = left.filter((w) => w.rank === 0 || w.by! < models.length).length
  return {
    judge: asker.judge,
    answers,
    unusable,
    changed,
    calls: asker.calls,
    verdicts,
    pending,
    pendingReleases,
    unusableReleases
  }
}
