// Characters that never belong in text we publish or print: C0 and C1 controls
// (NUL, BEL, ESC, U+0085 ...), bidi controls (U+202E and its kin, which reorder what
// a reader sees) and noncharacters (U+FFFE, U+FFFF, U+FDD0..U+FDEF ...). Catalog
// text is refused with them, upstream text has them removed, and anything printed
// to a terminal (a file name above all) shows them escaped.

/** Forbidden in one-line text: newlines and tabs included. */
const UNSAFE_LINE = /[\p{Cc}\p{Bidi_Control}\p{Noncharacter_Code_Point}]/u
/** Forbidden in multi-line text (release notes): every control but line ends (CR, LF) and tab. */
const UNSAFE_BLOCK = /[^\P{Cc}\n\r\t]|[\p{Bidi_Control}\p{Noncharacter_Code_Point}]/u

const global = (re: RegExp) => new RegExp(re.source, 'gu')
const UNSAFE_LINE_ALL = global(UNSAFE_LINE)
const UNSAFE_BLOCK_ALL = global(UNSAFE_BLOCK)

/** `U+001B`: how a message names a character. */
export function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/** Why a catalog text is refused, or null when it is clean. */
export function unsafeTextProblem(text: string, multiline = false): string | null {
  const m = (multiline ? UNSAFE_BLOCK : UNSAFE_LINE).exec(text)
  if (!m) return null
  const what = multiline ? 'control characters other than line ends and tab' : 'control characters (newlines included)'
  return `must not contain ${what}, bidi controls or noncharacters: ${codePoint(m[0])} at character ${m.index + 1}`
}

/** Upstream text made safe to publish: the unsafe characters removed (line ends and tabs kept when multiline). */
export function stripUnsafe(text: string, multiline = false): string {
  return text.replace(multiline ? UNSAFE_BLOCK_ALL : UNSAFE_LINE_ALL, '')
}

/** Text made safe to print: each unsafe character but the newline shown as `\u{1b}`. */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE_LINE_ALL, (ch) => (ch === '\n' ? ch : `\\u{${ch.codePointAt(0)!.toString(16)}}`))
}

/**
 * Text made safe to print where a GitHub runner reads the output: a line that would begin, after its spaces, with
 * `::` (a workflow command: `::error::`, `::add-mask::`) gets its first colon shown escaped, as `\u{3a}`. A
 * service's name or the deciding words wrapped onto a line of their own can start one.
 */
export function noCommands(text: string): string {
  return text.replace(/^([^\S\n]*):(?=:)/gm, '$1\\u{3a}')
}

/** An upstream label (a version, a tag) in a message: quoted, its escapes visible, cut to 64 characters. */
export function quoted(label: string): string {
  return JSON.stringify(label.slice(0, 64))
}
