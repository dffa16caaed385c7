// A language model's answer for one release, checked before it counts. The answer is data from a
// service that read hostile text: it counts only when it has the shape asked for, quotes a whole line (or a
// whole sentence) the notes really hold that is not written to the judge (injection.ts), gives a reason, and its
// class fits that line. Even then the rules keep a floor under it (./floor.ts).
import { z } from 'zod'
import { addressesJudge } from './injection.js'

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
  if (a.class !== 'unknown' && line.length < 3) return { error: `a ${a.class} answer must quote the line that decides` }
  if (line !== '') {
    if (!normaliseSpace(sent).includes(line)) return { error: 'the quoted line does not occur in the notes' }
    // A few words cut from a line ("the") would let any answer pass as quoting the notes.
    if (!isWholeLine(line, sent))
      return { error: 'the quoted line is not a whole line or a whole sentence of the notes' }
    // Text written to the judge is never why a release is judged (see injection.ts).
    if (addressesJudge(line)) return { error: 'the quoted line addresses the reviewer or asks for a class' }
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

/** A line that starts a new item of the notes: a list marker, a heading or a quote. */
const ITEM_START = /^(?:[-*+•|]|\*\)|\d{1,3}[.)]|#{1,6}|>)/u
/** What a line may start with that a quote may leave out: list, heading, quote and table markers. */
const LINE_MARKERS = /^(?:(?:\*\)|[-*+•|>#]+|\d{1,3}[.)])\s*)+/u
/** The end of a sentence inside a line: a stop (with closing quotes or brackets) before a space. */
const SENTENCE_END = /[.!?;]["'’”)\]]*(?= )/gu
/** A separator inside a line after which its text starts ("SECURITY: CVE-1: …", "`Issue #1`_ - …"). */
const SEPARATOR = /(?:^|\s)[-–—:|]\s+|:\s+/gu
/** Where a line's own text ends before what credits or links it: " (#123)", " [Name]", " - by". */
const TRAILER = / (?=[([]|[-–—] )/gu

interface Item {
  text: string
  starts: Set<number>
  ends: Set<number>
}

/**
 * The notes as items, each with where a quote may start and end: a list item or a paragraph, its wrapped
 * continuation lines joined to it (whitespace squashed, markers dropped), bounded by its lines and sentences.
 */
function itemsOf(sent: string): Item[] {
  const items: Item[] = []
  let cur: Item | null = null
  for (const raw of sent.split('\n')) {
    const one = normaliseSpace(raw)
    const bare = one.replace(LIST_MARKER, '')
    if (bare.replace(LINE_MARKERS, '') === '') {
      cur = null
      continue
    }
    if (!cur || ITEM_START.test(one)) {
      cur = { text: '', starts: new Set(), ends: new Set() }
      items.push(cur)
    } else cur.text += ' '
    const at = cur.text.length
    cur.starts.add(at)
    cur.starts.add(at + (LINE_MARKERS.exec(bare)?.[0].length ?? 0))
    for (const m of bare.matchAll(SEPARATOR)) cur.starts.add(at + m.index + m[0].length)
    cur.text += bare
    cur.ends.add(cur.text.length)
  }
  for (const item of items) {
    for (const m of item.text.matchAll(SENTENCE_END)) {
      // A quote may keep the stop or leave it out; the next sentence starts after the space.
      item.ends.add(m.index)
      item.ends.add(m.index + m[0].length)
      item.starts.add(m.index + m[0].length + 1)
    }
    for (const m of item.text.matchAll(TRAILER)) item.ends.add(m.index)
    for (const e of [...item.ends]) if (/[.!?;:,]/u.test(item.text[e - 1] ?? '')) item.ends.add(e - 1)
  }
  return items
}

/**
 * Whether `line` (whitespace squashed, list marker dropped) is a whole line of the notes, a whole sentence of one,
 * or a run of them within one item: it starts where a line or sentence starts and ends where one ends.
 */
export function isWholeLine(line: string, sent: string): boolean {
  for (const item of itemsOf(sent)) {
    for (let at = item.text.indexOf(line); at >= 0; at = item.text.indexOf(line, at + 1))
      if (item.starts.has(at) && item.ends.has(at + line.length)) return true
  }
  return false
}

function clipText(s: string): string {
  if (s.length <= ANSWER_TEXT_MAX) return s
  let t = s.slice(0, ANSWER_TEXT_MAX - 1)
  if (/[\uD800-\uDBFF]$/.test(t)) t = t.slice(0, -1)
  return `${t}…`
}
