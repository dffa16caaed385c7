// The one place a version is placed in an app's judged history: a release matched by its label or by its git tag
// (an app may label `v26.02` what it tags `v0.2602.0`), a floating tag (`v3.6`: the newest release of the 3.6
// line), a digest moved under a floating tag, a tag that names no version, a community build's tag rule. Both ends
// of an update are compared in one scheme, so a bound read as a tag is never compared with a label.
import type { HistoryEntry } from '../schema/index.js'
import { quoted } from '../util/text.js'
import { compareNumbers, compareVersions, parseVersion, sameVersion } from '../util/versions.js'
import { imageVersion, type CommunityBuild, type ImageRef } from './images.js'

/** How a history names its releases: by their labels (`version`) or their git tags (`tag`). */
export type Scheme = 'version' | 'tag'

export type Place = (
  | /** A judged release. */
    { at: 'release'; entry: HistoryEntry; scheme: Scheme }
    /**
     * A version the history does not hold, compared in `scheme` (null: in the other end's); `line` is set where it
     * stands for some release of that line the catalog does not know.
     */
  | { at: 'label'; label: string; scheme: Scheme | null; line: number[] | null }
) & {
  /** The line of the floating tag that named it (its newest release), else null. */
  floating: number[] | null
}

/** An image tag placed: `shown` is the tag's version as the table shows it; or why it has no place. */
export type Placed = { shown: string; place: Place } | { shown: string | null; unknown: string }

const schemeLabel = (e: HistoryEntry, s: Scheme) => (s === 'version' ? e.version : e.tag)

/** The numbers of a stable label, or null (a prerelease or an opaque label). */
function stableNumbers(label: string, tagPrefix?: string): number[] | null {
  const p = parseVersion(label, tagPrefix)
  return p && p.prerelease.length === 0 ? p.numbers : null
}

/** Is `numbers` in `line` (its first numbers equal the line's; missing numbers count as 0)? */
function inLine(numbers: readonly number[], line: readonly number[]): boolean {
  return line.every((x, i) => (numbers[i] ?? 0) === x)
}

/** `label` against `line`: -1 below it, 0 in it, 1 above it, null when it does not read as numbers. */
function toLine(label: string, line: readonly number[], tagPrefix?: string): number | null {
  const p = parseVersion(label, tagPrefix)
  return p ? compareNumbers(p.numbers, line, line.length) : null
}

/** The history numbers its labels and its tags differently (`v26.02` tagged `v0.2602.0`). */
export function twoSchemes(history: readonly HistoryEntry[], tagPrefix?: string): boolean {
  return history.some((e) => {
    const c = compareVersions(e.version, e.tag, tagPrefix)
    return c !== null && c !== 0
  })
}

export interface PlaceOptions {
  /** Read a version of one or two numbers (or a publisher's alias) as a line: its newest release. */
  floating?: boolean
  /** The app's latest version (the record's): a line's newest release may be it, though not judged yet. */
  latest?: string
  tagPrefix?: string
}

/**
 * Where `label` sits in `history` (newest first): the release it names by label or by tag, the same string first;
 * for a floating label, the newest release of its line; else the label itself, to be compared in one scheme.
 */
export function placeLabel(history: readonly HistoryEntry[], label: string, opts: PlaceOptions = {}): Place {
  const prefix = opts.tagPrefix
  const line = opts.floating ? stableNumbers(label, prefix) : null
  if (line !== null) {
    // The record's latest may be a newer release of the line that is not judged yet.
    const latest = opts.latest !== undefined ? stableNumbers(opts.latest, prefix) : null
    for (const scheme of ['version', 'tag'] as const) {
      const newest = history.find((e) => {
        const n = stableNumbers(schemeLabel(e, scheme), prefix)
        return n !== null && inLine(n, line)
      })
      if (!newest) continue
      if (
        scheme === 'version' &&
        latest !== null &&
        inLine(latest, line) &&
        (compareVersions(opts.latest!, newest.version, prefix) ?? 0) > 0
      )
        return { at: 'label', label: opts.latest!, scheme: 'version', line: null, floating: line }
      return { at: 'release', entry: newest, scheme, floating: line }
    }
    if (latest !== null && inLine(latest, line))
      return { at: 'label', label: opts.latest!, scheme: 'version', line: null, floating: line }
    return { at: 'label', label, scheme: null, line, floating: line }
  }
  const same =
    history.find((e) => e.version === label || e.tag === label) ??
    history.find((e) => sameVersion(e.version, label, prefix))
  if (same)
    return {
      at: 'release',
      entry: same,
      scheme: same.tag === label && same.version !== label ? 'tag' : 'version',
      floating: null
    }
  const byTag = history.find((e) => sameVersion(e.tag, label, prefix))
  if (byTag) return { at: 'release', entry: byTag, scheme: 'tag', floating: null }
  return { at: 'label', label, scheme: null, line: null, floating: null }
}

/** What a place is called in words: the release's label, with the tag it was found by. */
export function placeWords(p: Place): string {
  if (p.at === 'label') return p.label
  return p.scheme === 'tag' && p.entry.tag !== p.entry.version
    ? `${p.entry.version} (tag ${p.entry.tag})`
    : p.entry.version
}

/** The update between two places, as the history orders it. */
export type Span =
  | { order: 'same' }
  | { order: 'down' }
  | { order: 'unplaced'; why: string }
  | {
      order: 'up'
      /** The judged releases after `from` up to and including `to`, newest first. */
      crossed: HistoryEntry[]
      /** `from` is a judged release or lies at or above the oldest one: nothing older is crossed unseen. */
      reaches: boolean
    }

/**
 * The releases an update from `from` to `to` crosses. Two judged releases compare by their places in the history
 * (which is ordered newest first); a version the history does not hold compares in the scheme of the other end
 * (its label or its tag), never in both.
 */
export function spanOf(history: readonly HistoryEntry[], from: Place, to: Place, tagPrefix?: string): Span {
  const index = new Map(history.map((e, i) => [e, i]))
  const resolve = (p: Place, other: Place): Scheme | null => {
    if (p.at === 'release' || p.scheme !== null) return p.scheme
    if (other.at === 'release' || other.scheme !== null) return other.scheme
    // Neither end names a release: where labels and tags number differently, the scheme would be a guess.
    return twoSchemes(history, tagPrefix) ? null : 'version'
  }
  const fromScheme = resolve(from, to)
  const toScheme = resolve(to, from)
  if (fromScheme === null || toScheme === null)
    return {
      order: 'unplaced',
      why: 'its releases are labelled in one numbering and tagged in another, and neither version names a judged release'
    }
  /** Where entry `e` is against place `p`: 1 newer, 0 the same, -1 older, null not comparable. */
  const against = (e: HistoryEntry, p: Place, scheme: Scheme): number | null => {
    if (p.at === 'release') return Math.sign(index.get(p.entry)! - index.get(e)!)
    const label = schemeLabel(e, scheme)
    return p.line !== null ? toLine(label, p.line, tagPrefix) : compareVersions(label, p.label, tagPrefix)
  }
  // The order of the two ends themselves.
  let order: number | null
  if (from.at === 'release') order = against(from.entry, to, toScheme)
  else if (to.at === 'release') {
    const o = against(to.entry, from, fromScheme)
    order = o === null ? null : -o
  } else if (from.line !== null || to.line !== null) {
    // A line the catalog does not know against a version: in the line, they may or may not be the same release.
    const f = parseVersion(from.label, tagPrefix)
    const t = parseVersion(to.label, tagPrefix)
    const len = Math.min(from.line?.length ?? Infinity, to.line?.length ?? Infinity)
    order = f && t ? compareNumbers(f.numbers, t.numbers, len) : null
    if (order === 0 && (from.line === null || to.line === null))
      return {
        order: 'unplaced',
        why: `no judged release of the ${lineWords((from.line ?? to.line)!)} line tells them apart`
      }
  } else order = compareVersions(from.label, to.label, tagPrefix)
  if (order === 0) return { order: 'same' }
  if (order === null) return { order: 'unplaced', why: 'its label does not read as a version' }
  if (order > 0) return { order: 'down' }
  const crossed = history.filter((e) => {
    const after = against(e, from, fromScheme)
    const upTo = against(e, to, toScheme)
    return after !== null && after > 0 && (upTo === null || upTo <= 0)
  })
  const oldest = history[history.length - 1]
  const reaches = from.at === 'release' || (oldest !== undefined && (against(oldest, from, fromScheme) ?? 1) <= 0)
  return { order: 'up', crossed, reaches }
}

/** The label a place stands for in the history's own labels, for gaps (`releases.json` gaps name labels). */
export function gapLabel(p: Place): string {
  return p.at === 'release' ? p.entry.version : p.label
}

/**
 * An image tag placed in an app's history: read by the community build's tag rule where it is one, else as the
 * project's own tags; a tag of one or two numbers, or a publisher's alias, is a floating tag (the newest release
 * of its line); a develop, nightly or beta build counts only where its tag names a release of the history. A tag
 * that names no version stays as written, with why.
 */
export function placeImage(
  ref: ImageRef,
  build: CommunityBuild | undefined,
  history: readonly HistoryEntry[],
  latest: string
): Placed {
  const reading = imageVersion(ref, build)
  const asWritten = ref.tag ?? null
  if (!('version' in reading)) return { shown: asWritten, unknown: reading.unknown }
  const v = reading.version
  const numbers = stableNumbers(v)
  const floating = reading.alias === true || (numbers !== null && numbers.length <= 2)
  if (reading.channel !== 'stable') {
    if (!history.some((e) => sameVersion(e.version, v) || sameVersion(e.tag, v)))
      return {
        shown: v,
        unknown: `${ref.name} is a ${reading.channel} build: its tag names ${quoted(v)}, which is no release in the app's judged history`
      }
    return { shown: v, place: placeLabel(history, v) }
  }
  return { shown: v, place: placeLabel(history, v, { floating, latest }) }
}

/** The line a floating place follows, as words (`3.6`). */
export const lineWords = (line: readonly number[]) => line.join('.')

/**
 * A digest moved under one tag. Under a tag naming one release the version stays (a rebuild). Under a floating tag
 * the old digest may carry any release of the line from its first one on, since the tag cannot predate its line:
 * the move is judged only where the catalog shows the whole line (a judged release older than it, no gap) and the
 * line has one release alone, so no release can have come out since the old digest was built. Null: the version
 * stays; else why the move is not known to be safe, with the releases it may carry.
 */
export function digestMove(
  place: Place,
  history: readonly HistoryEntry[],
  gaps: readonly { after: string; before: string }[]
): { why: string; mayCarry: HistoryEntry[] } | null {
  if (place.floating === null) return null
  const line = place.floating
  const scheme = place.at === 'release' ? place.scheme : 'version'
  const inIt = history.filter((e) => toLine(schemeLabel(e, scheme), line) === 0)
  const older = history.some((e) => (toLine(schemeLabel(e, scheme), line) ?? 0) < 0)
  const gapInLine = gaps.some((g) => (toLine(g.before, line) ?? 0) >= 0 && (toLine(g.after, line) ?? 0) <= 0)
  const words = lineWords(line)
  if (place.at === 'release' && inIt.length === 1 && older && !gapInLine) return null
  const why =
    place.at === 'label'
      ? `the digest under the floating tag ${words} moved, and no release of the ${words} line is judged: the new image may carry any of them`
      : !older || gapInLine
        ? `the digest under the floating tag ${words} moved, and the catalog does not show the ${words} line from its first release: the new image may carry a release the old one did not`
        : `the digest under the floating tag ${words} moved: the ${words} line has ${inIt.length} judged releases (newest ${placeWords(place)}): the old image may carry any of them, the new one a later one`
  // Where the line's first release is known, the old image carries at least that one.
  return { why, mayCarry: older && !gapInLine ? inIt.slice(0, -1) : inIt }
}
