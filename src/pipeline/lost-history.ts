// A history the previous snapshot held and this build cannot carry over (issue 48, item 4): a releases document that
// is missing, unreadable or another app's (pipeline/records.ts finds them), or a change history that is (previous.ts).
// Never dropped in silence: refused offline, named after a refresh.
import path from 'node:path'
import { paths } from '../site/paths.js'
import type { HistoryLoss } from '../site/status.js'
import { ProblemsError } from '../util/problems.js'
import type { PreviousChanges } from './previous.js'
import type { HistoryReset } from './records.js'

/**
 * The histories the previous snapshot could not hand on (its releases documents, its change history). Offline
 * nothing can read them again, so the build is refused (exit 1, the old tree kept); after a refresh each is named.
 */
export function lostHistories(
  reset: readonly HistoryReset[],
  changes: PreviousChanges,
  previousDir: string | undefined,
  refreshed: boolean
): HistoryLoss[] {
  const lost: HistoryLoss[] = reset.map((r) => ({
    document: paths.releases(r.slug),
    problem: r.problem,
    rebuilt: r.rebuilt
  }))
  if (changes.problem && previousDir) lost.push({ document: paths.changes, problem: changes.problem, rebuilt: false })
  if (refreshed || lost.length === 0) return lost
  throw new ProblemsError(
    'build',
    lost.map((l) => ({
      file: path.join(previousDir!, ...l.document.split('/')),
      message:
        `${l.problem}: the previous snapshot's history ${l.document === paths.changes ? 'of changes (the feeds)' : 'of judged releases'} would be lost. ` +
        'Restore it from the published snapshot, or build with --refresh to read what upstream still has again'
    })),
    `the previous snapshot's history is damaged in ${lost.length} file${lost.length === 1 ? '' : 's'}`
  )
}
