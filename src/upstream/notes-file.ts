// Release notes read from a JSON-lines file instead of from GitHub: the shape of the team's data set
// (`{id, slug, repo, version, tag, date, notes}`, one release a line). Upstream text never lives in the
// catalog; a build reads it from here or from GitHub (--refresh), and both hand the pipeline the same
// RefreshOutcome, so verdicts, history and reuse treat them alike.
import { quoted } from '../util/text.js'
import { realpathSync } from 'node:fs'
import { z } from 'zod'
import { REPO_PATTERN } from '../schema/index.js'
import { sha256 } from '../util/digest.js'
import { problem } from '../util/problems.js'
import { readRegularFile, refusalWords } from '../util/regular-file.js'
import type { Logger, ReleaseFacts } from '../util/types.js'
import { compareVersions, isNextVersion, isStableVersion, versionIdentity } from '../util/versions.js'
import { capNotes, factsFromSnapshot, tagPage, type RepoRelease } from './github/facts.js'
import type { RefreshOutcome, RefreshTarget } from './github/refresh.js'

/** A notes file larger than this is not read (the data set is about 4 MB). */
export const NOTES_FILE_MAX_BYTES = 256 * 1024 * 1024

/** Most releases of one app read from the file for its history (the data set holds at most 12). */
export const NOTES_FILE_MAX_RELEASES = 50

const entrySchema = z.object({
  repo: z.string().regex(REPO_PATTERN, 'must be "<owner>/<name>"'),
  version: z.string().min(1).max(128),
  tag: z.string().min(1).max(256).nullable().optional(),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable()
    .optional(),
  notes: z.string(),
  /** GitHub flags the release as a prerelease (the data set has no such field: its releases are all stable). */
  prerelease: z.boolean().optional(),
  source: z
    .object({
      repo: z.string().regex(REPO_PATTERN),
      path: z.string().min(1).max(1024),
      commit: z.string().regex(/^[0-9a-f]{7,64}$/)
    })
    .optional()
})

type Entry = z.infer<typeof entrySchema>

export interface NotesFile {
  /** The file as given (the files, joined with " and "), for messages and the page's banner. */
  file: string
  /** Releases by repository (lower case: GitHub's names are case-insensitive), in file order. */
  byRepo: ReadonlyMap<string, readonly Entry[]>
  /** Lines that were not a release, each already reported. */
  skipped: number
}

/**
 * Reads the file, or several (build's --notes-from given more than once), as one: a line that is not a release
 * (bad JSON, a missing or malformed field) is reported with its file and line and left out, so one odd line
 * never stops a build. A file that cannot be read at all stops it. A release two files hold (by repository and
 * version) is one release: the first file given keeps its tag and date, and other notes are read with its own, as
 * for a release given twice in one file (the more cautious reading decides, with a warning naming both lines).
 */
export function readNotesFile(files: string | readonly string[], log: Logger): NotesFile {
  const list = typeof files === 'string' ? [files] : files
  const byRepo = new Map<string, Entry[]>()
  let skipped = 0
  // Each release's first line, by repository and version, over all the files.
  const seen = new Map<string, FirstLine>()
  for (const file of list) {
    let read
    try {
      // The user names this file: a link to it is followed, then it must be a regular file of bounded size.
      read = readRegularFile(realpathSync(file), NOTES_FILE_MAX_BYTES)
    } catch (e) {
      read = { refused: 'unreadable' as const, code: (e as NodeJS.ErrnoException).code ?? (e as Error).message }
    }
    if (!('bytes' in read)) throw problem('input', `--notes-from ${refusalWords(read, NOTES_FILE_MAX_BYTES)}`, { file })
    const lines = read.bytes.toString('utf8').split('\n')
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue
      let data: unknown
      try {
        data = JSON.parse(line)
      } catch {
        skipped++
        log.warning('not a JSON object; line left out', { file, line: i + 1 })
        continue
      }
      const parsed = entrySchema.safeParse(data)
      if (!parsed.success) {
        skipped++
        const issue = parsed.error.issues[0]!
        log.warning(`${issue.path.join('.') || 'line'}: ${issue.message}; line left out`, { file, line: i + 1 })
        continue
      }
      const key = parsed.data.repo.toLowerCase()
      const release = `${key}\n${versionIdentity(parsed.data.version)}`
      const first = seen.get(release)
      if (first) {
        joinDuplicate(first, parsed.data, { file, line: i + 1 }, log)
        continue
      }
      seen.set(release, { entry: parsed.data, file, line: i + 1, read: new Set([parsed.data.notes.trim()]) })
      const entries = byRepo.get(key)
      if (entries) entries.push(parsed.data)
      else byRepo.set(key, [parsed.data])
    }
  }
  return { file: list.join(' and '), byRepo, skipped }
}

interface FirstLine {
  entry: Entry
  file: string
  line: number
  read: Set<string>
}

/**
 * A second line for a release already read (`1.2` and `v1.2.0` are one), in the same file or a later one. The same
 * notes say nothing new. Other notes contradict the first: the release keeps both, one after the other, so whoever
 * judges it reads each and the more cautious reading decides (the classifier takes the most severe cue it finds; a
 * breaking change in either is breaking); a prerelease flag on either line holds. Never in silence: a warning
 * names both lines.
 */
function joinDuplicate(first: FirstLine, again: Entry, where: { file: string; line: number }, log: Logger): void {
  const { entry, read } = first
  if (again.prerelease) entry.prerelease = true
  const notes = again.notes.trim()
  if (notes === '' || read.has(notes)) return
  read.add(notes)
  const label = quoted(again.version)
  const at = first.file === where.file ? `line ${first.line}` : `line ${first.line} of ${first.file}`
  log.warning(
    `version ${label} is also on ${at} with other notes; both notes are read as one release, so the more cautious reading decides`,
    where
  )
  entry.notes = entry.notes.trim() === '' ? again.notes : `${entry.notes}\n\n${again.notes}`
}

// The release page when the tag is known, else the notes' own file at the commit read, else the releases page. The
// file's words never pick a path outside those pages: a tag or path with a `.`, `..` or empty segment is not used.
function urlOf(e: Entry): string {
  const page = `https://github.com/${e.repo}`
  const tag = e.tag ? tagPage(page, e.tag) : null
  const file = e.source
    ? tagPage(`https://github.com/${e.source.repo}/blob/${e.source.commit}`, e.source.path, '')
    : null
  return tag ?? file ?? `${page}/releases`
}

/** A catalog app as the notes file is matched to it. */
export interface NotesTarget extends RefreshTarget {
  /** The catalog's last known release, whose `checked` day stands when the file's latest is that release. */
  seed?: { version: string; checked: string }
  archived?: boolean
}

/**
 * One outcome per target whose repository the file has releases of (others get none: the caller keeps their
 * catalog facts). The newest stable version is the latest; the rest are its history (an app never published
 * before) or the releases crossed since the published version, exactly as a refresh gives them.
 * `checked` is the catalog's own day when it records the same release, else the build's day. A catalog record
 * of a newer release than the file holds gets no outcome either.
 */
export function notesFileOutcomes(
  notes: NotesFile,
  targets: readonly NotesTarget[],
  now: Date
): Map<string, RefreshOutcome> {
  const outcomes = new Map<string, RefreshOutcome>()
  for (const t of targets) {
    const entries = notes.byRepo.get(t.repo.toLowerCase())
    if (!entries) continue
    // Newest first, as GitHub lists releases; version labels as the changelog writes them.
    const stable = entries
      .filter((e) => isStableVersion(e.version))
      .sort((a, b) => -(compareVersions(a.version, b.version) ?? 0))
    // Older releases than the window are not read: like a refresh that could not read back, `releasesAfter` says
    // more lie beyond, so the span from the published version to the oldest read becomes a gap (facts.ts).
    const cut = stable.length > NOTES_FILE_MAX_RELEASES
    const releases: RepoRelease[] = stable.slice(0, NOTES_FILE_MAX_RELEASES).map((e) => ({
      tag: e.version,
      url: urlOf(e),
      draft: false,
      prerelease: e.prerelease ?? false,
      publishedAt: e.date ?? null,
      createdAt: null,
      notes: e.notes
    }))
    const result = factsFromSnapshot(
      {
        nameWithOwner: t.repo,
        url: `https://github.com/${t.repo}`,
        archived: t.archived ?? false,
        releases,
        tags: [],
        ...(cut ? { releasesAfter: null } : {})
      },
      {
        repo: t.repo,
        ...(t.previousVersion ? { previousVersion: t.previousVersion } : {}),
        ...(t.again ? { again: t.again } : {})
      },
      { now, maxCrossed: NOTES_FILE_MAX_RELEASES, backfill: NOTES_FILE_MAX_RELEASES }
    )
    const facts = result.kind === 'facts' ? withSampleGaps(result.facts, t.previousVersion) : null
    // The catalog's own release, where the file has it under the same label and nothing newer by version order
    // (a label that reads as no version at all included): the latest, as the catalog says.
    const own = t.seed && entries.find((e) => e.version === t.seed!.version)
    const seedVsFile = t.seed && facts ? compareVersions(t.seed.version, facts.version) : null
    if (own && (!facts || (seedVsFile === null && !isStableVersion(own.version)))) {
      outcomes.set(t.slug, { status: 'fresh', facts: factsOfEntry(own, t.seed!.checked, t.archived ?? false) })
      continue
    }
    if (!facts) continue
    // The catalog knows a newer release than the file holds: its facts stand (unjudged), not an older release.
    if (seedVsFile !== null && seedVsFile > 0) continue
    if (seedVsFile === 0) facts.checked = t.seed!.checked
    outcomes.set(t.slug, { status: 'fresh', facts })
  }
  return outcomes
}

/**
 * The data set holds a sample of each app's releases, not all of them: two releases read one after the other are
 * adjacent only when the second is the first's immediate successor (util/versions.ts: isNextVersion; unsure is not
 * adjacent). Every other step, from the version published before through the releases read, is a span not read: a
 * gap in the history, and one above the published version makes the update unknown. A span the read's own gap
 * (the window) covers is not counted twice.
 */
function withSampleGaps(facts: ReleaseFacts, previous: string | undefined): ReleaseFacts {
  const read = [...(facts.earlier ?? []), ...facts.crossed].map((r) => r.version)
  const steps: { after: string; before: string; crossed: boolean }[] = []
  const start = previous !== undefined && facts.gap === undefined && read.length > 0 ? [previous] : []
  const labels = [...start, ...read]
  const crossedFrom = previous === undefined ? Infinity : labels.length - facts.crossed.length
  for (let i = 1; i < labels.length; i++) {
    const [after, before] = [labels[i - 1]!, labels[i]!]
    // The published version itself may not be below (a catalog seed the file does not order): no step from it.
    if ((compareVersions(after, before) ?? 1) >= 0 || isNextVersion(after, before)) continue
    if (facts.unread?.some((u) => u.after === after && u.before === before)) continue
    steps.push({ after, before, crossed: i >= crossedFrom })
  }
  if (steps.length === 0) return facts
  const unread = [
    ...(facts.unread ?? []),
    ...steps.map((s) => ({ ...s, why: 'the notes file holds no release between them (a sampled history)' }))
  ]
  return { ...facts, unread }
}

/** The facts of one release alone (its label reads as no version, so no other release can be ordered with it). */
function factsOfEntry(e: Entry, checked: string, archived: boolean): ReleaseFacts {
  const release = { version: e.version, notes: capNotes(e.notes), url: urlOf(e), date: e.date ?? null }
  return { ...release, checked, archived, crossed: [release] }
}

/** What an app's releases in the file are, for the reuse key of an offline build (see pipeline/reuse.ts). */
export function notesDigest(notes: NotesFile, repo: string): string {
  const entries = notes.byRepo.get(repo.toLowerCase())
  return entries ? sha256(JSON.stringify(entries), 'base64') : ''
}
