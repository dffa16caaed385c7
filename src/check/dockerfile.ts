// Image references in a Dockerfile (or Containerfile): each `FROM` line's image, with the `ARG`
// defaults declared before the first `FROM` filled in, as `docker build` does without
// `--build-arg`. `FROM scratch` and a `FROM` naming an earlier stage are no image. A reference an
// argument without a default decides is found but not readable, and says so.
import type { FoundRef } from './refs.js'
import { interpolate } from './interpolate.js'

/** Larger than any real Dockerfile; a file past it is not read. */
const MAX_BYTES = 1024 * 1024
/** Stages of one Dockerfile read at most: past it, the file is not one anyone reviews. */
const MAX_STAGES = 1000

/**
 * Is this file a Dockerfile, by its name, as Dependabot's docker ecosystem picks them: `Dockerfile`,
 * `Dockerfile.prod`, `app.Dockerfile`, `Containerfile` (any case).
 */
export function isDockerfile(file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1)
  return /^(?:.+[._-])?(?:docker|container)file(?:[._-].+)?$/i.test(base) && !/\.(?:md|txt|json|ya?ml)$/i.test(base)
}

interface Instruction {
  keyword: string
  args: string
  line: number
}

/** The `# escape=` parser directive, read from the directives at the top of the file; `\` by default. */
function escapeOf(lines: readonly string[]): string {
  for (const l of lines) {
    const m = /^#\s*([a-zA-Z]+)\s*=\s*(\S*)\s*$/.exec(l)
    if (!m) break // the first line that is not a directive ends them
    if (m[1]!.toLowerCase() === 'escape' && (m[2] === '`' || m[2] === '\\')) return m[2]
  }
  return '\\'
}

/**
 * The file's instructions, each with the line it starts on: continuation lines joined, comment lines
 * dropped, and here-documents (`RUN <<EOF … EOF`) skipped, so a `FROM` inside a script is not one.
 */
function instructions(text: string): Instruction[] {
  const lines = text.split(/\r?\n/)
  const escape = escapeOf(lines)
  const out: Instruction[] = []
  let i = 0
  while (i < lines.length) {
    const first = lines[i]!
    if (/^\s*(#|$)/.test(first)) {
      i++
      continue
    }
    const start = i + 1
    let joined = ''
    let line = first
    for (;;) {
      const trimmed = line.replace(/\s+$/, '')
      if (trimmed.endsWith(escape) && i + 1 < lines.length) {
        joined += trimmed.slice(0, -1)
        i++
        // Comment and empty lines inside a continued instruction are left out, as Docker does.
        while (i < lines.length && /^\s*(#|$)/.test(lines[i]!)) i++
        if (i >= lines.length) break
        line = lines[i]!
        continue
      }
      joined += trimmed
      i++
      break
    }
    const m = /^\s*(\S+)\s*([\s\S]*)$/.exec(joined)
    if (!m) continue
    out.push({ keyword: m[1]!.toUpperCase(), args: m[2]!, line: start })
    // Here-documents: their lines are a script's, not instructions.
    for (const h of joined.matchAll(/<<(-?)(["']?)([A-Za-z_][\w]*)\2/g)) {
      const word = h[3]!
      while (i < lines.length && (h[1] ? lines[i]!.trim() : lines[i]!) !== word) i++
      i++
    }
  }
  return out
}

/** Whitespace-separated words, a quoted word kept whole (its quotes removed). */
function words(args: string): string[] {
  const out: string[] = []
  for (const m of args.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!)
  return out
}

/**
 * Every image a Dockerfile's `FROM` lines name, in the file's order, or why the file cannot be read.
 * `field` is `FROM (stage NAME)`, or `FROM (stage N)` for a stage without a name; `line` is the `FROM`
 * line, or the `ARG` line whose default gives the reference its tag when an argument does.
 */
export function readDockerfileRefs(file: string, text: string): { refs: FoundRef[] } | { unreadable: string } {
  if (text.length > MAX_BYTES) return { unreadable: `is larger than the ${MAX_BYTES / (1024 * 1024)} MiB read` }
  if (text.includes('\0')) return { unreadable: 'holds a NUL byte: it is not a text file' }
  const args = new Map<string, { value: string | undefined; line: number }>()
  const stages = new Set<string>()
  const refs: FoundRef[] = []
  let stage = 0
  let env: Record<string, string | undefined> | undefined
  for (const ins of instructions(text)) {
    if (ins.keyword === 'ARG' && stage === 0) {
      // Only arguments declared before the first FROM apply to FROM lines.
      for (const w of words(ins.args)) {
        const eq = w.indexOf('=')
        const name = eq < 0 ? w : w.slice(0, eq)
        if (/^[A-Za-z_]\w*$/.test(name)) args.set(name, { value: eq < 0 ? undefined : w.slice(eq + 1), line: ins.line })
      }
      continue
    }
    if (ins.keyword !== 'FROM') continue
    if (++stage > MAX_STAGES) return { unreadable: `has more than ${MAX_STAGES} FROM lines` }
    const ws = words(ins.args).filter((w) => !w.startsWith('--'))
    const written = ws[0]
    const as = ws[1]?.toLowerCase() === 'as' ? ws[2] : undefined
    const field = `FROM (stage ${as ?? stage})`
    // A stage's name counts from the next FROM on: `FROM node AS node` still pulls the image.
    const earlier = new Set(stages)
    if (as) stages.add(as.toLowerCase())
    if (!written) {
      refs.push({ file, line: ins.line, image: null, field, unreadable: 'a FROM line names no image' })
      continue
    }
    // The arguments are all declared by the first FROM: one environment serves every FROM.
    env ??= Object.fromEntries([...args].map(([k, v]) => [k, v.value]))
    const filled = interpolate(written, env)
    // The line a bump changes: the ARG of the last variable the reference uses, when it has a default.
    const used = [...written.matchAll(/\$\{?([A-Za-z_]\w*)/g)].map((m) => args.get(m[1]!))
    const argLine = used.reverse().find((a) => a?.value !== undefined)?.line
    if ('problem' in filled) {
      refs.push({
        file,
        line: ins.line,
        image: null,
        field,
        unreadable: `a build argument decides it (${written.slice(0, 120)}): ${filled.problem.split(' (')[0]}`
      })
      continue
    }
    const image = filled.value
    // `scratch` is an empty image, and an earlier stage's name is that stage: neither is pulled.
    if (image.toLowerCase() === 'scratch' || earlier.has(image.toLowerCase())) continue
    refs.push({ file, line: argLine ?? ins.line, image, field })
  }
  return { refs }
}
