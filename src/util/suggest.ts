// "Did you mean …?" for a misspelt key: the nearest known name by edit distance.

/** Optimal string alignment distance (Levenshtein plus adjacent swaps), stopping early past `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prev2: number[] = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1)
      row.push(d)
      best = Math.min(best, d)
    }
    if (best > max) return max + 1
    prev2 = prev
    prev = row
  }
  return prev[b.length]!
}

/** Spelling aside: `tag_prefix`, `TagPrefix` and `tag-prefix` all mean `tagPrefix`. */
const loose = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '')

/**
 * The known name `key` most likely misspells, or null when none is close: the same name in another case or
 * separator style, else the nearest within 2 edits (1 for names of 4 characters or fewer).
 */
export function didYouMean(key: string, known: readonly string[]): string | null {
  if (key.length > 64) return null
  const same = known.find((k) => loose(k) === loose(key))
  if (same !== undefined) return same
  const max = key.length <= 4 ? 1 : 2
  let best: string | null = null
  let bestDistance = max + 1
  for (const k of known) {
    const d = editDistance(loose(key), loose(k), max)
    if (d < bestDistance) [best, bestDistance] = [k, d]
  }
  return best
}
