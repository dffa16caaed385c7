// `classify --jsonl`: one JSON object per input line in, one per line out, in order.
// A malformed line stops the run with its 1-based line number.
import { z } from 'zod'
import { ProblemsError } from '../util/problems.js'
import { classifyReleases } from './classifier.js'

/** A malformed input line: a run-stopping problem with its 1-based line number. */
export class JsonlInputError extends ProblemsError {
  readonly line: number
  constructor(line: number, message: string) {
    super('input', [{ message: `line ${line}: ${message}` }], `line ${line}: ${message}`)
    this.line = line
  }
}

const release = z.object({ version: z.string().max(1000), notes: z.string() })

/** One input line. Extra keys are allowed (a notes.jsonl line can be fed as is) and ignored. */
export const jsonlInputSchema = z.object({
  id: z.union([z.string().max(1000), z.number()]),
  notes: z.string(),
  version: z.string().max(1000).nullish(),
  /** Accepted for callers that know it; the notes decide, not the version jump. */
  previousVersion: z.string().max(1000).nullish(),
  /** Every release after the installed one, oldest first; when given, the notes above are not read again. */
  releases: z.array(release).min(1).max(10_000).optional()
})

export type JsonlInput = z.infer<typeof jsonlInputSchema>

export interface JsonlOutput {
  id: string | number
  safeToUpdate: string
  rationale: string
  changelogSummary: string | null
}

/** Classify one parsed input record. */
export function classifyRecord(input: JsonlInput): JsonlOutput {
  const releases = input.releases ?? [{ version: input.version ?? 'this release', notes: input.notes }]
  const j = classifyReleases({ releases })
  return { id: input.id, safeToUpdate: j.safeToUpdate, rationale: j.rationale, changelogSummary: j.changelogSummary }
}

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : 'line'}: ${i.message}`)
    .join('; ')
}

/**
 * Read lines `{id, notes, version?, previousVersion?, releases?}` and write one line
 * `{id, safeToUpdate, rationale, changelogSummary}` per input line, in input order.
 * Blank lines are skipped. Returns the number of lines written.
 */
export async function classifyJsonl(lines: AsyncIterable<string>, write: (line: string) => void): Promise<number> {
  let n = 0
  let count = 0
  for await (const raw of lines) {
    n++
    const line = n === 1 ? raw.replace(/^\uFEFF/, '') : raw
    if (line.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (e) {
      throw new JsonlInputError(n, `not valid JSON (${e instanceof Error ? e.message.slice(0, 200) : 'parse error'})`)
    }
    const parsed = jsonlInputSchema.safeParse(value)
    if (!parsed.success)
      throw new JsonlInputError(
        n,
        `expected {id, notes, version?, previousVersion?, releases?}: ${describe(parsed.error)}`
      )
    write(JSON.stringify(classifyRecord(parsed.data)))
    count++
  }
  return count
}
