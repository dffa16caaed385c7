// The one way every JSON file we write is serialised: two-space indent and a
// final newline, so files are readable, diff well and are byte-stable.
export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

/**
 * A document as toJson writes it, kept as the texts of one top-level array's elements and what surrounds them.
 * JSON.stringify builds a large text in parts and then copies them into one string: for the catalog of a
 * 10,000-app build (10.5 MB) that held about 55 MB of heap at once, the peak of the whole build on Node 24.
 * Element by element, each is small, and the output check parses them one at a time too.
 */
export interface SplitJson {
  /** From the start up to and including the array's `[`. */
  readonly head: string
  /** Each element's text at its depth in the document (indented by two levels). */
  readonly elements: readonly string[]
  /** From the array's `]` to the end. */
  readonly tail: string
}

export function isSplitJson(content: unknown): content is SplitJson {
  return typeof content === 'object' && content !== null && 'elements' in content
}

/** `value` as toJson writes it, with its top-level array `key` split into its elements (see joinJson). */
export function splitJson(value: Readonly<Record<string, unknown>>, key: string): SplitJson {
  const items = value[key]
  if (!Array.isArray(items)) throw new TypeError(`${key} is not an array`)
  // A top-level key is the only one indented by exactly two spaces, and no JSON string holds a line break.
  const outline = toJson({ ...value, [key]: [] })
  const marker = `\n  ${JSON.stringify(key)}: [`
  const at = outline.indexOf(marker) + marker.length
  if (at < marker.length) throw new TypeError(`${key} is not a top-level key`)
  // JSON.stringify writes an element it cannot represent (undefined, a function) in an array as null.
  const elements = items.map(
    (item: unknown) => `    ${(JSON.stringify(item, null, 2) ?? 'null').replaceAll('\n', '\n    ')}`
  )
  return { head: outline.slice(0, at), elements, tail: outline.slice(at) }
}

/** The UTF-8 bytes of a split document: those of toJson on the value it was split from. */
export function joinJson({ head, elements, tail }: SplitJson): Buffer {
  if (elements.length === 0) return Buffer.from(head + tail)
  const open = '\n'
  const between = ',\n'
  const close = '\n  '
  let size = Buffer.byteLength(head) + open.length + close.length + Buffer.byteLength(tail)
  size += between.length * (elements.length - 1)
  for (const e of elements) size += Buffer.byteLength(e)
  const bytes = Buffer.allocUnsafe(size)
  let at = bytes.write(head)
  at += bytes.write(open, at)
  for (const [i, e] of elements.entries()) {
    if (i > 0) at += bytes.write(between, at)
    at += bytes.write(e, at)
  }
  at += bytes.write(close, at)
  bytes.write(tail, at)
  return bytes
}
