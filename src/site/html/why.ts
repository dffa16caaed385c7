// The index's "why" column: the words that decided an app's class, short. Read back from the record's rationale
// (classify/classifier.ts `because`, classify/override.ts), not from the judgement: the index also lists apps a
// build carried over from the previous snapshot, of which it has the record alone.
import type { AppRecord } from '../../schema/index.js'
import { cleanText } from './text.js'

/** At most this many characters of the quoted words; 1,000 rows must keep the index small. */
export const WHY_MAX = 90

/** `Breaking (a required step) in 2.0, under "Upgrading": "<words>": the line …` and the caution forms. */
const DECIDED = /(?:^|\. )(?:Breaking|Caution)(?: \([a-z ]+\))? in [^"]+?(?:, under "[^"]*")?: "(.+?)": the line /
/** `Caution in 1.2: no line names a change …; the strongest, "<words>", …` */
const DIFFUSE = /(?:^|\. )Caution in [^"]+?: no line names a change[^"]*?; the strongest, "(.+?)"(?:, under "[^"]*")?, /
const OVERRIDE = /^Curated override for [^:]+: (.+?) The rules alone say: \w+\.$/

/**
 * The words that decided a breaking or caution class, in quotation marks, or a curated override's reason; null for
 * the rest. Plain text, bounded: escape it where it lands.
 */
export function whyOf(r: Pick<AppRecord, 'safeToUpdate' | 'rationale'>): string | null {
  if (typeof r.rationale !== 'string') return null
  const override = OVERRIDE.exec(r.rationale)
  if (override) return cleanText(override[1], WHY_MAX) || null
  if (r.safeToUpdate !== 'breaking' && r.safeToUpdate !== 'caution') return null
  const m = DECIDED.exec(r.rationale) ?? DIFFUSE.exec(r.rationale)
  if (!m) return null
  // A quote that opens or ends mid-line carries the classifier's ellipsis already.
  const words = cleanText(m[1], WHY_MAX)
  return words === '' ? null : `“${words}”`
}
