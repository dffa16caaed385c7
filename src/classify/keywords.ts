// Which groups of key words occur in a text, in one pass over it. The rules guard their
// costly patterns with key words; an `includes` per key scanned each unit once per key.
// This is an Aho–Corasick automaton: one table step per character, whatever the keys.

/** Characters the keys may use; any other character of a text ends every partial match. */
const ALPHABET = 128

/**
 * Build a scanner for groups of ASCII keys (at most 31 groups). It returns the
 * bit set of the groups (bit i for `groups[i]`) with a key in `text`: exactly what
 * `groups[i].some((key) => text.includes(key))` says for each group.
 */
export function groupScanner(groups: readonly (readonly string[])[]): (text: string) => number {
  if (groups.length > 31) throw new Error('at most 31 key groups')
  // The trie of the keys; `ends[s]` is the groups whose key ends at state s.
  const trie: Map<number, number>[] = [new Map()]
  const ends: number[] = [0]
  groups.forEach((keys, i) => {
    for (const key of keys) {
      if (!/^[\x00-\x7f]+$/.test(key)) throw new Error(`key must be non-empty ASCII: ${JSON.stringify(key)}`)
      let s = 0
      for (let j = 0; j < key.length; j++) {
        const c = key.charCodeAt(j)
        let t = trie[s]!.get(c)
        if (t === undefined) {
          t = trie.length
          trie.push(new Map())
          ends.push(0)
          trie[s]!.set(c, t)
        }
        s = t
      }
      ends[s]! |= 1 << i
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
    if (s !== 0) ends[s]! |= ends[f]!
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
  const endsAt = Int32Array.from(ends)
  return (text: string): number => {
    let s = 0
    let found = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      s = c < ALPHABET ? step[s * ALPHABET + c]! : 0
      found |= endsAt[s]!
    }
    return found
  }
}
