// Turns an app's release facts into its published verdict: the pending cases
// that the notes cannot decide, then the classifier, then a curated override.
import type { ClassifyInput, Judgement } from '../classify/classifier.js'
import { applyOverride } from '../classify/override.js'
import { LIMITS } from '../schema/index.js'
import type { AppFacts } from './facts.js'
import type { Logger, ReleaseFacts, Verdict } from '../util/types.js'

export interface Assessment {
  verdict: Verdict
  rule: string | null
  decidedBy: string | null
  /** Versions whose notes were read, oldest first. */
  considered: string[]
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`
}

export type Plan = { pending: Assessment } | { input: ClassifyInput }

/** What an app's facts need: a verdict the notes cannot give (pending), or the classifier's input. */
export function planAssessment(app: AppFacts & { facts: ReleaseFacts }, log: Logger): Plan {
  const { facts, entry } = app
  if (facts.movedTo) {
    log.warning(`${entry.repo} moved to ${facts.movedTo}: update "repo" in the catalog record`, {
      file: app.file,
      line: 1
    })
    return {
      pending: {
        verdict: {
          safeToUpdate: 'unknown',
          rationale: `Assessment pending: the repository ${entry.repo} moved to ${facts.movedTo}; the catalog record must be updated before ${facts.version} is assessed.`,
          changelogSummary: null
        },
        rule: 'repository-moved',
        decidedBy: null,
        considered: []
      }
    }
  }
  if (!facts.archived && facts.notes === null) {
    return {
      pending: {
        verdict: {
          safeToUpdate: 'unknown',
          rationale: `Assessment pending: the release notes of ${facts.version} have not been read yet; the next refresh from GitHub reads them.`,
          changelogSummary: null
        },
        rule: 'notes-not-read',
        decidedBy: null,
        considered: []
      }
    }
  }
  const releases = facts.crossed.length > 0 ? facts.crossed : [{ version: facts.version, notes: facts.notes ?? '' }]
  return { input: { releases, archived: facts.archived } }
}

/** The published verdict from the classifier's judgement of the `considered` releases: tag note, curated override, bounds. */
export function finishAssessment(
  app: AppFacts & { facts: ReleaseFacts },
  considered: string[],
  judged: Judgement,
  log: Logger
): Assessment {
  const { facts, entry } = app
  let verdict: Verdict = {
    safeToUpdate: judged.safeToUpdate,
    rationale: judged.rationale,
    changelogSummary: judged.changelogSummary
  }
  if (facts.fromTags && !facts.archived) {
    verdict.rationale = `No GitHub releases are published; the version comes from the repository tags. ${verdict.rationale}`
  }
  verdict = applyOverride(verdict, entry.override, facts.version, log, app.file)
  verdict.rationale = bounded(verdict.rationale, LIMITS.rationale)
  return { verdict, rule: judged.rule, decidedBy: judged.decidedBy, considered }
}
