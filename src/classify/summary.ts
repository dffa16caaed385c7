// Plain-text summary of one release's notes: headings as lead-ins, their first items,
// the sections an admin must read first. No Markdown, no HTML, no link targets,
// commit hashes, issue references or @mentions. Bounded by SUMMARY_MAX.
import { parseUnits, type Unit } from './blocks.js'
import { POINTER_LINE } from './boilerplate.js'
import { S } from './sections.js'
import { cleanNotes, clip, COMMIT_HASH, isBlankNotes, MENTION, MENTIONS, squash, withoutPullCredit } from './text.js'

export const SUMMARY_MAX = 500
/** What a summary says when the notes have no content. */
export const EMPTY_SUMMARY = '...'

const ITEMS_PER_SECTION = 3
const URGENT_KINDS = S.breaking | S.upgrade | S.removed | S.security | S.deprecated | S.important | S.changed | S.config
/**
 * Sections a summary passes over: credits (as boilerplate.ts) and, unlike the classifier, lists of every commit or
 * change, which repeat what the other sections say (the classifier reads them: they may be all the notes have).
 */
const SKIP_SECTION = /\b(?:thanks|contributors|all commits|all (?:app )?changes|full changelog|new contributors)\b/i
/** A line that only thanks someone ("Thanks to Maxim Dounin.", nginx's notes): one clause, no news after a comma. */
const THANKS_LINE = /^(?:(?:many|special|big|huge) )?thank(?:s|\s+you)\b[^,;:.!?]*[.!?]*$/i
const BEYOND_LATIN1_BASICS = /[^\u0000-\u00a8]/
/** Brackets the references in them went from: "( )", "( , )", "( / )", "( and )". */
const EMPTIED = /[([]\s*(?:(?:[,;/]|\band\b)\s*)*[)\]]/g
/** A URL, without the punctuation after it: "(https://…/pull/1)" leaves its parentheses, emptied. */
const BARE_URL = /\b(?:https?:\/\/|www\.)\S+?(?=[).,;:!?'"\]]*(?:\s|$))/gi
/**
 * An issue or pull request reference, with a credit after it ("#12467 by ldez", as "([#12467](…) by [ldez](…))"
 * reads): after a space, a bracket, a comma or a slash ("#690/#693").
 */
const ISSUE_REF = /(?:^|(?<=[\s([,/]))(?:GH-|#)\d+\b(?:\s+(?:by|from)\s+@?[\w-]+(?:\[bot\])?(?=\s*[)\],;]|\s*$))?/gi
/**
 * A reference into another repository: "owner/repo#12", or its name alone ("ansible#4"); not "C#10" (a
 * name of one letter), and not from inside another reference ("#1380/ansible#4" is two).
 */
const REPO_REF = /(?<![#\w.-])(?:[\w.-]+\/[\w.-]+|[A-Za-z][\w.-]+)#\d+\b/g
const HASH_REF = new RegExp(`#?${COMMIT_HASH}`, 'g')
/**
 * A credit in brackets ("(Thanks @a)") or a sentence of thanks to a mention ("We thank @a for reporting this.", also
 * after "NOTE:").
 */
const MENTION_THANKS = new RegExp(
  String.raw`\(\s*(?:(?:big|many|special)\s+)?thanks?(?:\s+you)?(?:\s+to)?\s+${MENTIONS}\s*\)|` +
    String.raw`(?=[a-z])(?:^|(?<=[.!?]\s+))(?:note:\s*)?(?:we\s+(?:would\s+like\s+to\s+)?)?thanks?(?:\s+you)?(?:\s+to)?\s+${MENTIONS}(?:\s+for\b[^.!?,;]*)?\s*(?:[.!?]+|$)`,
  'gi'
)

/** A mention with the word that credits it ("by @a", "thanks to @a", "from @a"). */
const CREDITED_MENTION = new RegExp(String.raw`\b(?:by|thanks to|from) ${MENTION}`, 'gi')
/** A mention after a space, a bracket or a comma. */
const BARE_MENTION = new RegExp(String.raw`(?:^|(?<=[\s([,]))${MENTION}`, 'g')

/** Where a link or reference went: spaces around a control character that cleaned notes never hold. */
const GONE = ' \u0001 '
/** Words that name what a reference is ("issue #12", "PR #3", "commit 3a82e1f"). */
const REFERENCE_NOUN = String.raw`(?:issues?|PRs?|pull requests?|bugs?|tickets?|commits?)`
/**
 * Marks of links and references that went, joined by commas, slashes or "and". Spaces are matched in one place
 * only: with `\s*` on both sides of an optional joiner, a run of marks that then failed tried every split of its
 * spaces (ten references took 0.35 s, each one more three times as long).
 */
const MARKS = String.raw`(?:\s*(?:(?:[,/]|\band\b)\s*)?\u0001)+`
/** A word that points to a link or reference ("see", "at", "fixes issue", "closes"), then the marks of those that went. */
const POINTER = String.raw`(?:see|at|in|via|by|to|from|under|(?:clos|fix|resolv)e[sd]?)(?:\s+${REFERENCE_NOUN})?${MARKS}`
/** What may follow a pointer for it to end its clause: punctuation, a bracket, the end, a conjunction. */
const CLAUSE_END = String.raw`(?:\s*\(\s*\u0001\s*\))?\s*(?:[.,;:!?()\]]|$|\s(?:and|or|but)\s)`
/**
 * A word left pointing to links or references that went, at the end of a clause: "read the documentation at
 * <link>." read "read the documentation at.", "see #7791;" "see;", "digest to 3a82e1f" "digest to". As a sentence
 * of its own ("… unlimited. Closes #3245."), its full stop goes too; a commit in brackets after it still ends the
 * clause ("closes #14549 (5f6ddbda)"). A word that only names the reference goes after a bracket, a comma or as a
 * sentence ("(Issue #6, related to …)", "Issue #3."), not as the object of a verb ("if you have experienced issue #7").
 */
const POINTED_TO_SENTENCE = new RegExp(
  String.raw`(?=[a-z])(?<=^|[.!?]\s+)(?:${POINTER}|${REFERENCE_NOUN}${MARKS})\s*(?:[.!?]+(?=\s|$)|$)`,
  'gi'
)
const POINTED_TO = new RegExp(
  String.raw`(^|[\s([])${POINTER}(?=${CLAUSE_END})|(^|[([]\s*|,\s*)${REFERENCE_NOUN}${MARKS}(?=${CLAUSE_END})`,
  'gi'
)

// reStructuredText and AsciiDoc, which commonmark reads as plain text (the Markdown of them is gone by now).
/**
 * A unit that is markup alone: an rST link target (`.. _4388: url`), substitution, or a directive with
 * no text or only its options (`.. note::`, `.. change:: :tags: Bug Fixes :pullreq: 12`).
 */
const MARKUP_ONLY = /^\.\.(?:\s+_[^:]*:.*|\s+[\w-]+::\s*(?::[\w-]+:.*)?|\s+\|[^|]+\|.*|)$/
/** An rST directive with its text on the same line (`.. warning:: Back up first`): the text stays, as a lead-in. */
const DIRECTIVE = /^\.\.\s+([\w-]+)::\s+/
/** An AsciiDoc heading, `=== Title` (or `=== [Title]`, as some trackers write it): a lead-in for the items after it. */
const ASCIIDOC_HEADING = /^={2,6}\s+\[?([^\]=]+?)\]?(?:\s+=+)?$/
/** An rST role whose reference is an issue, pull request or commit (`:issue:77`, `:gh:12`): read as `#77` is. */
const REFERENCE_ROLE = /(?::[\w+-]+)?:(?:issue|issues|pr|pull|bug|gh|ghissue|ghpull|commit):(?=\w)/gi
/** A role with a target in angle brackets (`:ref:`upgrade guide <upgrading>``): its text. */
const ROLE_WITH_TARGET = /(^|[\s(["'])(?::[\w.+-]+)+:([^<>\n]*?)\s*<[^<>\s]+>/g
/** Any other role (`:code:`, `:doc:`, `:envvar:`): its text stays. */
const ROLE = /(^|[\s(["'])(?::[\w.+-]+)+:(?=[^\s:])/g
/**
 * An rST reference: a number (`4388`_) is a link to an issue, gone; a name stays, without its marks, where it
 * stands alone in brackets (`VSV00014`_ in brackets), the one place a trailing underscore is not a word's own.
 */
const RST_REFERENCE = /(^|[\s([])\d+_{1,2}(?=[\s),.;:]|$)|(?<=\()([A-Za-z][\w.-]*?)_{1,2}(?=\))/g
/** An AsciiDoc link, `link:url[text]`, `url[text]` or `xref:doc[text]`: its text. */
const ASCIIDOC_LINK = /\b(?:(?:link|xref|mailto):|https?:\/\/)[^\s[\]]*\[([^\]]*)\]/g
/** An AsciiDoc cross reference, `<<anchor,text>>`: its text. */
const ASCIIDOC_XREF = /<<[^,<>]*,\s*([^<>]*)>>/g

/** rST and AsciiDoc inline markup, dropped as the Markdown of the notes is. */
export function unmarkup(text: string): string {
  let s = text
  const directive = DIRECTIVE.exec(s)
  if (directive) s = `${directive[1]![0]!.toUpperCase()}${directive[1]!.slice(1)}: ${s.slice(directive[0].length)}`
  if (s.includes('[')) s = s.replace(ASCIIDOC_LINK, '$1')
  if (s.includes('<<')) s = s.replace(ASCIIDOC_XREF, '$1')
  if (s.includes(':'))
    s = s
      .replace(REFERENCE_ROLE, (_, at: number) => (/\d/.test(s[at + _.length] ?? '') ? '#' : ''))
      .replace(ROLE_WITH_TARGET, '$1$2')
      .replace(ROLE, '$1')
  if (s.includes('_')) s = s.replace(RST_REFERENCE, (_, before?: string, name?: string) => before ?? name ?? '')
  return s
}

/** Drop what is noise in plain text: URLs, issue and PR refs, commit hashes, mentions, rST and AsciiDoc markup. */
export function scrub(text: string): string {
  let s = withoutPullCredit(unmarkup(text))
  // Links and references are marked where they went, so that a word that pointed to them can go too.
  s = s.replace(BARE_URL, GONE)
  // The costly reference and mention patterns are skipped when a character they need is absent.
  if (s.includes('#')) s = s.replace(REPO_REF, GONE)
  s = s.replace(ISSUE_REF, GONE).replace(HASH_REF, GONE)
  if (s.includes(GONE))
    // Twice: "See <link>. Closes #1." points twice.
    s = s
      .replace(POINTED_TO_SENTENCE, '')
      .replace(POINTED_TO, '$1$2')
      .replace(POINTED_TO_SENTENCE, '')
      .replace(POINTED_TO, '$1$2')
      .replaceAll(GONE, ' ')
  if (s.includes('@')) s = s.replace(MENTION_THANKS, ' ').replace(CREDITED_MENTION, ' ').replace(BARE_MENTION, ' ')
  // Emoji go; ©, ® and ™ are pictographic too but are words of the text. No pictograph is below U+00A9.
  if (BEYOND_LATIN1_BASICS.test(s)) s = s.replace(/(?![\u00a9\u00ae\u2122])\p{Extended_Pictographic}\uFE0F?/gu, ' ')
  // Parentheses and brackets emptied by the above.
  if (s.includes('(') || s.includes('[')) s = s.replace(EMPTIED, ' ').replace(EMPTIED, ' ')
  return (
    squash(s)
      // A slash that stood between references that went ("limits, [#1019](…)/[#1050](…),"): not one between words.
      .replace(/(^|[\s([,])\/(?=\s*[,;)\]]|\s*$)/g, '$1')
      // A space left before punctuation goes; not before a name that opens with a dot (`.env`) or a colon (`::1`).
      .replace(/\s+([,;)\]]|[.:](?=\s|$|[)\]]))/g, '$1')
      // The commas of a list of references that went ("data [#1](…), [#2](…)"): one, and none where a clause ends.
      .replace(/,(?:\s*,)+/g, ',')
      .replace(/,(?=[)\].;:]|$)/g, '')
      .replace(/([([]),\s*/g, '$1')
      .replace(/,\s+(?=\()/g, ' ')
      .replace(/^[\s,;:.\-–—]+/, '')
  )
}

interface Group {
  title: string
  kinds: number
  units: Unit[]
  order: number
}

function groups(units: Unit[]): Group[] {
  const bySection = new Map<object | null, Group>()
  const skipped = new Map<object, boolean>()
  const list: Group[] = []
  // An AsciiDoc heading inside a section: the items after it, up to the next heading, are a group of their own.
  let subheading: { section: object | null; key: object; title: string } | null = null
  for (const u of units) {
    if (u.kind === 'heading' || u.kind === 'code' || u.kind === 'statement') continue
    if (u.section) {
      // Asked once per section, not once per line of it.
      let skip = skipped.get(u.section)
      if (skip === undefined) skipped.set(u.section, (skip = SKIP_SECTION.test(u.section.title)))
      if (skip) continue
    }
    if (u.text.startsWith('..') && MARKUP_ONLY.test(u.text)) continue
    if (u.text.startsWith('==')) {
      const heading = ASCIIDOC_HEADING.exec(u.text)
      if (heading) {
        subheading = { section: u.section, key: {}, title: heading[1]!.trim() }
        continue
      }
    }
    if (POINTER_LINE.test(u.text) || THANKS_LINE.test(u.text)) continue
    const sub = subheading?.section === u.section ? subheading : null
    const key = sub ? sub.key : u.section
    let g = bySection.get(key)
    if (!g) {
      const title = sub ? sub.title : u.section ? u.section.title : ''
      g = { title, kinds: u.section?.kinds ?? 0, units: [], order: list.length }
      bySection.set(key, g)
      list.push(g)
    }
    g.units.push(u)
  }
  return list.sort((a, b) => rank(a) - rank(b) || a.order - b.order)
}

/** Sections an admin must read first come first, housekeeping last. */
function rank(g: Group): number {
  return g.kinds & URGENT_KINDS ? 0 : g.kinds & S.housekeeping ? 2 : 1
}

/** The first few distinct, non-empty items of a group, scrubbed (only these are scrubbed: it is the costly part). */
function firstItems(g: Group): { shown: string[]; more: number } {
  const shown: string[] = []
  let i = 0
  for (; i < g.units.length && shown.length < ITEMS_PER_SECTION; i++) {
    const t = scrub(g.units[i]!.text)
    if (t.length >= 2 && !shown.includes(t)) shown.push(t)
  }
  return { shown, more: g.units.length - i }
}

/** Summarise already-parsed units (the classifier parses once and reuses them). */
export function summariseUnits(units: Unit[], opts: { releasesSpanned?: number } = {}): string {
  const spanned = opts.releasesSpanned ?? 1
  const prefix = spanned > 1 ? `Spans ${spanned} releases; the newest: ` : ''
  const parts: string[] = []
  let length = prefix.length
  for (const g of groups(units)) {
    const { shown, more } = firstItems(g)
    if (shown.length === 0) continue
    const title = scrub(g.title).replace(/:$/, '')
    const body = `${shown.map((i) => clip(i, 160).replace(/[.;:]$/, '')).join('; ')}${more > 0 ? ` (+${more} more)` : ''}`
    const part = `${title ? `${title}: ` : ''}${body}.`
    parts.push(part)
    length += part.length + 1
    if (length >= SUMMARY_MAX) break
  }
  if (parts.length === 0) return spanned > 1 ? clip(`${prefix}${EMPTY_SUMMARY}`, SUMMARY_MAX) : EMPTY_SUMMARY
  return clip(`${prefix}${parts.join(' ')}`, SUMMARY_MAX)
}

/**
 * Plain-text summary of release notes, at most SUMMARY_MAX characters; `...` when
 * the notes are empty. `releasesSpanned` > 1 says how many releases the update crosses.
 */
export function summarise(notes: string, opts: { releasesSpanned?: number } = {}): string {
  const { text } = cleanNotes(notes)
  if (isBlankNotes(text)) return summariseUnits([], opts)
  return summariseUnits(parseUnits(text), opts)
}
