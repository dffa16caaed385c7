// What release notes carry that is not about the release: credits, pointers to other text, where to get it. GitHub
// adds some to the notes it generates ("**Full Changelog**: <link>", "## New Contributors"), so whether a project's
// notes have them says nothing about its release; read as its lines, they moved the release's counts (the Full
// Changelog line appended to each real note changed 57 of 707 verdicts).
import type { Unit } from './blocks.js'

/** A section aside from the changes: credits (who contributed, who is thanked), where to get it (images, checksums). */
const ASIDE_SECTION =
  /\b(?:thanks|contributors|acknowledg(?:e)?ments?|(?:docker|container|oci) images?|checksums?|sha-?256 ?sums?)\b/i

/** A line that only points to other text: the full changelog, the commits, a comparison, a bare title. */
export const POINTER_LINE =
  /^(?:all commits|full changelog\b.*|(?:see|view) (?:also )?(?:the )?.{0,60}\b(?:milestone|changelog|release notes|commits)\.?|what's changed|compare(?: changes)?|changes|changelog)$/i

/** Thanks to someone ("Thanks to all our contributors!", "Many thanks to @someone"). */
const THANKS = /^(?:(?:many|special|big|huge) )?thank(?:s|\s+you)\b/i
/** An appeal for support ("If you like this project, please consider sponsoring us"). */
const APPEAL =
  /\bconsider (?:sponsoring|donating|supporting)\b|\bsponsor (?:us|me|the project|this project)\b|\bbuy (?:me|us) a coffee\b/i
/** A sentence's end with more text after it. */
const SENTENCE_BREAK = /[.!?]\s+\S/

/** A line aside from the changes (credits, where to get it) or a pointer, which says nothing about the release. */
export function boilerplate(u: Unit): boolean {
  if (u.section !== null && ASIDE_SECTION.test(u.section.title)) return true
  // One sentence of thanks or of appeal, as a paragraph or a quote: an item, or more sentences, may carry news.
  if (u.kind !== 'item' && (THANKS.test(u.text) || APPEAL.test(u.text)) && !SENTENCE_BREAK.test(u.text)) return true
  return POINTER_LINE.test(u.text)
}
