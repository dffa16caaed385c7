// A language model's answer for one release, checked before it counts. The answer is data from a
// service that read hostile text: it counts only when it has the shape asked for, quotes a line the
// notes really hold, and its class fits that line. Even then the rules keep a floor under it (./floor.ts).
import { z } from 'zod'

export const ANSWER_CLASSES = ['safe', 'caution', 'breaking', 'unknown'] as const
export type AnswerClass = (typeof ANSWER_CLASSES)[number]

/** Longest deciding line and reason kept. */
export const ANSWER_TEXT_MAX = 300

export const modelAnswerSchema = z.strictObject({
  class: z.enum(ANSWER_CLASSES),
  breakingKind: z.enum(['urgent', 'required']).nullable(),
  line: z.string().max(ANSWER_TEXT_MAX * 2),
  reason: z
    .string()
    .min(1)
    .max(ANSWER_TEXT_MAX * 2)
})

/** A checked answer, with who gave it. */
export interface ModelAnswer {
  class: AnswerClass
  breakingKind: 'urgent' | 'required' | null
  /** The deciding line, as the notes write it (whitespace squashed); '' for unknown. */
  line: string
  reason: string
}

/** Whitespace runs as one space, ends trimmed: how a line is compared with the notes. */
export function normaliseSpace(s: string): string {
  return s.replace(/\s+/gu, ' ').trim()
}

/** A list marker a model may copy or drop: the line is compared without it. */
const LIST_MARKER = /^(?:[-*+•]|\d{1,3}[.)])\s+/u

/**
 * The answer in `content` checked against the notes sent (`sent`): the answer or why it is refused.
 * Total: any content gives one or the other.
 */
export function checkAnswer(content: string | null, sent: string): { answer: ModelAnswer } | { error: string } {
  if (content === null || content.trim() === '') return { error: 'the answer is empty' }
  let raw: unknown
  try {
    // A model may wrap the object in a code fence despite the JSON response format.
    raw = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''))
  } catch {
    return { error: 'the answer is not JSON' }
  }
  const parsed = modelAnswerSchema.safeParse(raw)
  if (!parsed.success) {
    const i = parsed.error.issues[0]
    return { error: `the answer does not have the shape asked for (${i?.path.join('.') || 'answer'}: ${i?.message})` }
  }
  const a = parsed.data
  if ((a.class === 'breaking') !== (a.breakingKind !== null))
    return { error: 'breakingKind must be set for breaking and null otherwise' }
  // A reason without a word (spaces, stops, invisible characters) says nothing, and the history entry that quotes it
  // could not be published (issue 56): refused, so the rules judge the release.
  const reason = normaliseSpace(a.reason)
  if (!/[\p{L}\p{N}]/u.test(reason)) return { error: 'the answer gives no reason' }
  const line = normaliseSpace(a.line).replace(LIST_MARKER, '')
  if (a.class !== 'unknown') {
    if (line.length < 3) return { error: `a ${a.class} answer must quote the line that decides` }
    if (!normaliseSpace(sent).includes(line)) return { error: 'the quoted line does not occur in the notes' }
  } else if (line !== '' && !normaliseSpace(sent).includes(line)) {
    return { error: 'the quoted line does not occur in the notes' }
  }
  return {
    answer: {
      class: a.class,
      breakingKind: a.breakingKind,
      line: clipText(line),
      reason: clipText(reason)
    }
  }
}

function clipText(s: string): string {
  if (s.length <= ANSWER_TEXT_MAX) return s
  let t = s.slice(0, ANSWER_TEXT_MAX - 1)
  if (/[\uD800-\uDBFF]$/.test(t)) t = t.slice(0, -1)
  return `${t}…`
}
