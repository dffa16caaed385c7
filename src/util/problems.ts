// One shape for everything that stops a run: a list of problems, each pointing
// at a file, line, column and field where it can. The CLI prints them as
// `file:line:column: field: message`, the action turns the same objects into
// annotations, and one function maps an error to an exit status.
import { escapeUnsafe } from './text.js'

/** One thing wrong, located as precisely as it can be. */
export interface Problem {
  /** The file at fault, as the user named it (a catalog record, the output directory, a site path). */
  file?: string
  line?: number
  column?: number
  /** Dotted field path inside the file, e.g. `release.url`. */
  field?: string
  message: string
}

/**
 * What kind of run-stopping error: the catalog, the build, or the snapshot about to be published; `bad-input`
 * is a file or published snapshot that `check` was pointed at and cannot use.
 */
export type ProblemKind = 'catalog' | 'build' | 'snapshot' | 'output' | 'input' | 'usage' | 'bad-input'

/** An error that carries every problem found, so a run reports them all at once. */
export class ProblemsError extends Error {
  override name = 'ProblemsError'
  constructor(
    readonly kind: ProblemKind,
    readonly problems: Problem[],
    /** One line for the end of the report, e.g. "3 catalog errors; nothing was published". */
    readonly summary: string = defaultSummary(kind, problems.length)
  ) {
    super(problems.map(formatProblem).join('\n'))
  }
}

function defaultSummary(kind: ProblemKind, n: number): string {
  const noun = kind === 'usage' || kind === 'input' || kind === 'bad-input' ? 'error' : `${kind} error`
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** `file:line:column: field: message`, leaving out what is unknown; a file name's control characters escaped. */
export function formatProblem(p: Problem): string {
  let where = p.file === undefined ? '' : escapeUnsafe(p.file)
  if (where && p.line !== undefined) {
    where += `:${p.line}`
    if (p.column !== undefined) where += `:${p.column}`
  }
  return `${where ? `${where}: ` : ''}${p.field ? `${p.field}: ` : ''}${p.message}`
}

/** A single problem with no location. */
export function problem(kind: ProblemKind, message: string, at: Omit<Problem, 'message'> = {}): ProblemsError {
  return new ProblemsError(kind, [{ ...at, message }], message)
}

/** zod issues as problems of one file; `at` prefixes each issue's path. */
export function zodProblems(
  error: { issues: { path: PropertyKey[]; message: string }[] },
  file?: string,
  at: PropertyKey[] = []
): Problem[] {
  return error.issues.map((i) => {
    const field = [...at, ...i.path].map(String).join('.')
    return { ...(file ? { file } : {}), ...(field ? { field } : {}), message: i.message }
  })
}

/** The last line of a report: the summary, and `nothing` (what did not happen) where a build was stopped. */
export function closingLine(e: ProblemsError, nothing: string): string {
  return e.kind === 'catalog' || e.kind === 'build' || e.kind === 'snapshot' ? `${e.summary}; ${nothing}` : e.summary
}

/** 2 for a misused command line or an input `check` cannot use, 1 for everything else that stopped the run, 0 for none. */
export function exitStatus(e: unknown): number {
  if (e === undefined) return 0
  return e instanceof ProblemsError && (e.kind === 'usage' || e.kind === 'bad-input') ? 2 : 1
}
