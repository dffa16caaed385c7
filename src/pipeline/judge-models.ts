// The model judge's step of a build: which releases a language model is asked about, in what order, and
// with what budget. A release is asked once: an answer kept in the previous history for the same model,
// prompt and notes is reused without a call. The rest are asked each app's latest release first (it decides the
// record, and a later run reads it again), the most recently published first across apps; then the other releases
// read, again newest first; until the run's budget of calls or the service runs out. Those left are judged by the
// rules; an app's latest is asked again on a later run (`pending`), an older one stays the rules'. The answer is
// checked (classify/model-answer.ts), retried once with what was wrong, else the rules judge that release.
import {
  checkAnswer,
  notesForModel,
  PROMPT_VERSION,
  SYSTEM_PROMPT,
  userPrompt,
  type JudgeAnswer
} from '../classify/index.js'
import { cleanNotes, isBlankNotes } from '../classify/text.js'
import { chatCompletion, ModelsError, type ChatMessage, type ModelsClientOptions } from '../upstream/models.js'
import type { Logger, ReleaseNotes } from '../util/types.js'
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
}

/** Asks one model about one release at a time, within the run's budget. */
export interface ModelAsker {
  /** `model:<id>` */
  readonly judge: string
  readonly model: string
  /** Requests made so far. */
  readonly calls: number
  /** Why no more requests are sent this run (budget, rate limit, refusal, deadline), or null. */
  readonly stopped: string | null
  /** The checked answer, or null when the rules judge this release (the reason is logged once per kind). */
  ask(app: string, version: string, notes: string): Promise<ModelAnswerFor | null>
}

export function modelAsker(opts: ModelAskerOptions, log: Logger): ModelAsker {
  const now = opts.now ?? Date.now
  let deadlineAt: number | null = null
  let calls = 0
  let stopped: string | null = null
  let failures = 0
  const stop = (why: string) => {
    if (stopped) return
    stopped = why
    log.warning(`model judge ${opts.model}: ${why}; the releases left are judged by the rules this run`)
  }
  const call = async (messages: ChatMessage[]): Promise<string | null | undefined> => {
    if (stopped) return undefined
    if (calls >= opts.maxCalls) {
      stop(`the run's budget of ${opts.maxCalls} model calls is spent`)
      return undefined
    }
    deadlineAt ??= now() + opts.deadlineSeconds * 1000
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
      opts.record?.(answer.response)
      return answer.content
    } catch (e) {
      if (!(e instanceof ModelsError)) throw e
      if (e.final) stop(e.message)
      else if (++failures >= MAX_FAILURES_IN_A_ROW) stop(`${failures} requests in a row failed, the last: ${e.message}`)
      else log.info(`model judge ${opts.model}: ${e.message}`)
      return undefined
    }
  }
  return {
    judge: `model:${opts.model}`,
    model: opts.model,
    get calls() {
      return calls
    },
    get stopped() {
      return stopped
    },
    async ask(app, version, notes) {
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
        log.info(`model judge ${opts.model}: ${app} ${version.slice(0, 64)}: ${checked.error}; judged by the rules`)
        return null
      }
      return { ...checked.answer, id: opts.model, prompt: PROMPT_VERSION, cut: sent.cut }
    }
  }
}

/** What the judge step hands to the records: answers by app and version, and what it did. */
export interface ModelJudging {
  /** `rules`, or `model:<id>`: the judge this run was set to use. */
  judge: string
  answers: Map<string, Map<string, ModelAnswerFor>>
  calls: number
  /** The releases the model was to judge this run (not answered before), by who judged them: the model, or the rules. */
  verdicts: Record<string, number>
  /** Apps with a release the model was to judge but did not (budget, service): asked again on a later run. */
  pending: Set<string>
  /**
   * Releases a later run asks the model about: each app's latest release read that has no model answer (the
   * budget or the service ran out). A first run over many histories catches up over days; this counts down.
   */
  pendingReleases: number
}

/** The releases a record of this app judges (as pipeline/assess.ts does): the crossed ones or the latest, and earlier ones. */
function releasesOf(app: AppFacts): ReleaseNotes[] {
  const facts = app.facts
  // An archived app is unmaintained whatever its notes say: its history is the rules', and no budget goes to it.
  if (!facts || facts.movedTo || facts.notes === null || facts.archived) return []
  const latest = facts.crossed.length > 0 ? facts.crossed : [{ version: facts.version, notes: facts.notes }]
  return [...(facts.earlier ?? []), ...latest]
}

/**
 * Step 5b of a build: a model's answers for the releases this run judges, reused from the previous history or
 * asked now (latest releases first, the most recently published first), while `asker` has budget. Without an asker every release is the rules'.
 */
export async function judgeByModel(
  apps: readonly AppFacts[],
  previousDir: string | undefined,
  asker: ModelAsker | null
): Promise<ModelJudging> {
  const answers = new Map<string, Map<string, ModelAnswerFor>>()
  const wanted: {
    slug: string
    name: string
    release: ReleaseNotes
    rank: number
    order: number
    date: string
  }[] = []
  for (const [order, app] of apps.entries()) {
    if (!asker) break
    const releases = releasesOf(app)
    if (releases.length === 0) continue
    const read = readPreviousHistory(previousDir, app.slug)
    const before = 'history' in read ? read.history.releases : []
    const mine = new Map<string, ModelAnswerFor>()
    answers.set(app.slug, mine)
    for (const [i, release] of releases.entries()) {
      const digest = notesDigest(release.notes)
      const kept = before.find(
        (e) =>
          e.model?.id === asker.model &&
          e.model.prompt === PROMPT_VERSION &&
          e.model.notes === digest &&
          sameVersion(e.version, release.version, app.entry.tagPrefix)
      )?.model
      if (kept) {
        const { class: cls, breakingKind, line, reason } = kept
        const cut = notesForModel(release.notes).cut
        mine.set(release.version, { class: cls, breakingKind, line, reason, id: kept.id, prompt: kept.prompt, cut })
      } else if (!isBlankNotes(cleanNotes(release.notes).text)) {
        // Blank notes are the rules' (unknown): nothing for a model to read.
        const rank = releases.length - 1 - i
        // The latest's date may be the facts' alone (a release read without its crossed list).
        const date = release.date ?? (rank === 0 ? app.facts?.date : null) ?? ''
        wanted.push({ slug: app.slug, name: app.entry.name, release, rank, order, date })
      }
    }
  }
  // Each app's latest first, then the rest; within each, the most recently published first (a release of yesterday
  // before one of last year, whatever the app), undated last; then the newer of an app's, then catalog order.
  const tier = (w: (typeof wanted)[number]) => (w.rank === 0 ? 0 : 1)
  wanted.sort(
    (a, b) =>
      tier(a) - tier(b) || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || a.rank - b.rank || a.order - b.order
  )
  for (const w of wanted) {
    if (!asker || asker.stopped) break
    const answer = await asker.ask(w.name, w.release.version, w.release.notes)
    if (!answer) continue
    answers.get(w.slug)!.set(w.release.version, answer)
  }
  // Counted over the releases the model was to be asked about, so that the figures do not depend on which apps an
  // offline build carried over unread (a reused answer counts nowhere: it was counted when it was given).
  const left = wanted.filter((w) => !answers.get(w.slug)!.has(w.release.version))
  const pending = new Set(left.map((w) => w.slug))
  const pendingReleases = left.filter((w) => w.rank === 0).length
  const verdicts: Record<string, number> = {}
  if (asker && wanted.length > left.length) verdicts[asker.judge] = wanted.length - left.length
  if (left.length > 0) verdicts.rules = left.length
  return { judge: asker?.judge ?? 'rules', answers, calls: asker?.calls ?? 0, verdicts, pending, pendingReleases }
}
