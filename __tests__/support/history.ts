// One judged release as releases.json publishes it, with made-up words: for tests of what is built from a history.
import type { Classification, HistoryEntry } from '../../src/schema/index.js'

export function historyEntry(
  version: string,
  cls: Classification,
  kind: HistoryEntry['breakingKind'] = null
): HistoryEntry {
  return {
    version,
    tag: version,
    date: null,
    url: `https://github.com/o/r/releases/tag/${encodeURIComponent(version)}`,
    safeToUpdate: cls,
    rationale: `${cls} in ${version}: "words of ${version}".`,
    evidence: 'what the line does',
    quote: `words of ${version}`,
    security: kind === 'urgent',
    breakingKind: cls === 'breaking' ? (kind ?? 'required') : null,
    basis: '00000000.00000000.000000000000',
    judge: 'rules',
    rules: cls,
    model: null
  }
}
