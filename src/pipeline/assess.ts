// Turns an app's release facts into its published verdict: the pending cases
// that the notes cannot decide, then the classifier, then a curated override.
import {
  applyOverride,
  classifyReleases,
  unreadWords,
  type JudgeAnswer,
  type Judgement,
  type ReleaseVerdict
} from '../classify/index.js'
import { clip, safeLabel } from '../classify/text.js'
import { LIMITS } from '../schema/index.js'
import type { AppFacts } from './facts.js'
import type { Logger, ReleaseFacts, ReleaseNotes, Verdict } from '../util/types.js'

export interface Assessment {
  verdict: Verdict
  rule: string | null
  decidedBy: string | null
  /** Versions whose notes were read, oldest first. */
  considered: string[]
  /** Each release read, with its own verdict (for the per-release history), oldest first. */
  judged: { release: ReleaseNotes; verdict: ReleaseVerdict }[]
}

/**
 * An app's verdict from its release facts: pending where the notes cannot decide
 * (a moved repository, notes not read yet), else the classifier's judgement of
 * every release crossed, with the tag note, the curated override and the bounds.
 */
export function assess(
  app: AppFacts & { facts: ReleaseFacts },
  log: Logger,
  /** A model's checked answers by release version (pipeline/judge-models.ts); the rest are the rules'. */
  answers?: ReadonlyMap<string, JudgeAnswer & { cut?: boolean }>
): Assessment {
  const { facts, entry } = app
  if (facts.movedTo) {
    // The new name is GitHub's answer: bounded like any upstream text before it reaches a log or a rationale.
    const movedTo = clip(facts.movedTo, 200)
    log.warning(`${entry.repo} moved to ${movedTo}: update "repo" in the catalog record`, {
      file: app.file,
      line: 1
    })
    return {
      verdict: {
        safeToUpdate: 'unknown',
        rationale: `Assessment pending: the repository ${entry.repo} moved to ${movedTo}; the catalog record must be updated before ${facts.version} is assessed.`,
        changelogSummary: null
      },
      rule: 'repository-moved',
      decidedBy: null,
      considered: [],
      judged: []
    }
  }
  if (!facts.archived && facts.notes === null) {
    // A curator's class needs no notes: it stands for its version, and one for another version says it expired.
    const pending: Verdict = {
      safeToUpdate: 'unknown',
      rationale: `Assessment pending: the release notes of ${facts.version} have not been read yet; the next refresh from GitHub reads them.`,
      changelogSummary: null
    }
    return {
      verdict: applyOverride(pending, entry.override, facts.version, log, app.file),
      rule: 'notes-not-read',
      decidedBy: null,
      considered: [],
      judged: []
    }
  }
  const releases: ReleaseNotes[] =
    facts.crossed.length > 0
      ? facts.crossed
      : [{ version: facts.version, notes: facts.notes ?? '', url: facts.url, date: facts.date }]
  const judged = classifyReleases({ releases, archived: facts.archived, ...(answers ? { answers } : {}) })
  // An archived repository's verdict reads no notes; its releases are still judged for the history.
  const each = facts.archived
    ? classifyReleases({ releases, ...(answers ? { answers } : {}) }).releases
    : judged.releases
  // Releases before the crossed ones (an app's first refresh): judged for the history, not for the record.
  const earlier = facts.earlier ?? []
  const before =
    earlier.length > 0 ? classifyReleases({ releases: earlier, ...(answers ? { answers } : {}) }).releases : []
  // Older releases read again for the first model of a list (facts.again): judged for the history as well.
  const again = facts.again ?? []
  const redone = again.length > 0 ? classifyReleases({ releases: again, ...(answers ? { answers } : {}) }).releases : []
  const assessment = finish(
    app,
    releases.map((r) => r.version),
    judged,
    log
  )
  // The classifier judges at most its newest MAX_RELEASES: pair each verdict with its release from the end.
  const pair = (list: ReleaseNotes[], verdicts: ReleaseVerdict[]) =>
    verdicts.map((verdict, i) => ({ release: list[list.length - verdicts.length + i]!, verdict }))
  return { ...assessment, judged: [...pair(again, redone), ...pair(earlier, before), ...pair(releases, each)] }
}

function finish(
  app: AppFacts & { facts: ReleaseFacts },
  considered: string[],
  judged: Judgement,
  log: Logger
): Omit<Assessment, 'judged'> {
  const { facts, entry } = app
  let verdict: Verdict = {
    safeToUpdate: judged.safeToUpdate,
    rationale: judged.rationale,
    changelogSummary: judged.changelogSummary
  }
  if (facts.fromTags && !facts.archived) {
    verdict.rationale = `No release notes were published: the repository has no stable GitHub release, so the version is its newest stable tag. ${verdict.rationale}`
  }
  let { rule, decidedBy } = judged
  // Releases between the version published before and those read were never read: the update is not known to
  // be safe whatever the others say (an archived app stays unmaintained, which already says not to update).
  // So are releases between those read that were not read (flagged as prereleases, or missing from a notes file).
  const unread = [...(facts.gap ? [facts.gap] : []), ...(facts.unread ?? []).filter((u) => u.crossed)]
  if (unread.length > 0 && !facts.archived) {
    const why = facts.gap ? ` (more came out since ${safeLabel(facts.gap.after)} than a refresh reads)` : ''
    verdict = {
      safeToUpdate: 'unknown',
      rationale: `Not known to be safe: ${unreadWords(unread)}${why}, so updating across them is not judged. Of the ${considered.length} read: ${verdict.rationale}`,
      changelogSummary: verdict.changelogSummary
    }
    rule = 'releases-not-read'
    decidedBy = null
  }
  verdict = applyOverride(verdict, entry.override, facts.version, log, app.file)
  // Every text of the verdict is cut to its bound at a word here, whatever added to it on the way (the archived
  // summary's lead-in, the gap's and the tags' sentences): upstream chose how long the words inside are.
  verdict.rationale = clip(verdict.rationale, LIMITS.rationale)
  if (verdict.changelogSummary !== null) verdict.changelogSummary = clip(verdict.changelogSummary, LIMITS.summary)
  return { verdict, rule, decidedBy, considered }
}
