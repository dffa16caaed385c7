// Turns an app's release facts into its published verdict: the pending cases
// that the notes cannot decide, then the classifier, then a curated override.
import { applyOverride, classifyReleases, type Judgement } from '../classify/index.js'
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

/**
 * An app's verdict from its release facts: pending where the notes cannot decide
 * (a moved repository, notes not read yet), else the classifier's judgement of
 * every release crossed, with the tag note, the curated override and the bounds.
 */
export function assess(app: AppFacts & { facts: ReleaseFacts }, log: Logger): Assessment {
  const { facts, entry } = app
  if (facts.movedTo) {
    log.warning(`${entry.repo} moved to ${facts.movedTo}: update "repo" in the catalog record`, {
      file: app.file,
      line: 1
    })
    return {
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
  if (!facts.archived && facts.notes === null) {
    return {
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
  const releases = facts.crossed.length > 0 ? facts.crossed : [{ version: facts.version, notes: facts.notes ?? '' }]
  const judged = classifyReleases({ releases, archived: facts.archived })
  return finish(
    app,
    releases.map((r) => r.version),
    judged,
    log
  )
}

function finish(
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
    verdict.rationale = `No release notes were published: the repository has no stable GitHub release, so the version is its newest stable tag. ${verdict.rationale}`
  }
  verdict = applyOverride(verdict, entry.override, facts.version, log, app.file)
  verdict.rationale = bounded(verdict.rationale, LIMITS.rationale)
  return { verdict, rule: judged.rule, decidedBy: judged.decidedBy, considered }
}
