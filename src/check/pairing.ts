// Which image reference of a pull request's head is an update of which one at its merge base. Renovate
// bumps a tag in place; a chart upgrade moves images to new paths (`image.name` → `image.repository`),
// a person renames a file or a service in the same commit as the bump. A reference that left one place
// and came back at another, of the same image, is that image's update, never an addition.
import { imageKey } from '../util/image-key.js'
import { parseImageRef } from './images.js'
import type { FoundRef } from './refs.js'
import type { ImageChange } from './report.js'

/** One changed file's references at the merge base and at the head; null where the file does not exist. */
export interface FileRefs {
  file: string
  before: readonly FoundRef[] | null
  after: readonly FoundRef[] | null
}

export interface Paired {
  changes: ImageChange[]
  /** Head references that pair with none at the merge base. */
  added: ImageChange[]
  /** Head references a template or an argument leaves open, new or changed since the merge base. */
  unreadable: FoundRef[]
}

interface Side {
  ref: FoundRef & { image: string }
  order: number
  used: boolean
}

/** Pairs of one image weighed at most; past it (a chart moving thousands of copies) they pair in order. */
const MAX_CANDIDATES = 100_000

const keyOf = (image: string): string => {
  const ref = parseImageRef(image)
  return ref ? imageKey(ref.name) : image
}
const tagOf = (image: string): string => {
  const ref = parseImageRef(image)
  return ref ? `${ref.tag ?? ''}@${ref.digest ?? ''}` : image
}

/**
 * How far apart two references of one image are: 0 for the same tag, small for a digest or a suffix
 * (`-alpine`) apart, then by the first version number that differs — the earlier it is, the farther.
 */
export function versionDistance(a: string, b: string): number {
  const ta = tagOf(a)
  const tb = tagOf(b)
  if (ta === tb) return 0
  const na = (ta.split('@')[0]!.match(/\d+/g) ?? []).map(Number)
  const nb = (tb.split('@')[0]!.match(/\d+/g) ?? []).map(Number)
  if (na.length === 0 || nb.length === 0) return 1e9
  let i = 0
  while (i < na.length && i < nb.length && na[i] === nb[i]) i++
  if (i === na.length || i === nb.length) return 1
  return (10 - Math.min(i, 9)) * 1e6 + Math.min(Math.abs(na[i]! - nb[i]!), 999_999)
}

/**
 * Pairs each head reference with one at the merge base, in four passes:
 * 1. the same file and field, and the same image (a tag bumped in place);
 * 2. the very same reference anywhere (it only moved: no change), the same file first;
 * 3. the same image anywhere in the pull request (moved to another key or path, or to a renamed file,
 *    or under a renamed service): the same file first, then the nearest version, then the same field,
 *    then the order written — so each of several removed references of one image goes to the added
 *    one nearest it;
 * 4. the same file and field whatever the image (a change of registry or of name in place; the catalog
 *    then says whether both are one app's).
 * A pair whose image is the same on both sides is no change (a reference that only moved).
 */
export function pairRefs(files: readonly FileRefs[]): Paired {
  const befores: Side[] = []
  const afters: Side[] = []
  const unreadable: FoundRef[] = []
  for (const f of files) {
    for (const r of f.before ?? [])
      if (r.image !== null) befores.push({ ref: r as Side['ref'], order: befores.length, used: false })
    // A reference left open the same way at the same place before is not this pull request's change.
    const openBefore = new Set(
      (f.before ?? []).filter((r) => r.image === null).map((r) => `${r.field}\0${r.unreadable}`)
    )
    for (const r of f.after ?? []) {
      if (r.image === null) {
        if (!openBefore.has(`${r.field}\0${r.unreadable}`)) unreadable.push(r)
      } else afters.push({ ref: r as Side['ref'], order: afters.length, used: false })
    }
  }
  const found: { order: number; change: ImageChange }[] = []
  const pair = (b: Side, a: Side) => {
    b.used = a.used = true
    if (b.ref.image === a.ref.image) return
    const { file, field, line, image } = a.ref
    found.push({ order: a.order, change: { file, field, line, image, baseImage: b.ref.image } })
  }
  const place = (r: FoundRef) => `${r.file}\0${r.field}`

  // 1. In place.
  const atPlace = new Map<string, Side>()
  for (const b of befores) atPlace.set(place(b.ref), b)
  for (const a of afters) {
    const b = atPlace.get(place(a.ref))
    if (b && !b.used && keyOf(b.ref.image) === keyOf(a.ref.image)) pair(b, a)
  }

  // 2. The same reference elsewhere, unchanged (it only moved): the same file first. A map, not the
  // comparisons of every pair below: a chart upgrade can move thousands of references of one image.
  const queues = (key: (r: FoundRef) => string) => {
    const q = new Map<string, { list: Side[]; next: number }>()
    for (const b of befores) {
      if (b.used) continue
      const k = key(b.ref)
      const e = q.get(k)
      if (e) e.list.push(b)
      else q.set(k, { list: [b], next: 0 })
    }
    return (a: Side): Side | undefined => {
      const e = q.get(key(a.ref))
      while (e && e.next < e.list.length && e.list[e.next]!.used) e.next++
      return e?.list[e.next]
    }
  }
  for (const next of [queues((r) => `${r.file}\0${r.image}`), queues((r) => r.image ?? '')])
    for (const a of afters) {
      if (a.used) continue
      const b = next(a)
      if (b) pair(b, a)
    }

  // 3. The same image elsewhere.
  const byKey = new Map<string, { b: Side[]; a: Side[] }>()
  for (const [list, side] of [
    [befores, 'b'],
    [afters, 'a']
  ] as const)
    for (const s of list) {
      if (s.used) continue
      const k = keyOf(s.ref.image)
      const g = byKey.get(k) ?? { b: [], a: [] }
      g[side].push(s)
      byKey.set(k, g)
    }
  for (const g of byKey.values()) {
    if (g.b.length === 0 || g.a.length === 0) continue
    if (g.b.length * g.a.length > MAX_CANDIDATES) {
      // More bumped copies of one image than anyone reviews one by one: paired in the order written.
      g.b.forEach((b, i) => g.a[i] && pair(b, g.a[i]!))
      continue
    }
    const candidates = g.b.flatMap((b) =>
      g.a.map((a) => ({
        b,
        a,
        score: [
          b.ref.file === a.ref.file ? 0 : 1,
          versionDistance(b.ref.image, a.ref.image),
          b.ref.field === a.ref.field ? 0 : 1,
          a.order,
          b.order
        ]
      }))
    )
    candidates.sort((x, y) => {
      for (let i = 0; i < x.score.length; i++) if (x.score[i] !== y.score[i]) return x.score[i]! - y.score[i]!
      return 0
    })
    for (const c of candidates) if (!c.b.used && !c.a.used) pair(c.b, c.a)
  }

  // 4. In place, whatever the image.
  for (const a of afters) {
    if (a.used) continue
    const b = atPlace.get(place(a.ref))
    if (b && !b.used) pair(b, a)
  }

  const added = afters
    .filter((a) => !a.used)
    .map((a) => ({ file: a.ref.file, field: a.ref.field, line: a.ref.line, image: a.ref.image, baseImage: '' }))
  // In the files' order, though the passes found them out of it.
  const changes = found.sort((x, y) => x.order - y.order).map((f) => f.change)
  return { changes, added, unreadable }
}
