// Plain text out of hostile input: the notes come from upstream and may be huge,
// binary, HTML or carry control characters. Everything here is bounded and total.
import { decodeHTML } from 'entities'
import { LIMITS } from '../schema/index.js'

/**
 * Notes longer than this many characters are cut before parsing (64 Ki characters,
 * the same bound a catalog record keeps). The rules read at most this much, so
 * 10 MB of notes cost the same as 64 KiB.
 */
export const NOTES_CAP = LIMITS.notes

/** Characters kept per line. Real notes stay under 500; longer lines are dumps and feed the parser's slow paths. */
export const LINE_CAP = 2_000

const TRUNCATED_MARK = /\[truncated\]\s*$/i
/** A line that is only such a marker, wherever it is (text may follow it: GitHub's footer, a quoted release). */
const TRUNCATED_LINE = /^[ \t]*\[truncated\][ \t]*$/gim
/** What both need: most notes have neither. */
const TRUNCATED_ANY = /\[truncated\]/i
/** C0/C1 controls (not \t \n), DEL, lone surrogates, bidi overrides, BOM and U+FFFD junk. */
const JUNK =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFEFF\uFFFD]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
/** Every character JUNK can match (any surrogate, paired or not). */
const MAYBE_JUNK = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFEFF\uFFFD\uD800-\uDFFF]/

/** Cut lines longer than LINE_CAP. One linear scan; most notes have no long line and are returned as is. */
function capLines(s: string): string {
  let start = 0
  let long = false
  while (start <= s.length) {
    let end = s.indexOf('\n', start)
    if (end < 0) end = s.length
    if (end - start > LINE_CAP) {
      long = true
      break
    }
    start = end + 1
  }
  if (!long) return s
  return s
    .split('\n')
    .map((line) => (line.length > LINE_CAP ? line.slice(0, LINE_CAP) : line))
    .join('\n')
}

/**
 * Cap, drop control/format characters (keeping newlines and tabs), normalise line ends, and normalise the format
 * for the parser. `cut` is true when the cap cut the notes; an upstream `[truncated]` marker is only removed
 * (what is left is still a whole list of changes, read as such).
 */
export function cleanNotes(raw: unknown): CleanNotes {
  return formatNotes(plainNotes(raw))
}

/** Notes cleaned as a language model reads them: capped and without junk, in their own format. */
export interface CleanNotes {
  text: string
  cut: boolean
}

/** cleanNotes without the format normalised: the text a language model reads and its quote is checked against. */
export function plainNotes(raw: unknown): CleanNotes {
  let s = typeof raw === 'string' ? raw : ''
  let cut = false
  if (s.length > NOTES_CAP) {
    s = s.slice(0, NOTES_CAP)
    // Do not leave half a surrogate pair behind.
    if (/[\uD800-\uDBFF]$/.test(s)) s = s.slice(0, -1)
    cut = true
  }
  if (s.includes('\r')) s = s.replace(/\r\n?/g, '\n')
  // The junk pattern is slow; most notes have no character it could match.
  if (MAYBE_JUNK.test(s)) s = s.replace(JUNK, '')
  if (TRUNCATED_ANY.test(s)) s = s.replace(TRUNCATED_MARK, '').replace(TRUNCATED_LINE, '')
  return { text: capLines(s), cut }
}

/** Plain notes (plainNotes) with their format normalised for the parser: cleanNotes, from notes cleaned once. */
export function formatNotes(plain: CleanNotes): CleanNotes {
  return { text: normaliseFormat(plain.text), cut: plain.cut }
}

/** Elements that carry a language other than English (`<para lang="ru">…</para>`). */
const OTHER_LANG_OPEN = /<([a-z][\w:-]{0,30})\b[^<>]{0,200}?\b(?:xml:)?lang="(?!en\b)[a-z]{2}[^"]{0,10}"[^<>]{0,200}>/gi
/** A line that is only a title between markers: `** Incompatible changes **`, `== Fixes ==`. */
const MARKED_TITLE = /^(\*{1,3}|={2,}|-{2,})[ \t]*([^*=\n]{2,80}?)[ \t]*\1[ \t]*$/
const MARKER_START = /^[*=-]/
/** An RST or setext underline: one punctuation character repeated. */
const UNDERLINE = /^(?:={3,}|\*{3,}|~{3,}|\^{3,}|#{3,}|\+{3,})\s*$/

/** A reStructuredText hyperlink with its target inline: `text <url>`_ (or __, anonymous). */
const RST_LINK = /`([^`<\n]{1,200}?) ?<[^<>`\s]{1,2000}>`__?/g

/** Lines flush with the margin around notes pasted indented: a title before, what GitHub appends after. */
const FLUSH_FEW = 3
/** A reStructuredText directive (`.. change::`): indented lines holding one, like a list item, are text, not code. */
const RST_DIRECTIVE = /^\.\. [\w:-]{1,40}::/
/** A heading or an HTML tag or comment: a flush line before indented notes that introduces no code. */
const HEADING_OR_TAG = /^(?:#{1,6}[ \t]|<)/
/** A list item's marker: indented notes that start with one are a list, not code. */
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])[ \t]/

/** Typographic bullets, pasted from a page or a document. */
const BULLETS = '[•◦▪‣⁃●○■]'
/** A typographic bullet and the space after it, with the line's indentation captured. */
const TYPOGRAPHIC_BULLET = new RegExp(String.raw`^([ \t]*)${BULLETS}[ \t]+(?=\S)`)
const ANY_BULLET = new RegExp(BULLETS)
/** What every UNDERLINE holds. */
const ANY_UNDERLINE = /={3}|\*{3}|~{3}|\^{3}|#{3}|\+{3}/

/** A line whose indentation holds a tab. */
const LEADING_TAB = /^ *\t/

/** A reStructuredText line block's line: "| " and text without another bar (a Markdown table row has more). */
const RST_LINE_BLOCK = /^ {0,4}\| ([^|]+)$/

/** A line of a quote: its marker, and a space after it that belongs to the marker. */
const QUOTED = /^[ \t]*> ?/
/** Text whose first line that is not blank is a line of a quote. */
const OPENS_QUOTED = /^\s*>/
/** A quote that opens with an admonition (`> [!WARNING]`, `> **Note**`) is one, not quoted notes. */
const ADMONITION = /^[ \t]*>[ \t]*(?:\[!|\*\*)/

/**
 * Notes quoted as a whole (every line that is not blank opens with `>`, as when a changelog is pasted as a
 * quote) are the notes they quote: read as a quote, each of their lines would be a line of a quote, and their
 * indentation would not be dedented. A quote that opens with an admonition is left as it is.
 */
function unquoted(s: string): string {
  // Most notes that hold a `>` do not open with one: no need to split them.
  if (!OPENS_QUOTED.test(s)) return s
  const lines = s.split('\n')
  let quoted = 0
  for (const l of lines) {
    if (QUOTED.test(l)) quoted++
    else if (l.trim() !== '') return s
  }
  if (quoted === 0 || ADMONITION.test(lines.find((l) => l.trim() !== '')!)) return s
  return lines.map((l) => l.replace(QUOTED, '')).join('\n')
}

/**
 * Generic format handling before the Markdown parser: unquote notes quoted as a whole, drop non-English
 * elements of multilingual XML, remove the indentation every line shares (an indented list is not code),
 * and turn reStructuredText underlined titles and lines like `** Title **` into headings, and RST line
 * blocks into list items. Linear in the text.
 */
export function normaliseFormat(s: string): string {
  if (s.includes('>')) s = unquoted(s)
  if (s.includes('lang="')) s = dropOtherLanguages(s)
  // A reStructuredText link (`Issue #2821 <https://…/2821>`_) is its text, as a Markdown link's is.
  if (s.includes('>`_')) s = s.replace(RST_LINK, '$1')
  const lines = s.split('\n')
  // What the text holds at all, so that most lines skip most tests: few notes have tabs, bars, bullets or underlines.
  const tabs = s.includes('\t')
  const bars = s.includes('| ')
  const bullets = ANY_BULLET.test(s)
  const underlines = ANY_UNDERLINE.test(s)
  // Leading tabs count as four spaces, so that a tab-indented list with one space-indented line still dedents,
  // whatever spaces come before the tabs (notes indented as a whole).
  let changed = false
  for (let i = 0; i < lines.length && tabs; i++) {
    const l = lines[i]!
    if (LEADING_TAB.test(l)) {
      const lead = /^[ \t]*/.exec(l)![0]
      lines[i] = lead.replace(/\t/g, '    ') + l.slice(lead.length)
      changed = true
    }
  }
  const dedent = dedenter(lines)
  if (dedent) changed = true
  for (let i = 0; i < lines.length; i++) {
    if (dedent) lines[i] = dedent(lines[i]!)
    // A title between markers starts and ends with the marker: list items ("* item") skip the backtracking pattern.
    const l = lines[i]!
    const marked = l.length <= 90 && MARKER_START.test(l) && l.trimEnd().endsWith(l[0]!) ? MARKED_TITLE.exec(l) : null
    if (marked && /\w/.test(marked[2]!)) {
      lines[i] = `## ${marked[2]!.trim()}`
      changed = true
    }
    // A reStructuredText line block ("| text", one entry per line, no other bar) reads as list items.
    // The text is tested apart from the pattern: one pass over a long line, never a backtracking one.
    const block = bars ? RST_LINE_BLOCK.exec(lines[i]!) : null
    if (block && /\S/.test(block[1]!)) {
      lines[i] = `- ${block[1]!}`
      changed = true
    }
    // A typographic bullet ("• Fixed …", pasted from a page or a document) is a list item's marker.
    const bullet = bullets ? TYPOGRAPHIC_BULLET.exec(lines[i]!) : null
    if (bullet) {
      lines[i] = `${bullet[1]!}- ${lines[i]!.slice(bullet[0].length)}`
      changed = true
    }
    const next = lines[i + 1]
    if (
      underlines &&
      next !== undefined &&
      UNDERLINE.test(dedent ? dedent(next) : next) &&
      /\w/.test(lines[i]!) &&
      lines[i]!.length <= 120
    ) {
      lines[i] = `## ${lines[i]!.trim()}`
      lines[i + 1] = ''
      changed = true
    }
  }
  return changed ? lines.join('\n') : s
}

/**
 * What removes the notes' shared indentation from a line (an indented list is not code), or null when none is
 * removed. Every line indented: all lose it. A list pasted indented, with a few flush lines before or after it (a
 * title, what GitHub appends: "**Full Changelog**: …"), loses it too and the flush lines keep their place, as do
 * indented labels over list items and a reStructuredText changelog, with only headings or HTML flush before them.
 * Not when a flush line comes among the indented ones or is a list item before them (a nested list's top level), nor when
 * the line just before them introduces something ("Upgrade with:" then commands): that is code.
 */
function dedenter(lines: readonly string[]): ((line: string) => string) | null {
  // The indentation the indented lines share, and the lines flush with the margin.
  let common: string | null = null
  const flush: number[] = []
  let firstIndented = -1
  let lastIndented = -1
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const c0 = line.charCodeAt(0)
    if (c0 !== 0x20 && c0 !== 0x09) {
      // Not indented: flush with the margin, unless blank (printable ASCII first needs no trim to tell).
      if (line.length > 0 && ((c0 > 0x20 && c0 < 0x7f) || line.trim() !== '')) flush.push(i)
      continue
    }
    if (line.trim() === '') continue
    const indent = /^[ \t]*/.exec(line)![0]
    if (firstIndented < 0) firstIndented = i
    lastIndented = i
    if (common === null || !indent.startsWith(common)) {
      let k = 0
      const c: string = common ?? indent
      while (k < c.length && k < indent.length && c[k] === indent[k]) k++
      common = c.slice(0, k)
    }
  }
  if (!common) return null
  const shared = common
  const cut = shared.length
  if (flush.length === 0) return (line) => line.slice(cut)
  const before = flush.filter((i) => i < firstIndented)
  // A list whose indented labels come first ("    Bugfixes:" then "    + item"), or a reStructuredText changelog
  // (".. change::"): text too, when only headings or HTML come flush before it (prose before may introduce code).
  const textBlock = (): boolean => {
    if (!before.every((i) => HEADING_OR_TAG.test(lines[i]!))) return false
    for (let i = firstIndented + 1; i <= lastIndented; i++) {
      const t = lines[i]!.trimStart()
      if (LIST_ITEM.test(t) || RST_DIRECTIVE.test(t)) return true
    }
    return false
  }
  const fewOutside =
    flush.length <= FLUSH_FEW &&
    cut >= 2 &&
    (LIST_ITEM.test(lines[firstIndented]!.trimStart()) || textBlock()) &&
    !flush.some((i) => i > firstIndented && i < lastIndented) &&
    !before.some((i) => LIST_ITEM.test(lines[i]!)) &&
    !(before.length > 0 && lines[before[before.length - 1]!]!.trimEnd().endsWith(':'))
  return fewOutside ? (line) => (line.startsWith(shared) ? line.slice(cut) : line) : null
}

function dropOtherLanguages(s: string): string {
  let out = ''
  let from = 0
  const missing = new Set<string>()
  OTHER_LANG_OPEN.lastIndex = 0
  for (let m = OTHER_LANG_OPEN.exec(s); m !== null; m = OTHER_LANG_OPEN.exec(s)) {
    const name = m[1]!
    if (missing.has(name)) continue
    const close = s.indexOf(`</${name}>`, m.index + m[0].length)
    if (close < 0) {
      missing.add(name)
      continue
    }
    // The element goes with the line end after it, so that the block around it stays one block.
    out += s.slice(from, m.index)
    from = close + name.length + 3
    if (s[from] === '\n') from++
    OTHER_LANG_OPEN.lastIndex = from
  }
  return out + s.slice(from)
}

/** True when nothing is left once whitespace and `[truncated]` markers are gone. */
export function isBlankNotes(text: string): boolean {
  // The first non-space character stays unless it opens a marker: then the notes are not blank.
  const first = text.search(/\S/)
  if (first < 0) return true
  return text[first] === '[' && text.replace(/\[truncated\]/gi, '').trim() === ''
}

/** Controls and format characters a decoded `&#1;` or `&#x202E;` could bring back. */
const DECODED_JUNK = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFEFF\uFFFD]/g

/** Drop control and format characters that decoding (ours or the Markdown parser's) brought back. */
export function dropDecodedJunk(s: string): string {
  return s.replace(DECODED_JUNK, '')
}

/** Decode every HTML entity (named, decimal, hex) with the `entities` package, dropping decoded control characters. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s
  const d = decodeHTML(s)
  return d === s ? s : d.replace(DECODED_JUNK, '')
}

/** Strip HTML tags from one line of text (the text of an inline html token). */
export function stripTags(s: string): string {
  return decodeEntities(s.replace(/<!--[\s\S]*?-->/g, ' ').replace(/<\/?[a-z][^>]*>/gi, ' '))
}

/** A commit's hash as notes cite it: 7 to 40 hex digits, a digit and a letter among them (not a word, not a number). */
export const COMMIT_HASH = String.raw`\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b`

/** Whitespace other than a plain space. */
const OTHER_SPACE = /[^\S ]/
/** The runs of white space that are not a single plain space already. */
const LOOSE_SPACE = /\s{2,}|[^\S ]/g

/** Characters at the end of a line searched for the credits and references it ends with. */
const REFERENCES_TAIL = 300
/** The path of a link to an issue, a pull or merge request or a commit. */
const REF_PATH = String.raw`\/(?:pulls?|issues|commit|merge_requests)\/`
/**
 * One word that is a link to an issue, a pull or merge request or a commit, bare or in brackets
 * ("(https://…/pull/3684)."). Tested on a single word only: over words run together
 * ("https://…/pull/1https://…/pull/2"), a pattern with two open runs tries every split.
 */
const REF_LINK_WORD = new RegExp(
  String.raw`^(?:\(https?:\/\/[^\s)]+${REF_PATH}[^\s)]*\)|https?:\/\/\S+${REF_PATH}\S*)[.,;:]?$`,
  'i'
)
/** A mention of someone: "@a", "@renovate[bot]". */
export const MENTION = String.raw`@[\w-]+(?:\[bot\])?`
/** Mentions joined as one credit: "@a", "@a, @b", "@a and @b". */
export const MENTIONS = String.raw`${MENTION}(?:(?:,\s*|,?\s+and\s+)${MENTION})*`
/** What GitHub's generated notes put before the link an item ends with: " by @a in", or " in". */
const BEFORE_PULL_LINK = new RegExp(String.raw`(?:\s+by\s+${MENTIONS})?\s+in\s*$`, 'i')

/** Where the last word of `s` starts and whether it is a link to an issue, pull request or commit. */
function endsWithRefLink(s: string): number {
  let i = s.length
  while (i > 0 && !/\s/.test(s[i - 1]!)) i--
  return i < s.length && REF_LINK_WORD.test(s.slice(i)) ? i : -1
}

/**
 * The text without the credit GitHub's generated notes end an item with ("Fix tags by @a in
 * https://github.com/o/r/pull/1"): the author and the "in" go with the link, which would otherwise leave "Fix tags
 * in". For a summary, and a rationale's quote.
 */
export function withoutPullCredit(text: string): string {
  if (!text.includes(' in http')) return text
  const end = text.trimEnd()
  const at = endsWithRefLink(end)
  if (at < 0) return text
  // Only the tail is searched for the credit before the link.
  const from = Math.max(0, at - REFERENCES_TAIL)
  const m = BEFORE_PULL_LINK.exec(end.slice(from, at))
  return m ? end.slice(0, from + m.index) : text
}

/** Mentions as a credit, with the words that make them one: "reported by @a", "by @a and @b", "thanks to @a". */
const CREDIT = String.raw`(?:(?:(?:reported|contributed|suggested|requested|fixed|found|written)\s+)?by\s+|thanks\s+(?:to\s+)?)?${MENTIONS}`
/** An issue or pull request number: "#12", "GH-12", "owner/repo#12". */
const REF = String.raw`(?:GH-|(?:[\w.-]+\/[\w.-]+)?#)\d+`
/** One reference or credit a text ends with: "(#33704)", "(#13543 @sdelicata)", "#12", "reported by @a". */
const LAST_REFERENCE = new RegExp(
  String.raw`(?:\(${REF}(?:[\s,]+(?:${REF}|${MENTION}))*\)|${REF}|${CREDIT})[\s,]*$`,
  'i'
)

/**
 * The words of a line without the credits, references and links it ends with, for a rationale's quote: "(#33704)
 * (#33727)", "(#13543 @sdelicata)", "#12", "reported by @a", a link to an issue or pull request (some notes end each
 * entry with two); not a link to anything else ("read <docs>"). They are taken off one at a time, from the line's
 * last REFERENCES_TAIL characters only (the owner of "owner/repo#12" is tried at every word character).
 */
export function withoutTrailingReferences(text: string): string {
  const bare = withoutPullCredit(text)
  const from = Math.max(0, bare.length - REFERENCES_TAIL)
  let tail = bare.slice(from).replace(/[\s,]+$/, '')
  let taken = 0
  for (; taken < 20; taken++) {
    const link = endsWithRefLink(tail)
    const at = link >= 0 ? link : (LAST_REFERENCE.exec(tail)?.index ?? -1)
    if (at < 0) break
    tail = tail.slice(0, at).replace(/[\s,]+$/, '')
  }
  return taken > 0 ? bare.slice(0, from + tail.length) : bare
}

/** Collapse runs of whitespace and trim. */
export function squash(s: string): string {
  // Most texts are single-spaced already (no double space, no other whitespace): only the ends can change. The
  // rest are mostly single-spaced too: only their loose runs are replaced.
  const loose = s.includes('  ') || OTHER_SPACE.test(s)
  return (loose ? s.replace(LOOSE_SPACE, ' ') : s).trim()
}

/**
 * Cut to at most `max` characters at a word boundary, adding an ellipsis when cut.
 * Never splits a surrogate pair.
 */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s
  let cut = s.slice(0, Math.max(0, max - 1))
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1)
  const space = cut.lastIndexOf(' ')
  if (space > max * 0.6) cut = cut.slice(0, space)
  // An ellipsis the text already ends with (an item clipped before) is not doubled.
  return `${cut.replace(/[\s,;:.\-–—(…]+$/, '')}…`
}

/** A version label as it may appear in prose: no control characters, bounded. */
export function safeLabel(label: string): string {
  const s = squash(label.replace(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, ''))
  return clip(s === '' ? '(unnamed release)' : s, 64)
}
