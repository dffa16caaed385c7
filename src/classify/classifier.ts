// Every release an admin crosses is judged, the most severe wins, and the rationale
// names the rule, the release and the words that decided.
import { LIMITS, type Classification } from '../schema/index.js'
import type { ReleaseNotes, Verdict } from '../util/types.js'
import { judgeRelease, quoteOf, type ReleaseJudgement } from './judge.js'
import { ARCHIVED_SUMMARY, EMPTY_SUMMARY, summariseUnits } from './summary.js'
import { clip, safeLabel } from './text.js'

export interface Judgement extends Verdict {
  /** Name of the rule that decided (see ./rules.ts and ./judge.ts), null only when nothing was judged. */
  rule: string | null
  /** The release whose notes decided, null when no release did (archived, no releases). */
  decidedBy: string | null
}

/** Releases read per update; an admin crossing more is told only the newest were read. */
export const MAX_RELEASES = 200

const SEVERITY: Record<Classification, number> = { safe: 1, unknown: 2, caution: 3, breaking: 4, unmaintained: 5 }
const CLASS_WORD: Record<Classification, string> = {
  safe: 'Safe',
  caution: 'Caution',
  breaking: 'Breaking',
  unknown: 'Unknown',
  unmaintained: 'Unmaintained'
}

function because(j: ReleaseJudgement, version: string): string {
  const cls = CLASS_WORD[j.safeToUpdate]
  const f = j.finding
  if (f) {
    const section = f.unit.section ? `, under "${clip(f.unit.section.title, 60)}"` : ''
    return `${cls} (rule ${j.rule}: ${j.describes}) in ${version}${section}: "${quoteOf(f)}"`
  }
  return `${cls} (rule ${j.rule}): for ${version}, ${j.describes}`
}

export interface ClassifyInput {
  /** Oldest first; the last is the release published. */
  releases: ReleaseNotes[]
  archived?: boolean
}

export function classifyReleases(input: ClassifyInput): Judgement {
  if (input.archived) {
    return {
      safeToUpdate: 'unmaintained',
      rationale:
        'Unmaintained (rule archived): the upstream repository is archived (read-only), so no further releases or fixes will come.',
      changelogSummary: ARCHIVED_SUMMARY,
      rule: 'archived',
      decidedBy: null
    }
  }
  const all = input.releases
  if (all.length === 0) {
    return {
      safeToUpdate: 'unknown',
      rationale: 'Unknown (rule no-releases): no release notes are known for this update.',
      changelogSummary: EMPTY_SUMMARY,
      rule: 'no-releases',
      decidedBy: null
    }
  }
  const releases = all.slice(-MAX_RELEASES)
  const judged = releases.map((r) => ({
    raw: String(r.version).slice(0, LIMITS.version),
    version: safeLabel(String(r.version)),
    j: judgeRelease(r.notes)
  }))
  // Newest first, so that among equally severe releases the newest one decides.
  let decided = judged[judged.length - 1]!
  for (let i = judged.length - 2; i >= 0; i--) {
    if (SEVERITY[judged[i]!.j.safeToUpdate] > SEVERITY[decided.j.safeToUpdate]) decided = judged[i]!
  }
  const newest = judged[judged.length - 1]!
  let rationale = `${because(decided.j, decided.version)}.`
  if (all.length > 1) {
    const skipped = all.length - releases.length
    rationale += ` Judged ${all.length} releases from ${judged[0]!.version} to ${newest.version}${skipped > 0 ? ` (only the newest ${releases.length} were read)` : ''}; the most severe decides: ${decided.version}.`
  }
  return {
    safeToUpdate: decided.j.safeToUpdate,
    rationale: clip(rationale, LIMITS.rationale),
    changelogSummary: summariseUnits(newest.j.units, { releasesSpanned: all.length }),
    rule: decided.j.rule,
    decidedBy: decided.raw
  }
}
