// Which groups of key words occur in a text, in one pass over it. The rules guard their
// costly patterns with key words; an `includes` per key scanned each unit once per key.
// This is an Aho–Corasick automaton: one table step per character, whatever the keys.

/** Characters the keys may use; any other character of a text ends every partial match. */
const ALPHABET = 128

/** Groups per word of the scanner's result (bits 0–30 of a small integer). */
export const GROUPS_PER_WORD = 31

/**
 * Build a scanner for groups of ASCII keys. It returns the bit sets of the groups with a key
 * in `text`, 31 groups a word (bit i of word w for `groups[w * 31 + i]`): exactly what
 * `groups[g].some((key) => text.includes(key))` says for each group, in one pass over the text.
 */
export function groupScanner(groups: readonly (readonly string[])[]): (text: string) => number[] {
  const W = Math.max(1, Math.ceil(groups.length / GROUPS_PER_WORD))
  // The trie of the keys; `ends[s]` is the groups whose key ends at state s.
  const trie: Map<number, number>[] = [new Map()]
  const ends: number[][] = [new Array<number>(W).fill(0)]
  groups.forEach((keys, g) => {
    const w = Math.floor(g / GROUPS_PER_WORD)
    const i = g % GROUPS_PER_WORD
    for (const key of keys) {
      if (!/^[\x00-\x7f]+$/.test(key)) throw new Error(`key must be non-empty ASCII: ${JSON.stringify(key)}`)
      let s = 0
      for (let j = 0; j < key.length; j++) {
        const c = key.charCodeAt(j)
        let t = trie[s]!.get(c)
        if (t === undefined) {
          t = trie.length
          trie.push(new Map())
          ends.push(new Array<number>(W).fill(0))
          trie[s]!.set(c, t)
        }
        s = t
      }
      ends[s]![w]! |= 1 << i
    }
  })
  if (trie.length > 0xffff) throw new Error('too many keys')
  // Breadth first, so that the state a character falls back to is complete before it is used.
  // A state also ends the keys that end at its fallback (the keys that are suffixes of its own).
  const step = new Uint16Array(trie.length * ALPHABET)
  const fallback = new Uint16Array(trie.length)
  const queue = [0]
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!
    const f = fallback[s]!
    if (s !== 0) for (let w = 0; w < W; w++) ends[s]![w]! |= ends[f]![w]!
    for (let c = 0; c < ALPHABET; c++) {
      const t = trie[s]!.get(c)
      const viaFallback = s === 0 ? 0 : step[f * ALPHABET + c]!
      if (t === undefined) {
        step[s * ALPHABET + c] = viaFallback
      } else {
        step[s * ALPHABET + c] = t
        fallback[t] = viaFallback
        queue.push(t)
      }
    }
  }
  if (W <= 3) {
    // Up to three words (93 groups), unrolled: one table step and three ORs per character. Padded to three words a state.
    const ends3 = Int32Array.from(ends.flatMap((e) => [e[0] ?? 0, e[1] ?? 0, e[2] ?? 0]))
    return (text: string): number[] => {
      let s = 0
      let a = 0
      let b = 0
      let d = 0
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i)
        s = c < ALPHABET ? step[s * ALPHABET + c]! : 0
        a |= ends3[3 * s]!
        b |= ends3[3 * s + 1]!
        d |= ends3[3 * s + 2]!
      }
      return [a, b, d].slice(0, W)
    }
  }
  const endsAt = Int32Array.from(ends.flat())
  return (text: string): number[] => {
    let s = 0
    const found = new Array<number>(W).fill(0)
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      s = c < ALPHABET ? step[s * ALPHABET + c]! : 0
      for (let w = 0; w < W; w++) found[w]! |= endsAt[W * s + w]!
    }
    return found
  }
}
