// Types shared across the pipeline's modules. Each module owns its own details;
// these are the hand-offs between them.
import type { Classification } from '../schema/index.js'

import type { Problem } from './problems.js'

/** Where a message points, so the action can annotate the right line of a file. */
export type SourceRef = Pick<Problem, 'file' | 'line' | 'column'>

/** Log sink handed to every module: the CLI prints, the action uses @actions/core. */
export interface Logger {
  info(message: string): void
  warning(message: string, ref?: SourceRef): void
  error(message: string, ref?: SourceRef): void
}

/** One release's notes, as the classifier reads them. */
export interface ReleaseNotes {
  version: string
  notes: string
  /** The release page, when known (the per-release history links it). */
  url?: string
  /** YYYY-MM-DD, when known. */
  date?: string | null
}

/** What the classifier decides for an app. */
export interface Verdict {
  safeToUpdate: Classification
  rationale: string
  changelogSummary: string | null
}

/** Releases above `after` and below `before` were not read, and why (for the log). */
export interface UnreadSpan {
  after: string
  before: string
  crossed: boolean
  why: string
}

/** The facts about an app's latest release that a build publishes. */
export interface ReleaseFacts {
  version: string
  url: string
  date: string | null
  /** The notes of `version`; null when they have not been read (an assessment is pending). */
  notes: string | null
  /** YYYY-MM-DD: the day these facts were read from upstream. */
  checked: string
  archived: boolean
  /**
   * Releases an admin crosses from the previously published version up to and
   * including `version`, oldest first (a refresh always gives at least the
   * latest). Empty for catalog seeds, which know only the latest.
   */
  crossed: ReleaseNotes[]
  /**
   * Stable releases below the oldest of `crossed`, newest last, read in the same answer for an app never
   * published before: judged for its history only, so the history starts with more than the latest.
   */
  earlier?: ReleaseNotes[]
  /**
   * Releases below the oldest of `crossed` that the history says a later model of a list judged, read again (when
   * this read holds them) for the first model to be asked: judged for the history only, oldest first.
   */
  again?: ReleaseNotes[]
  /**
   * Releases above the previously published version `after` and below `before` (the oldest of `crossed`) were not
   * read: more came out than one refresh reads. Updates across them are not known to be safe.
   */
  gap?: { after: string; before: string }
  /**
   * Other spans of releases not read, each between two versions read (or the version published before): a
   * release flagged as a prerelease but labelled as a stable one, or a release a sampled notes file does not
   * hold. Each becomes a gap in the history; `crossed` when it lies in the update from the version published
   * before to `version`, which then is not known to be safe.
   */
  unread?: UnreadSpan[]
  /** The repository now lives elsewhere (GitHub resolved a rename). */
  movedTo?: string
  /** No releases are published; the version came from tags. */
  fromTags?: boolean
}
