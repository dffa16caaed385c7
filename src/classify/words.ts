// How many words a line has, and how many of them are common words of English changelogs. Notes in
// which almost no word is one of these are in another language (or junk): the detectors read English,
// and finding nothing there means nothing.
//
// A word is what WORD (below) finds: a letter, then letters, marks, apostrophes and hyphens.
// One pass over the characters, with no word string built: this ran on every line of every release, and
// matching then looking each word up in a set took a fifth of featurising time.

const COMMON = (
  'the a an and or of to in on for with from by at as is are was were be been it this that these not no new now ' +
  'add added adds adding fix fixed fixes fixing update updated updates bump bumped remove removed improve improved ' +
  'improvement improvements change changed changes support supported use used using allow allows make when if ' +
  'bug bugs feature features release version error errors issue issues more all can should will has have only into ' +
  'after before default option options config configuration security deprecated breaking docs documentation test ' +
  'tests dependency dependencies minor major patch set show list page user users file files api server client ' +
  'resolve resolves resolved revert reverts reverted upgrade upgraded crash crashes hide button first'
).split(' ')

/** The common words as a trie over a–z: state s and letter c lead to CHILD[s * 26 + c], 0 for none. */
const { CHILD, END } = (() => {
  const child: number[] = new Array<number>(26).fill(0)
  const end: boolean[] = [false]
  for (const w of COMMON) {
    if (!/^[a-z]+$/.test(w)) throw new Error(`a common word must be a–z: ${w}`)
    let s = 0
    for (let i = 0; i < w.length; i++) {
      const k = s * 26 + w.charCodeAt(i) - 97
      if (child[k] === 0) {
        child[k] = end.length
        end.push(false)
        for (let j = 0; j < 26; j++) child.push(0)
      }
      s = child[k]!
    }
    end[s] = true
  }
  return { CHILD: Int32Array.from(child), END: Uint8Array.from(end, (e) => (e ? 1 : 0)) }
})()

/** A word as countWords counts them, as a pattern: for a caller that needs the words themselves. */
export const WORD = /\p{L}[\p{L}\p{M}'’-]*/gu

const LETTER = /\p{L}/uy
const WORD_PART = /[\p{L}\p{M}'’-]/uy

/** Code units of the character at i: 2 for a surrogate pair. */
function width(s: string, i: number): number {
  const c = s.charCodeAt(i)
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1
}

/** Whether the pattern matches the (non-ASCII) character at i. */
function at(re: RegExp, s: string, i: number): boolean {
  re.lastIndex = i
  return re.test(s)
}

export interface WordCount {
  words: number
  /** Words that are common words of English changelogs. */
  common: number
}

/** Add the words of `lower` (a lower-cased line) to `into`. ASCII is tested inline; other characters by pattern. */
export function countWords(lower: string, into: WordCount): void {
  const n = lower.length
  let i = 0
  while (i < n) {
    const c = lower.charCodeAt(i)
    // A word starts at a letter.
    if (c < 128 ? !((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) : !at(LETTER, lower, i)) {
      i += c < 128 ? 1 : width(lower, i)
      continue
    }
    // The trie is followed while the word's characters are a–z; -1 once it is not a common word.
    let state = c >= 97 && c <= 122 ? CHILD[c - 97]! || -1 : -1
    let j = i + (c < 128 ? 1 : width(lower, i))
    while (j < n) {
      const d = lower.charCodeAt(j)
      if (d >= 97 && d <= 122) {
        if (state > 0) state = CHILD[state * 26 + d - 97]! || -1
        j++
      } else if (d < 128) {
        if (!((d >= 65 && d <= 90) || d === 39 || d === 45)) break
        state = -1
        j++
      } else {
        if (!at(WORD_PART, lower, j)) break
        state = -1
        j += width(lower, j)
      }
    }
    into.words++
    if (state > 0 && END[state] === 1) into.common++
    i = j
  }
}
