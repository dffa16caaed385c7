// Notes → a flat list of units (headings, list items, paragraphs, quotes, tables), each knowing the
// headings it sits under. Parsing is commonmark.js, the CommonMark reference parser: on the real notes it
// gives the units marked gave, in about half the time, and its one slow case (unclosed links) is bounded
// below. GitHub's additions that release notes use are read here: tables, task list boxes, strikethrough.
// Regexes only ever run over the text of one block.
import { Parser, type Node } from 'commonmark'
import { headingKinds, looksLikeLabel } from './sections.js'
import { decodeEntities, dropDecodedJunk, squash, stripTags } from './text.js'

/** `statement`: a heading that is a sentence, read again as a line of the headings above it (see `heading`). */
export type UnitKind = 'heading' | 'item' | 'paragraph' | 'quote' | 'code' | 'table' | 'statement'

export interface Section {
  title: string
  /** Markdown heading level; pseudo-headings (bold labels, label items) sit below 6. */
  level: number
  /** Kinds this heading and every heading above it announce (bit set of `S`). */
  kinds: number
}

export interface Unit {
  kind: UnitKind
  /** Plain text: no markup, link text kept, link targets dropped. */
  text: string
  /** Heading level, or list nesting depth (0 for top-level blocks). */
  depth: number
  section: Section | null
  /** Text of a bold/italic lead-in such as `**Important:**`, '' when none. */
  lead: string
  /** Admonition word from `> [!WARNING]`, `!!! danger` and the like, '' when none. */
  alert: string
}

/** A sentence of four words or more, ended by a full stop or an exclamation mark. */
const STATEMENT = /^(?:\S+ ){3,}.*[.!]$/
/** Units kept per release; beyond this the notes are a dump, not notes. */
const MAX_UNITS = 4000
/** Characters kept of one unit's text (a whole release can be one paragraph). */
const MAX_UNIT_TEXT = 4000
/** Lists and quotes nested deeper than this are read as flat text (real notes nest three or four deep). */
const MAX_NESTING = 24

const ALERT =
  /^\s*(?:\[!(note|tip|important|warning|caution|danger)\]|!!!\s*(note|tip|info|important|warning|caution|danger|attention)\b)/i

/**
 * A line that starts as a sentence or an entry does: a capital letter, a digit, a tag or reference ("[k8s]",
 * "#123", "@user"), a quote, or a Conventional Commits type ("fix(auth): …").
 */
const STARTS_SENTENCE = /^(?:[\p{Lu}\d[(#@`"'“]|[a-z][\w-]{0,20}(?:\([^)]{0,60}\))?!?:\s)/u
/**
 * Prose wrapped onto the next line: a long line of more than one sentence that stops mid-sentence ("This is a
 * bugfix release. It fixes a potential" / "CSRF issue for users who …"). An entry per line may be long and end in
 * a word; it is one sentence.
 */
const WRAPPED = /^(?=.*[.!?] \p{Lu}).{59,}[\p{L}\d,]$/u
/** Lines of a paragraph read one by one at most (a longer run of capitalised lines is one text). */
const MAX_LINES_SPLIT = 200

/** A GFM table's delimiter row: `| --- | :-: |`, `---|---`. */
const TABLE_DELIMITER = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/
/** A task list item's box (`- [x] done`), which GitHub draws as a checkbox. */
const TASK_BOX = /^\[[ xX]\] +(?=\S)/
/** GFM strikethrough (`~~gone~~`, `~gone~`): the text is kept, the tildes are markup. */
const STRIKE = /(~~?)(?=[^\s~])([^~]*?[^\s~])\1(?!~)/g

/** An item's text without its task box. */
function taskText(s: string): string {
  return s.startsWith('[') ? s.replace(TASK_BOX, '') : s
}

function stripStrike(s: string): string {
  return s.includes('~') ? s.replace(STRIKE, '$2') : s
}

/** A table row's cells: outer pipes dropped, split at pipes not escaped. */
function cells(row: string): string[] {
  const s = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'))
}

/** Whether a label line before `next` heads it: a list, a heading, or another label line (not the notes' end). */
function headsNothingOrList(next: Node | null): boolean {
  if (next?.type === 'list' || next?.type === 'heading') return true
  if (next?.type !== 'paragraph') return false
  const text = inline(next)
  return !text.includes('\n') && colonLabel(squash(text)) !== null
}

/** The label a line is ("Bug fixes:" → "Bug fixes"): short and ending with a colon; null when it is not one. */
function colonLabel(line: string): string | null {
  return line.endsWith(':') && looksLikeLabel(line) ? line.slice(0, -1) : null
}

/** A paragraph's lines, each its own text, when each starts as an entry does and none is wrapped prose; else null. */
function entryLines(body: string): string[] | null {
  if (!body.includes('\n')) return null
  const lines = body.split('\n').map((l) => squash(l))
  if (lines.length > MAX_LINES_SPLIT) return null
  const entries = lines.every((l, i) => STARTS_SENTENCE.test(l) && (i === lines.length - 1 || !WRAPPED.test(l)))
  return entries ? lines : null
}

/**
 * Where one sentence of prose ends and the next starts: after a full stop, question or exclamation mark that follows
 * a letter, a digit, a bracket or a quote, before a capital, a quote or a commit's scope ("docker: Use …", "fix(ui):
 * …", as changes written one after another put them); "Node.js 20.1" and "e.g. from" go on.
 */
const SENTENCE_END = /(?<=[A-Za-z0-9)\]"'`][.!?])\s+(?=[\p{Lu}"'`]|[a-z][\w./-]{0,30}(?:\([^)\s]{0,30}\))?!?:\s)/u
/**
 * Sentences a paragraph is read as, one line each: from three on (two sentences are mostly one change and what it
 * means; chosen by leave-one-app-out, where two cost a breaking release and three gained a right verdict).
 */
const SENTENCES_TO_SPLIT = 3

/** The sentences of a paragraph of prose, or null when it has fewer than SENTENCES_TO_SPLIT. */
function sentencesOf(body: string): string[] | null {
  // Each sentence is squashed as it is emitted; splitting at any run of white space needs no squashing first.
  const sentences = body.split(SENTENCE_END)
  return sentences.length >= SENTENCES_TO_SPLIT ? sentences : null
}

/**
 * An underscore that can open or close emphasis in CommonMark: one between two letters or digits cannot,
 * so `snake_case` and `MAX_SIZE` are text.
 */
const EMPHASIS_UNDERSCORE = String.raw`(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])`
/**
 * Characters that can open inline markup in CommonMark (quotes only with `smart`, which is off), backticks aside:
 * simpleText reads code spans.
 */
const INLINE_MARKUP = new RegExp('[[\\]\\\\!<&*]|' + EMPHASIS_UNDERSCORE)
/** The same but brackets: links are read by simpleText when they are as simple as SIMPLE_LINK. */
const MARKUP_BUT_LINKS = new RegExp('[\\\\!<&*]|' + EMPHASIS_UNDERSCORE)
/**
 * `[text](target)` with no bracket or line break in the text and no white space, parenthesis or bracket in
 * the target: CommonMark reads it as a link whatever surrounds it (given no `!`, `\`, `<` anywhere, and no code span
 * across it).
 */
const SIMPLE_LINK = /\[([^[\]\n]*)\]\(([^\s()[\]\x00-\x1f\x7f]*)\)/g

/**
 * What inline() reads from a paragraph or heading whose content holds no markup but code spans and simple
 * links (`markup` finds the rest), without its inline nodes; null when it holds more. Line breaks as
 * commonmark.js makes them: a soft one ("\n") between lines, a hard one (" ") after two trailing spaces, the
 * next line's leading spaces dropped. Most lines of notes are of this kind, and commonmark.js's inline parser
 * took a third of the parse; a code span (`` `name` ``) is the markup a line of notes holds most often.
 */
export function simpleText(content: string, markup: RegExp): string | null {
  const s = content.trim()
  // Without a bracket there is no link; with one, a link's text may hold a code span, outside its text run.
  const links = s.includes('[')
  let at = s.indexOf('`')
  if (at < 0) return textRun(s, markup, links)
  // inline() drops strikethrough from text but not from code: the text of a code span must not reach it.
  if (s.includes('~')) return null
  // Code spans as commonmark.js reads them (parseBackticks), left to right: a run of backticks opens one that
  // the next run of as many closes, and is text when none does. Nothing before it can take a backtick from
  // it: escapes, entities, autolinks and HTML are markup; a link's target can, but only after a "](" that
  // leaves the text to commonmark.js.
  let out = ''
  let from = 0
  while (at >= 0) {
    const open = runEnd(s, at)
    const close = closingRun(s, open, open - at)
    if (close < 0) {
      at = s.indexOf('`', open)
      continue
    }
    const text = textRun(s.slice(from, at), markup, links)
    if (text === null) return null
    out += text + codeText(s.slice(open, close))
    from = close + (open - at)
    at = s.indexOf('`', from)
  }
  const rest = textRun(s.slice(from), markup, links)
  return rest === null ? null : out + rest
}

/** Where the run of backticks at `at` ends. */
function runEnd(s: string, at: number): number {
  let i = at
  while (s.charCodeAt(i) === 0x60) i++
  return i
}

/** Where the next run of exactly `n` backticks from `from` starts, -1 when there is none. */
function closingRun(s: string, from: number, n: number): number {
  for (let at = s.indexOf('`', from); at >= 0;) {
    const end = runEnd(s, at)
    if (end - at === n) return at
    at = s.indexOf('`', end)
  }
  return -1
}

/** A code span's text as inline() reads it: line breaks are spaces, one space each side dropped when both are. */
function codeText(raw: string): string {
  const c = raw.includes('\n') ? raw.replaceAll('\n', ' ') : raw
  const literal = c.length > 1 && c[0] === ' ' && c[c.length - 1] === ' ' && /[^ ]/.test(c) ? c.slice(1, -1) : c
  return literal.includes('&') ? decodeEntities(literal) : literal
}

/** Text outside code spans, with simple links read; null when it holds other markup or a link that is not simple. */
function textRun(t: string, markup: RegExp, links: boolean): string | null {
  if (markup.test(t)) return null
  const s = t.includes('\n') ? lineBreaks(t) : t
  if (!links) return s
  const read = s.includes('[') ? s.replace(SIMPLE_LINK, '$1') : s
  // A `](` outside every simple link may close a link that is not simple (spanning lines, a title, a
  // nested bracket, a code span in its text): such content is left to commonmark.js. (One that a link's
  // text makes is left too.)
  return read.includes('](') ? null : read
}

/**
 * The line breaks of plain inline content as commonmark.js makes them (see simpleText). Counted, not matched
 * with ` *\n *`: a pattern that tries every space of a long run of them takes quadratic time.
 */
function lineBreaks(s: string): string {
  const lines = s.split('\n')
  let out = ''
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    let start = 0
    if (i > 0) while (line.charCodeAt(start) === 0x20) start++
    if (i === lines.length - 1) return out + line.slice(start)
    let end = line.length
    while (end > start && line.charCodeAt(end - 1) === 0x20) end--
    out += line.slice(start, end) + (line.length - end >= 2 ? ' ' : '\n')
  }
  return out
}

/** commonmark.js's internals this reaches into: the inline parser, its link references, a block's raw content. */
interface InlineParserInternals {
  parse(block: Node): void
  refmap: Record<string, unknown>
}

/**
 * A commonmark.js parser whose inline pass leaves plain text, code spans and simple links to simpleText: such a
 * paragraph or heading gets no inline nodes, and its text as its `literal` (which CommonMark leaves null
 * for them), where inline() reads it.
 */
export function notesParser(): Parser {
  const p = new Parser()
  const inlines = (p as unknown as { inlineParser: InlineParserInternals }).inlineParser
  const parse = inlines.parse.bind(inlines)
  inlines.parse = (block: Node) => {
    const b = block as unknown as { _string_content: string | null }
    const content = b._string_content
    if (content === null) return parse(block)
    // A bracket can name a link reference when the notes define one.
    const text = simpleText(content, hasKeys(inlines.refmap) ? INLINE_MARKUP : MARKUP_BUT_LINKS)
    if (text === null) return parse(block)
    b._string_content = null
    block.literal = text
  }
  return p
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true
  return false
}

/** Plain text of a bit of Markdown that holds inline markup only (a table cell). */
function inlineOf(src: string): string {
  const p = notesParser().parse(src).firstChild
  return p && p.type === 'paragraph' ? inline(p) : squash(src)
}

/**
 * Emoji or emoji shortcodes that open a line (gitmoji: "✨ Add …", ":bug: Fix …"), with the space after them. A
 * line's words start after them: what it does is read from its first word ("Fix", "Remove"). Written to run in
 * time linear in the line: the first run of emoji is taken whole (a lookahead's capture, matched again), and the
 * rest is one alternation of single emoji, shortcodes and spaces. Nested repeats of emoji (`(\s*E+)*`) took time
 * exponential in a line of emoji with no space after them: 40 of them held a build for good.
 */
const LEADING_EMOJI =
  /^(?:(?=((?:[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\uFE0F\u200D])+))\1|:[a-z0-9_+-]{1,40}:)(?:[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F\u200D]|:[a-z0-9_+-]{1,40}:|\s)*\s(?=\S)/u

/** A line without the emoji that open it (© ® ™ are pictographic too, but words; ⚠ marks a warning). */
function undecorated(line: string): string {
  const c = line.charCodeAt(0)
  // Emoji are all past U+00FF but for ©/®; a shortcode starts with a colon.
  if (c < 0xff && c !== 0x3a) return line
  const m = LEADING_EMOJI.exec(line)
  // A warning sign stays: it marks the line as a warning (features.ts reads it).
  return m && !/^[\u00a9\u00ae\u2122]/.test(line) && !/\u26a0|:warning:/.test(m[0]) ? line.slice(m[0].length) : line
}

class Walker {
  units: Unit[] = []
  private stack: Section[] = []

  /**
   * Control characters can only come back from decoding an entity (cleanNotes dropped the literal ones), and
   * every entity or character reference has an ampersand: notes without one skip dropping them line by line.
   */
  private readonly decoded: boolean

  /** The notes, whose lines are the source of a paragraph that may be a table. */
  constructor(private readonly source: string) {
    this.decoded = source.includes('&')
  }

  /** The source's lines, split when a paragraph first may be a table. */
  private lines: string[] | null = null
  /** Lists and quotes the block being read sits in. */
  private nesting = 0

  private top(): Section | null {
    return this.stack[this.stack.length - 1] ?? null
  }

  private push(title: string, level: number): Section {
    while (this.stack.length > 0 && this.top()!.level >= level) this.stack.pop()
    const parent = this.top()
    const section: Section = { title, level, kinds: headingKinds(title) | (parent?.kinds ?? 0) }
    this.stack.push(section)
    return section
  }

  private emit(kind: UnitKind, text: string, depth: number, lead = '', alert = ''): void {
    if (this.units.length >= MAX_UNITS) return
    const squashed = squash(this.decoded ? dropDecodedJunk(text) : text)
    const t = (kind === 'code' || kind === 'heading' ? squashed : undecorated(squashed)).slice(0, MAX_UNIT_TEXT)
    if (t === '') return
    this.units.push({ kind, text: t, depth, section: this.top(), lead, alert })
  }

  heading(title: string, level: number): void {
    const t = squash(this.decoded ? dropDecodedJunk(title) : title).slice(0, 200)
    if (t === '') return
    this.push(t, level)
    this.emit('heading', t, level)
    // A heading that is a sentence ("**Do not use this version.**" on a line of its own) says something of the
    // release as well as opening a section: the rules read it as a line under the headings above it.
    if (STATEMENT.test(t) && this.units.length < MAX_UNITS)
      this.units.push({
        kind: 'statement',
        text: t,
        depth: 0,
        section: this.stack[this.stack.length - 2] ?? null,
        lead: '',
        alert: ''
      })
  }

  /** Each block from `first` to the last of its siblings. */
  blocks(first: Node | null, depth: number, quote: string | null): void {
    for (let n = first; n; n = n.next) {
      if (this.units.length >= MAX_UNITS) return
      this.block(n, depth, quote)
    }
  }

  private block(n: Node, depth: number, quote: string | null): void {
    const container = n.type === 'list' || n.type === 'block_quote'
    if (container && this.nesting >= MAX_NESTING) {
      this.flat(n, depth, quote)
      return
    }
    if (container) this.nesting++
    this.read(n, depth, quote)
    if (container) this.nesting--
  }

  /** One block, its children read in turn. */
  private read(n: Node, depth: number, quote: string | null): void {
    switch (n.type) {
      case 'heading':
        this.heading(inline(n), n.level)
        break
      case 'paragraph': {
        const text = inline(n)
        // Every table has a pipe in its delimiter row, which CommonMark leaves as text.
        if (text.includes('|') && this.table(n, depth, quote)) break
        this.paragraph(n, text, depth, quote)
        break
      }
      case 'list':
        for (let item = n.firstChild; item; item = item.next) this.item(item, depth + 1, quote)
        break
      case 'block_quote': {
        const first = n.firstChild
        const m = first?.type === 'paragraph' ? ALERT.exec(inline(first)) : null
        const alert = m ? (m[1] ?? m[2] ?? '').toUpperCase() : 'QUOTE'
        this.blocks(n.firstChild, depth, quote ?? alert)
        break
      }
      case 'code_block':
        this.emit('code', (n.literal ?? '').slice(0, MAX_UNIT_TEXT), depth)
        break
      case 'html_block':
        this.html(n.literal ?? '', depth)
        break
      default:
        // thematic_break
        break
    }
  }

  private paragraph(n: Node, text: string, depth: number, quote: string | null): void {
    const lead = leadIn(n)
    const alertMatch = ALERT.exec(text)
    const alert = alertMatch ? (alertMatch[1] ?? alertMatch[2] ?? '').toUpperCase() : (quote ?? '')
    const body = alertMatch ? text.slice(alertMatch[0].length) : text
    // Only a top-level paragraph outside quotes can head what follows.
    const atTop = depth === 0 && quote === null
    // A paragraph that is nothing but a bold label ("**Bug fixes:**") heads what follows.
    if (atTop && lead !== '' && squash(body).replace(/:$/, '') === lead.replace(/:$/, '') && looksLikeLabel(lead)) {
      this.heading(lead.replace(/:$/, ''), 7)
      return
    }
    // A plain label line that introduces a list ("Bug fixes:" then items) heads it, as a bold one does; so does one
    // with nothing under it (a heading or another label next): a section left empty, as templates do ("Breaking
    // Changes:" with none), says nothing of its own.
    if (atTop && lead === '' && alert === '' && !body.includes('\n')) {
      // The label first: reading what follows parses the next paragraph's inlines, which few lines need.
      const label = colonLabel(squash(body))
      if (label !== null && headsNothingOrList(n.next)) {
        this.heading(label, 7)
        return
      }
    }
    const kind = quote !== null || alert !== '' ? 'quote' : 'paragraph'
    // GitHub shows each line of a paragraph on its own: lines that each start as an entry does ("Fixed a crash" /
    // "Added dark mode") are one change each, not one run of text; a label line first heads them.
    const lines = entryLines(body)
    if (lines) {
      const label = atTop ? colonLabel(lines[0]!) : null
      if (label !== null) this.heading(label, 7)
      // Each line of prose among them is read a sentence a line, as a paragraph of prose is.
      const parts = lines.slice(label === null ? 0 : 1).flatMap((l) => sentencesOf(l) ?? [l])
      for (const [i, part] of parts.entries())
        this.emit(kind, part, depth, i === 0 && label === null ? lead : '', alert)
      return
    }
    // Prose of several sentences (changes written as a paragraph, not a list): each sentence is a line, so that
    // one sentence's hedge or fix does not soften a step another one states.
    const sentences = sentencesOf(body)
    if (sentences) {
      for (const [i, sentence] of sentences.entries()) this.emit(kind, sentence, depth, i === 0 ? lead : '', alert)
      return
    }
    this.emit(kind, body, depth, lead, alert)
  }

  /**
   * A GFM table, which CommonMark reads as a paragraph: a header row, a delimiter row with as many cells,
   * then rows. Lines above the header stay a paragraph. False when the paragraph holds no table.
   */
  private table(n: Node, depth: number, quote: string | null): boolean {
    const [[start, col], [end]] = n.sourcepos
    if (end - start < 1) return false
    // The source lines, without the quote markers and indentation of the blocks around them.
    this.lines ??= this.source.split('\n')
    const rows = this.lines
      .slice(start - 1, end)
      .map((line, i) => (i === 0 ? line.slice(col - 1) : line.replace(/^[ \t]*(?:>[ \t]?)*/, '')))
    const at = rows.findIndex((r, i) => i > 0 && r.includes('|') && TABLE_DELIMITER.test(r))
    if (at < 0) return false
    const header = cells(rows[at - 1]!)
    if (header.length !== cells(rows[at]!).length) return false
    // The lines above the header, parsed on their own, are read as the paragraph they are. Not through
    // blocks(): their source positions are not this source's, so table() must not look them up.
    const above = at > 1 ? notesParser().parse(rows.slice(0, at - 1).join('\n')).firstChild : null
    if (above?.type === 'paragraph') this.paragraph(above, inline(above), depth, quote)
    const body = rows.slice(at + 1).map((r) => {
      const c = cells(r).slice(0, header.length)
      while (c.length < header.length) c.push('')
      return c
    })
    const text = [header, ...body].map((r) => r.map((c) => inlineOf(c)).join(' | ')).join(' ; ')
    this.emit('table', text, depth)
    return true
  }

  private item(item: Node, depth: number, quote: string | null): void {
    const first = item.firstChild
    if (first?.type === 'paragraph' && first.next === null) {
      // Most items: one paragraph, nothing nested.
      this.emit(quote !== null ? 'quote' : 'item', taskText(inline(first)), depth, leadIn(first), quote ?? '')
      return
    }
    const own: Node[] = []
    const nested: Node[] = []
    for (let t = item.firstChild; t; t = t.next)
      (t.type === 'list' || t.type === 'block_quote' || t.type === 'code_block' || t.type === 'heading'
        ? nested
        : own
      ).push(t)
    const joined = own
      .map((t) => (t.type === 'paragraph' ? inline(t) : t.type === 'html_block' ? decodeEntities(t.literal ?? '') : ''))
      .join(' ')
    const text = taskText(joined)
    const lead = own[0]?.type === 'paragraph' ? leadIn(own[0]) : ''
    // Only an item with a sub-list can be a label ('' is none).
    const label = nested.some((t) => t.type === 'list') ? squash(text).replace(/:$/, '') : ''
    if (looksLikeLabel(label)) {
      // `* SECURITY` / `- **LDAP:**` with sub-items: a heading written as a list item.
      const saved = this.stack.slice()
      this.heading(label, 7 + depth)
      for (const t of nested) this.block(t, depth, quote)
      this.stack = saved
      return
    }
    this.emit(quote !== null ? 'quote' : 'item', text, depth, lead, quote ?? '')
    for (const t of nested) this.block(t, depth, quote)
  }

  /** Lists and quotes past MAX_NESTING: each paragraph, heading or code block below as a unit, without recursion. */
  private flat(root: Node, depth: number, quote: string | null): void {
    let n: Node | null = root.firstChild
    while (n && this.units.length < MAX_UNITS) {
      if (n.type === 'paragraph' || n.type === 'heading')
        this.emit(quote !== null ? 'quote' : 'item', inline(n), depth, '', quote ?? '')
      else if (n.type === 'code_block') this.emit('code', (n.literal ?? '').slice(0, MAX_UNIT_TEXT), depth)
      else if ((n.type === 'list' || n.type === 'item' || n.type === 'block_quote') && n.firstChild) {
        n = n.firstChild
        continue
      }
      n = nextOutside(n, root)
    }
  }

  /** HTML lists open across the notes' HTML blocks (a blank line splits a list into several blocks). */
  private htmlLists = 0
  /** Sections to return to when a list that an item's label heads closes, and the list depth that ends each. */
  private htmlScopes: { lists: number; stack: Section[] }[] = []

  /**
   * Block HTML: headings, list items and paragraphs by their tags, the rest as text. Labels head what they
   * introduce, as in Markdown: an item whose own text is a label and that holds a list (`<li>Bug fixes<ul>…`)
   * heads that list; a label paragraph before a list (`<p>Bug fixes:</p><ul>…`, `<p><b>Fixes</b></p>`) heads what
   * follows.
   */
  private html(raw: string, depth: number): void {
    // Line breaks in HTML are spaces: a paragraph wrapped over lines is one paragraph; only tags break lines.
    const tagged = raw
      .replace(/[ \t]*\n[ \t]*/g, ' ')
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<(?:ul|ol)\b[^>]*>/gi, `\n${HTML_LIST_OPEN}\n`)
      .replace(/<\/(?:ul|ol)\s*>/gi, `\n${HTML_LIST_CLOSE}\n`)
      .replace(/<h([1-6])\b[^>]*>/gi, '\n\u0001$1 ')
      .replace(/<\/h[1-6]\s*>/gi, '\n')
      .replace(/<li\b[^>]*>/gi, '\n\u0002 ')
      // A generic element that says what kind of change it holds (`<change type="security">`): an item with a label.
      .replace(
        /<(?!li\b|input\b|button\b|script\b|style\b)[a-z][\w:-]{0,30}\b[^<>]{0,200}?\btype="([\w -]{1,30})"[^<>]{0,200}>/gi,
        '\n\u0002 [$1] '
      )
      .replace(/<\/?(?:para|change|changes|entry|item|section|release|description)\b[^>]*>/gi, '\n')
      .replace(/<(?:br|p|div|tr|\/p|\/div|\/li|\/tr|summary|\/summary)\b[^>]*>/gi, '\n')
      // A label from a type attribute heads the text that follows it.
      .replace(/(\u0002 \[[\w -]{1,30}\] )\s+/g, '$1')
    const lines = tagged.split('\n')
    /** Whether the next line with text opens a list. */
    const listNext = (i: number): boolean => {
      for (let j = i + 1; j < lines.length; j++) if (lines[j]!.trim() !== '') return lines[j] === HTML_LIST_OPEN
      return false
    }
    // An item whose text is in a paragraph of its own (`<li><p>Bug fixes</p><ul>…`, as loose lists render): the
    // next line with text is the item's.
    let itemOpen = false
    for (const [i, line] of lines.entries()) {
      if (line === HTML_LIST_OPEN || line === HTML_LIST_CLOSE || line.startsWith('\u0001')) itemOpen = false
      if (line === HTML_LIST_OPEN) {
        this.htmlLists++
        continue
      }
      if (line === HTML_LIST_CLOSE) {
        this.htmlLists = Math.max(0, this.htmlLists - 1)
        // The list an item's label headed has closed: its section ends with it.
        while (this.htmlScopes.length > 0 && this.htmlScopes[this.htmlScopes.length - 1]!.lists >= this.htmlLists)
          this.stack = this.htmlScopes.pop()!.stack
        continue
      }
      const itemDepth = depth + Math.max(1, this.htmlLists)
      const asItem = line.startsWith('\u0002') || (itemOpen && line.trim() !== '')
      // The marker is read before the tags go: decoding an entity drops control characters.
      if (line.startsWith('\u0001')) this.heading(stripTags(line.slice(2)), Number(line[1]) || 6)
      else if (asItem) {
        const text = stripTags(line.startsWith('\u0002') ? line.slice(1) : line)
        itemOpen = line.startsWith('\u0002') && squash(text) === ''
        if (itemOpen) continue
        const label = listNext(i) ? squash(text).replace(/:$/, '') : ''
        if (looksLikeLabel(label)) {
          this.htmlScopes.push({ lists: this.htmlLists, stack: this.stack.slice() })
          this.heading(label, 7 + itemDepth)
        } else this.emit('item', text, itemDepth)
      } else {
        const label = depth === 0 && this.htmlLists === 0 ? htmlLabel(line, listNext(i)) : null
        if (label !== null) this.heading(label, 7)
        else this.emit('paragraph', stripTags(line), depth)
      }
    }
  }
}

/** What marks where an HTML list opens and closes, on a line of its own, in the HTML reader's tagged text. */
const HTML_LIST_OPEN = '\u0003'
const HTML_LIST_CLOSE = '\u0004'
/** A paragraph that is only bold text (`<b>Bug fixes</b>`, `<strong>Fixes:</strong>`). */
const HTML_BOLD_LINE = /^\s*<(b|strong)\b[^>]*>([^<]{1,80})<\/\1\s*>\s*:?\s*$/i

/**
 * The label a line of block HTML is, or null: bold text alone, as `**Fixes**` in Markdown; plain text ending in a
 * colon before a list, as "Bug fixes:" before a Markdown list.
 */
function htmlLabel(line: string, beforeList: boolean): string | null {
  const bold = HTML_BOLD_LINE.exec(line)
  if (bold) {
    const label = squash(decodeEntities(bold[2]!)).replace(/:$/, '')
    return looksLikeLabel(label) ? label : null
  }
  return beforeList ? colonLabel(squash(stripTags(line))) : null
}

/** The node after `n` in document order once `n`'s subtree is done, null past the end of `root`. */
function nextOutside(n: Node, root: Node): Node | null {
  let at: Node | null = n
  while (at && at !== root) {
    if (at.next) return at.next
    at = at.parent
  }
  return null
}

const CONTAINS_TEXT = new Set(['strong', 'emph', 'link'])

/**
 * Plain text of a block's inline content: link text kept, targets, images and tags dropped, entities
 * decoded (CommonMark decodes them in text; code spans are decoded here). Iterative: emphasis can nest
 * as deep as the notes make it.
 */
export function inline(block: Node): string {
  if (block.literal !== null && (block.type === 'paragraph' || block.type === 'heading'))
    return stripStrike(block.literal)
  // Text runs up to a code span or tag, where strikethrough markup can be: tildes in code are text.
  let out = ''
  let run = ''
  let n = block.firstChild
  while (n) {
    switch (n.type) {
      case 'text':
        run += n.literal ?? ''
        break
      case 'softbreak':
        run += '\n'
        break
      case 'linebreak':
        run += ' '
        break
      case 'code':
        out += stripStrike(run) + decodeEntities(n.literal ?? '')
        run = ''
        break
      case 'html_inline':
        out += stripStrike(run) + stripTags(n.literal ?? '')
        run = ''
        break
      default:
        break
    }
    if (CONTAINS_TEXT.has(n.type) && n.firstChild) n = n.firstChild
    else n = nextOutside(n, block)
  }
  return out + stripStrike(run)
}

/** Text of a bold or italic run that opens a paragraph or item, '' when none. */
function leadIn(block: Node): string {
  for (let t = block.firstChild; t; t = t.next) {
    if (t.type === 'text' && (t.literal ?? '').trim() === '') continue
    if (t.type === 'strong' || t.type === 'emph') return squash(inline(t))
    return ''
  }
  return ''
}

/**
 * Link openings (`](`) in one line past which that line's are escaped. commonmark.js looks for the end of
 * each unclosed one up to the end of its line, so a line of hundreds costs quadratic time (0.7 s for a
 * 64 KB note of them); real lines hold at most 17. Escaped, they stay in the text as plain characters.
 */
export const LINKS_PER_LINE_CAP = 32

function linkOpenings(s: string, stopAfter: number): number {
  let n = 0
  for (let i = s.indexOf(']('); i >= 0 && n <= stopAfter; i = s.indexOf('](', i + 2)) n++
  return n
}

function defuseLinks(text: string): string {
  // No line can pass the cap unless the whole text does; counting stops once past it.
  if (linkOpenings(text, LINKS_PER_LINE_CAP) <= LINKS_PER_LINE_CAP) return text
  return text
    .split('\n')
    .map((line) => (linkOpenings(line, LINKS_PER_LINE_CAP) > LINKS_PER_LINE_CAP ? line.replaceAll('](', ']\\(') : line))
    .join('\n')
}

/** Parse cleaned notes into units. Never throws: unparseable input yields its plain text. */
export function parseUnits(notes: string): Unit[] {
  const text = defuseLinks(notes)
  try {
    const w = new Walker(text)
    w.blocks(notesParser().parse(text).firstChild, 0, null)
    return w.units
  } catch {
    // The parser is total on every input we have tried; if it ever is not, read lines.
    return text
      .split('\n')
      .map((line) => squash(stripTags(line)).slice(0, MAX_UNIT_TEXT))
      .filter((line) => line !== '')
      .slice(0, MAX_UNITS)
      .map((line) => ({ kind: 'paragraph' as const, text: line, depth: 0, section: null, lead: '', alert: '' }))
  }
}
