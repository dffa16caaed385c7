// What release notes carry that is not about the release: credits and pointers to other text. GitHub adds
// them to the notes it generates ("**Full Changelog**: <link>", "## New Contributors"), so whether a project's
// notes have them says nothing about its release; read as lines, they moved a fifth of the verdicts' counts.
import type { Unit } from './blocks.js'

/** A section of credits: who contributed, who is thanked. */
export const CREDITS_SECTION = /\b(?:thanks|contributors|acknowledg(?:e)?ments?)\b/i

/** A line that only points to other text: the full changelog, the commits, a comparison, a bare title. */
export const POINTER_LINE =
  /^(?:all commits|full changelog\b.*|(?:see|view) (?:also )?(?:the )?.{0,60}\b(?:milestone|changelog|release notes|commits)\.?|what's changed|compare(?: changes)?|changes|changelog)$/i

/** A paragraph of one sentence that thanks someone ("Thanks to everyone who contributed to this release!"). */
const THANKS = /^(?:(?:many|special|big|huge) )?thank(?:s|\s+you)\b/i
/** A sentence's end with more text after it. */
const SENTENCE_BREAK = /[.!?]\s+\S/

/** A line of credits or a pointer, which says nothing about the release. */
export function boilerplate(u: Unit): boolean {
  if (u.section !== null && CREDITS_SECTION.test(u.section.title)) return true
  if (u.kind === 'paragraph' && THANKS.test(u.text) && !SENTENCE_BREAK.test(u.text)) return true
  return POINTER_LINE.test(u.text)
}
