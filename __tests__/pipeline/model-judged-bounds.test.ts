// Property (fast-check) of the model-judged path (pipeline/judge-models.ts → classify/model-answer.ts → the record and
// its history): whatever a model answers for notes of any content or length (its class, kind, the line it quotes
// and its reason), every answer that passes the check gives history entries within their schema bounds, so no
// release it judged drops out of the history (issue 56, item 3), and the record is never at fault.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { AppFacts } from '../../src/pipeline/facts.js'
import { judgeByModel, type ModelAsker, type ModelAnswerFor } from '../../src/pipeline/judge-models.js'
import { appRecord, type RecordFault } from '../../src/pipeline/records.js'
import { checkAnswer, CLASSIFIER_DIGEST, notesForModel, PROMPT_VERSION } from '../../src/classify/index.js'
import { appRecordSchema, releasesDocSchema } from '../../src/schema/index.js'
import type { Logger, ReleaseNotes } from '../../src/util/types.js'
import { anyText, releasesOf } from '../support/upstream-arbitraries.js'

const MODEL = 'openai/gpt-4.1-mini'

/** How a model answers one release: a JSON object quoting one of the notes' lines (or anything), or raw text. */
interface Reply {
  json: boolean
  class: string
  kind: 'urgent' | 'required' | null
  quote: number | string
  reason: string
  raw: string
}

const reply: fc.Arbitrary<Reply> = fc.record({
  json: fc.boolean(),
  class: fc.constantFrom('safe', 'caution', 'breaking', 'unknown', 'dangerous'),
  kind: fc.constantFrom('urgent', 'required', null),
  quote: fc.oneof(fc.nat({ max: 40 }), anyText(700)),
  // Blank and word-less reasons among any text: the check refuses them (issue 56, item 3).
  reason: fc.oneof(anyText(700), fc.constantFrom('', ' ', '\t\n', '\u3000', '.', '\u200b')),
  raw: anyText(200)
})

/** The answer's text, as the service would send it for the notes sent. */
function contentOf(r: Reply, sent: string): string {
  if (!r.json) return r.raw
  const lines = sent.split('\n').filter((l) => l.trim() !== '')
  const line = typeof r.quote === 'number' ? (lines[r.quote % Math.max(1, lines.length)] ?? '') : r.quote
  const kind = r.class === 'breaking' ? (r.kind ?? 'required') : r.kind
  return JSON.stringify({ class: r.class, breakingKind: kind, line, reason: r.reason })
}

/** A model asker (the dependency judge-models.ts takes) whose service answers `replies`, checked as the real one. */
function askerOf(replies: readonly Reply[]): ModelAsker {
  let calls = 0
  return {
    judge: `model:${MODEL}`,
    model: MODEL,
    models: [MODEL],
    stopped: null,
    stopKind: null,
    get calls() {
      return calls
    },
    ask(_app, _version, notes) {
      const sent = notesForModel(notes)
      const checked = checkAnswer(contentOf(replies[calls++ % replies.length]!, sent.text), sent.text)
      const answer: ModelAnswerFor | null =
        'answer' in checked ? { ...checked.answer, id: MODEL, prompt: PROMPT_VERSION, cut: sent.cut } : null
      return Promise.resolve(answer)
    }
  }
}

function appOf(crossed: ReleaseNotes[]): AppFacts {
  const last = crossed.at(-1)!
  return {
    slug: 'tool',
    file: 'catalog/apps/tool.yml',
    entry: { name: 'Tool', repo: 'acme/tool' },
    facts: {
      version: last.version,
      url: last.url!,
      date: last.date ?? null,
      notes: last.notes,
      checked: '2026-12-02',
      archived: false,
      crossed
    },
    kept: null,
    stale: false,
    note: null
  }
}

describe('the model-judged path keeps every text within its bounds (issue 56)', () => {
  it('every release a checked answer judged is in the history, and the record is valid', async () => {
    await fc.assert(
      fc.asyncProperty(releasesOf(1, 3), fc.array(reply, { minLength: 1, maxLength: 3 }), async (crossed, replies) => {
        const app = appOf(crossed)
        const judging = await judgeByModel([app], undefined, askerOf(replies))
        const faults: RecordFault[] = []
        const warnings: string[] = []
        const log: Logger = { info: () => {}, warning: (m) => warnings.push(m), error: () => {} }
        const built = appRecord(app, {
          baseUrl: 'https://example.org',
          now: new Date('2026-12-02T06:00:00.000Z'),
          docs: new Map(),
          previous: new Map(),
          model: CLASSIFIER_DIGEST,
          judging,
          log,
          faults
        })!
        expect(faults).toEqual([])
        expect(warnings.filter((w) => w.includes('left out of its history'))).toEqual([])
        expect(appRecordSchema.safeParse(built.page.record).success).toBe(true)
        expect(releasesDocSchema.safeParse(built.releases).success).toBe(true)
        const answered = judging.answers.get('tool') ?? new Map<string, ModelAnswerFor>()
        const byModel = built.releases.releases.filter((e) => e.model !== null).map((e) => e.version)
        expect(byModel.sort()).toEqual([...answered.keys()].sort())
      }),
      { numRuns: 120 }
    )
  })
})
