// Notes → a flat list of units (headings, list items, paragraphs, quotes), each
// knowing the headings it sits under. Parsing is marked's lexer; regexes only ever
// run over the text of one token.
import { Lexer, type Token, type Tokens } from 'marked'
import { headingKinds, looksLikeLabel } from './sections.js'
import { decodeEntities, dropDecodedJunk, squash, stripTags } from './text.js'

export type UnitKind = 'heading' | 'item' | 'paragraph' | 'quote' | 'code' | 'table'

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

/** Units kept per release; beyond this the notes are a dump, not notes. */
const MAX_UNITS = 4000
/** Characters kept of one unit's text (a whole release can be one paragraph). */
const MAX_UNIT_TEXT = 4000

const ALERT =
  /^\s*(?:\[!(note|tip|important|warning|caution|danger)\]|!!!\s*(note|tip|info|important|warning|caution|danger|attention)\b)/i

class Walker {
  units: Unit[] = []
  private stack: Section[] = []

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
    const t = squash(dropDecodedJunk(text)).slice(0, MAX_UNIT_TEXT)
    if (t === '') return
    this.units.push({ kind, text: t, depth, section: this.top(), lead, alert })
  }

  heading(title: string, level: number): void {
    const t = squash(dropDecodedJunk(title)).slice(0, 200)
    if (t === '') return
    this.push(t, level)
    this.emit('heading', t, level)
  }

  blocks(tokens: Token[], depth: number, quote: string | null): void {
    for (const tok of tokens) {
      if (this.units.length >= MAX_UNITS) return
      switch (tok.type) {
        case 'heading': {
          const h = tok as Tokens.Heading
          this.heading(inline(h.tokens, h.text), h.depth)
          break
        }
        case 'paragraph':
        case 'text': {
          const p = tok as Tokens.Paragraph | Tokens.Text
          const text = inline(p.tokens, p.text)
          const lead = leadIn(p.tokens)
          const alertMatch = ALERT.exec(text)
          const alert = alertMatch ? (alertMatch[1] ?? alertMatch[2] ?? '').toUpperCase() : (quote ?? '')
          const body = alertMatch ? text.slice(alertMatch[0].length) : text
          // A paragraph that is nothing but a bold label ("**Bug fixes:**") heads what follows.
          if (
            depth === 0 &&
            quote === null &&
            lead !== '' &&
            squash(body).replace(/:$/, '') === lead.replace(/:$/, '') &&
            looksLikeLabel(lead)
          ) {
            this.heading(lead.replace(/:$/, ''), 7)
            break
          }
          this.emit(quote !== null || alert !== '' ? 'quote' : 'paragraph', body, depth, lead, alert)
          break
        }
        case 'list':
          for (const item of (tok as Tokens.List).items) this.item(item, depth + 1, quote)
          break
        case 'blockquote': {
          const bq = tok as Tokens.Blockquote
          const first = bq.tokens[0]
          const m = first && 'text' in first ? ALERT.exec(String(first.text)) : null
          const alert = m ? (m[1] ?? m[2] ?? '').toUpperCase() : 'QUOTE'
          this.blocks(bq.tokens, depth, quote ?? alert)
          break
        }
        case 'code':
          this.emit('code', (tok as Tokens.Code).text.slice(0, MAX_UNIT_TEXT), depth)
          break
        case 'table': {
          const t = tok as Tokens.Table
          const rows = [t.header, ...t.rows].map((r) => r.map((c) => inline(c.tokens, c.text)).join(' | '))
          this.emit('table', rows.join(' ; '), depth)
          break
        }
        case 'html':
          this.html((tok as Tokens.HTML).text, depth)
          break
        default:
          // space, hr, def (link reference definitions: only URLs), checkbox
          break
      }
    }
  }

  private item(item: Tokens.ListItem, depth: number, quote: string | null): void {
    const own: Token[] = []
    const nested: Token[] = []
    for (const t of item.tokens)
      (t.type === 'list' || t.type === 'blockquote' || t.type === 'code' || t.type === 'heading' ? nested : own).push(t)
    const text = own
      .map((t) =>
        'tokens' in t && t.tokens ? inline(t.tokens, '') : 'text' in t ? decodeEntities(String(t.text)) : ''
      )
      .join(' ')
    const lead = own[0] && 'tokens' in own[0] ? leadIn(own[0].tokens) : ''
    // Only an item with a sub-list can be a label ('' is none).
    const label = nested.some((t) => t.type === 'list') ? squash(text).replace(/:$/, '') : ''
    if (looksLikeLabel(label)) {
      // `* SECURITY` / `- **LDAP:**` with sub-items: a heading written as a list item.
      const saved = this.stack.slice()
      this.heading(label, 7 + depth)
      this.blocks(nested, depth, quote)
      this.stack = saved
      return
    }
    this.emit(quote !== null ? 'quote' : 'item', text, depth, lead, quote ?? '')
    if (nested.length > 0) this.blocks(nested, depth, quote)
  }

  /** Block HTML: headings, list items and paragraphs by their tags, the rest as text. */
  private html(raw: string, depth: number): void {
    const marked = raw
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<h([1-6])\b[^>]*>/gi, '\n\u0001$1 ')
      .replace(/<\/h[1-6]\s*>/gi, '\n')
      .replace(/<li\b[^>]*>/gi, '\n\u0002 ')
      // A generic element that says what kind of change it holds (`<change type="security">`): an item with a label.
      .replace(
        /<(?!li\b|input\b|button\b|script\b|style\b)[a-z][\w:-]{0,30}\b[^<>]{0,200}?\btype="([\w -]{1,30})"[^<>]{0,200}>/gi,
        '\n\u0002 [$1] '
      )
      .replace(/<\/?(?:para|change|changes|entry|item|section|release|description)\b[^>]*>/gi, '\n')
      .replace(/<(?:br|p|div|tr|\/p|\/div|\/li|\/tr|\/ul|\/ol|summary|\/summary)\b[^>]*>/gi, '\n')
      // A label from a type attribute heads the text that follows it.
      .replace(/(\u0002 \[[\w -]{1,30}\] )\s+/g, '$1')
    for (const line of marked.split('\n')) {
      const text = stripTags(line)
      if (text.trim() === '') continue
      if (text.startsWith('\u0001')) this.heading(text.slice(2), Number(text[1]) || 6)
      else if (text.startsWith('\u0002')) this.emit('item', text.slice(1), depth + 1)
      else this.emit('paragraph', text, depth)
    }
  }
}

/** Plain text of inline tokens: link text kept, targets, images and tags dropped. */
export function inline(tokens: Token[] | undefined, fallback: string): string {
  if (!tokens) return decodeEntities(fallback)
  let out = ''
  for (const t of tokens) {
    switch (t.type) {
      case 'text':
        out += 'tokens' in t && t.tokens ? inline(t.tokens, t.text) : decodeEntities(t.text)
        break
      case 'escape':
      case 'codespan':
        out += decodeEntities(t.text)
        break
      case 'strong':
      case 'em':
      case 'del':
      case 'link':
        out += inline(t.tokens, t.text)
        break
      case 'br':
        out += ' '
        break
      case 'html':
        out += stripTags(t.text)
        break
      case 'image':
      case 'checkbox':
        break
      default:
        out += 'text' in t && typeof t.text === 'string' ? decodeEntities(t.text) : ''
    }
  }
  return out
}

/** Text of a bold or italic run that opens a paragraph or item, '' when none. */
function leadIn(tokens: Token[] | undefined): string {
  if (!tokens) return ''
  for (const t of tokens) {
    if (t.type === 'text' && t.text.trim() === '') continue
    if (t.type === 'text' && 'tokens' in t && t.tokens) return leadIn(t.tokens)
    if (t.type === 'strong' || t.type === 'em') return squash(inline(t.tokens, t.text))
    return ''
  }
  return ''
}

/**
 * Emphasis delimiters past which they are escaped before lexing. Real notes have a few
 * hundred at most; tens of thousands (`*_a` repeated) make marked's inline pass take
 * seconds. Escaped, they stay in the text as plain characters.
 */
export const EMPHASIS_CAP = 2_000

function defuseEmphasis(text: string): string {
  // A text no longer than the cap cannot pass it; counting (by indexOf, the fast scan) stops once past it.
  if (text.length <= EMPHASIS_CAP) return text
  let n = 0
  for (const d of ['*', '_', '~']) {
    for (let i = text.indexOf(d); i >= 0 && n <= EMPHASIS_CAP; i = text.indexOf(d, i + 1)) n++
  }
  return n > EMPHASIS_CAP ? text.replace(/[*_~]/g, '\\$&') : text
}

/**
 * Text in which marked's inline pass can find something other than plain text: escapes, code,
 * emphasis, links and images, HTML, entities, hard breaks and GFM's autolinks.
 */
const INLINE_MARKUP = /[\\`*_~[\]!<&@]| {2}\n|:\/\/|www\./

/**
 * marked's Lexer.lex, but text without inline markup becomes its one text token without running the
 * inline pass: the same units on every real note, and about 10% less lexing time (4 in 10 of the
 * notes' paragraphs, items and headings are plain text).
 */
function lex(src: string): Token[] {
  const lexer = new Lexer({ gfm: true })
  const tokens = lexer.blockTokens(src.replace(/\r\n|\r/g, '\n'), [])
  for (const next of lexer.inlineQueue) {
    if (INLINE_MARKUP.test(next.src)) lexer.inlineTokens(next.src, next.tokens)
    else if (next.src !== '') next.tokens.push({ type: 'text', raw: next.src, text: next.src, escaped: false })
  }
  return tokens
}

/** Parse cleaned notes into units. Never throws: unparseable input yields its plain text. */
export function parseUnits(text: string): Unit[] {
  const w = new Walker()
  let tokens: Token[]
  try {
    tokens = lex(defuseEmphasis(text))
  } catch {
    // The lexer is total on every input we have tried; if it ever is not, read lines.
    return text
      .split('\n')
      .map((line) => squash(stripTags(line)).slice(0, MAX_UNIT_TEXT))
      .filter((line) => line !== '')
      .slice(0, MAX_UNITS)
      .map((line) => ({ kind: 'paragraph' as const, text: line, depth: 0, section: null, lead: '', alert: '' }))
  }
  w.blocks(tokens, 0, null)
  return w.units
}
