// Reads catalog/apps/*.yml into validated entries. Every problem of a run is
// collected (not just the first) and points at file, line and field, so a
// maintainer fixes a pull request in one pass and the action can annotate lines.
import { readFileSync } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import path from 'node:path'
import { CORE_SCHEMA, load as loadYamlFast } from 'js-yaml'
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml'
import { z } from 'zod'
import { ProblemsError, type Problem } from '../util/problems.js'
import { didYouMean } from '../util/suggest.js'
import { readRegularFile } from '../util/regular-file.js'
import { plausibleUntil } from '../util/dates.js'
import { imageKey } from '../util/image-key.js'
import { escapeUnsafe } from '../util/text.js'
import type { Logger } from '../util/types.js'
import { catalogEntrySchema, REPO_PATTERN, SLUG_PATTERN, type CatalogEntry } from '../schema/index.js'

/** Every problem of a catalog record names its file, line, column and (where there is one) field. */
export type CatalogIssue = Problem & { file: string; line: number; column: number }

export interface LoadedEntry {
  slug: string
  file: string
  entry: CatalogEntry
}

/** The catalog's problems, every one of the run, ordered by file. */
export function catalogError(issues: CatalogIssue[]): ProblemsError {
  const n = issues.length
  return new ProblemsError('catalog', issues, `${n} catalog error${n === 1 ? '' : 's'}`)
}

/** A problem of the catalog's apps/ folder itself: a folder has no line or column to point at. */
function folderError(dir: string, message: string): ProblemsError {
  return new ProblemsError('catalog', [{ file: dir, message }], '1 catalog error')
}

/** A record larger than this is not a catalog record; refuse to parse it. (Notes are cut to LIMITS.notes later.) */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024

const utf8 = new TextDecoder('utf-8', { fatal: true })

type Located = { line: number; column: number }

function locate(doc: Document, lc: LineCounter, fieldPath: PropertyKey[], key?: string): Located {
  // Walk down as far as the document goes; a missing field points at its parent.
  let node: unknown = doc.contents
  let range: [number, number, number] | undefined = (doc.contents as YamlNode | null)?.range ?? undefined
  for (const p of [...fieldPath, ...(key === undefined ? [] : [key])]) {
    // A list item (community.1.tags) is found by its index, so the problem points at its own line.
    if (isSeq(node) && typeof p === 'number') {
      const item = node.items[p] as YamlNode | undefined
      if (!item) break
      range = item.range ?? range
      node = item
      continue
    }
    if (!isMap(node)) break
    const pair = node.items.find((it) => isScalar(it.key) && String(it.key.value) === String(p))
    if (!pair) break
    const isLast = p === key
    const target = (isLast ? pair.key : pair.value) as YamlNode | null
    range = (target?.range ?? (pair.key as YamlNode | null)?.range) ?? range
    node = pair.value
  }
  const pos = lc.linePos(range?.[0] ?? 0)
  return { line: pos.line, column: pos.col }
}

function fieldOf(p: PropertyKey[]): string {
  return p.map(String).join('.')
}

function valueAt(data: unknown, p: PropertyKey[]): unknown {
  let v: unknown = data
  for (const k of p) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined
  return v
}

function describeZodIssue(issue: z.core.$ZodIssue, data: unknown): string {
  if (issue.code === 'invalid_type' && valueAt(data, issue.path) === undefined) return 'is required'
  // YAML reads an unquoted 1.10 as a number and true as a boolean: the usual cause of a non-string where text belongs.
  if (issue.code === 'invalid_type' && issue.expected === 'string') return `${issue.message} (write it in quotes if it is text, e.g. "1.10")`
  if (issue.code === 'invalid_type' && issue.expected === 'boolean') return `${issue.message} (write true or false)`
  return issue.message
}

/**
 * A valid record read by js-yaml, which reads records about four times faster
 * than `yaml`; undefined when js-yaml refuses the text or what it reads is not a
 * valid record. `yaml` stays the reader of record for everything else: its nodes
 * locate each problem. Both read YAML 1.2's core schema and refuse duplicate
 * keys; where they differ the record is not valid, except for a sequence used as
 * a key (`? [name]`), which js-yaml reads as its text, and a `%YAML 1.1`
 * directive, which parseRecord refuses. So any sequence, and any directive, sends
 * the text to `yaml`: most records now hold lists (categories, images, community)
 * and take that path, yet letting js-yaml read them saved only about a tenth of
 * loading 1,240 records (456 → 405 ms), not worth telling a list from a key.
 */
function validFast(text: string): CatalogEntry | undefined {
  if (text.startsWith('%') || text.startsWith('\ufeff%') || text.includes('\n%')) return undefined
  let sequence = false
  let data: unknown
  try {
    data = loadYamlFast(text, {
      schema: CORE_SCHEMA,
      listener: (event, state) => {
        if (event === 'close' && state.kind === 'sequence') sequence = true
      }
    })
  } catch {
    return undefined
  }
  if (sequence) return undefined
  const parsed = catalogEntrySchema.safeParse(data)
  return parsed.success ? parsed.data : undefined
}

/**
 * The entry with fresh, flat strings: the parsers' are slices and joins of the file text, which would keep
 * every file's text alive. structuredClone copies each string's characters once (a valid entry is plain
 * data: strings, booleans, objects, no numbers), four times faster than a JSON round trip (120 → 32 ms for
 * 10,000 records).
 */
function detached(entry: CatalogEntry): CatalogEntry {
  return structuredClone(entry)
}

/**
 * Keys and list items a record may hold, nested ones included: a real record has about 10, and validation costs
 * grow with this (40,000 unknown keys took 38 s). Checked before the positional parser runs.
 */
export const MAX_RECORD_NODES = 200

function loadFast(text: string): { ok: true; data: unknown } | { ok: false } {
  try {
    return { ok: true, data: loadYamlFast(text, { schema: CORE_SCHEMA }) }
  } catch {
    return { ok: false }
  }
}

/** Keys and list items in a loaded value, counted up to just past the cap (shared alias targets count each time). */
function countNodes(value: unknown): number {
  let n = 0
  const stack: unknown[] = [value]
  while (stack.length > 0 && n <= MAX_RECORD_NODES) {
    const v = stack.pop()
    if (v === null || typeof v !== 'object') continue
    const children = Array.isArray(v) ? v : Object.values(v)
    n += children.length
    stack.push(...children.slice(0, MAX_RECORD_NODES + 1))
  }
  return n
}

/** Lines that open a top-level key: what a text js-yaml cannot read may hold at most. */
function topLevelKeyLines(text: string): number {
  let n = 0
  for (const line of text.split('\n')) if (/^[^\s#-][^:]*:/.test(line)) n++
  return n
}

/** Aliases a record may expand: a real record uses none; an alias bomb expands billions. */
const MAX_ALIAS_COUNT = 100

/**
 * A record YAML cannot resolve within its limits (an unresolved alias, an alias bomb, nesting deep enough to
 * exhaust the stack), as an issue of that file only: the other files' issues still come out.
 */
function yamlLimitIssue(e: unknown, text: string, file: string): CatalogIssue {
  const message = e instanceof Error ? e.message.split('\n')[0]! : String(e)
  const alias = /Unresolved alias[^:]*: (\S+)/.exec(message)
  if (alias) {
    const line = text.split('\n').findIndex((l) => l.includes(`*${alias[1]}`)) + 1
    return { file, line: Math.max(line, 1), column: 1, message: `YAML: unresolved alias *${alias[1]} (its anchor &${alias[1]} must come first)` }
  }
  if (/alias count/i.test(message)) {
    return { file, line: 1, column: 1, message: `YAML: aliases expand to more than ${MAX_ALIAS_COUNT} nodes (a resource exhaustion attack?); a record needs none` }
  }
  if (e instanceof RangeError) return { file, line: 1, column: 1, message: 'YAML: nested too deeply to read' }
  return { file, line: 1, column: 1, message: `YAML: ${message}` }
}

/** Validate one record's text; returns the entry or the issues found. */
/** The keys a record may hold in the mapping at `at` (the record itself for []), from the schema. */
function keysAt(at: readonly PropertyKey[]): string[] {
  const unwrap = (t: z.ZodType): z.ZodType => (t instanceof z.ZodOptional || t instanceof z.ZodNullable ? unwrap(t.unwrap() as z.ZodType) : t)
  let schema: z.ZodType = catalogEntrySchema
  for (const step of at) {
    const object = unwrap(schema)
    const next = object instanceof z.ZodObject && typeof step === 'string' ? (object.shape as Record<string, z.ZodType>)[step] : undefined
    if (!next) return []
    schema = next
  }
  const object = unwrap(schema)
  return object instanceof z.ZodObject ? Object.keys(object.shape) : []
}

export function parseRecord(text: string, file: string): { entry?: CatalogEntry; issues: CatalogIssue[]; repo?: string } {
  const fast = validFast(text)
  if (fast) return { entry: detached(fast), issues: [] }
  // Bound the work before the positional parser, whose duplicate-key check compares every pair of keys.
  const loaded = loadFast(text)
  const nodes = loaded.ok ? countNodes(loaded.data) : topLevelKeyLines(text)
  if (nodes > MAX_RECORD_NODES) {
    return { issues: [{ file, line: 1, column: 1, message: `has more than ${MAX_RECORD_NODES} keys and list items; a record has about 10` }] }
  }
  const lc = new LineCounter()
  let doc: Document
  try {
    // js-yaml refuses duplicate keys, so when it read the text the pairwise check is not needed again.
    doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: !loaded.ok })
  } catch (e) {
    return { issues: [yamlLimitIssue(e, text, file)] }
  }
  const issues: CatalogIssue[] = []
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const pos = lc.linePos(e.pos[0])
      // The yaml package names its own API for a second document; a maintainer needs to know what to remove.
      const message =
        e.code === 'MULTIPLE_DOCS'
          ? 'holds more than one YAML document (a second --- line); a record is one document'
          : `YAML syntax error: ${e.message.split('\n')[0]}`
      issues.push({ file, line: pos.line, column: pos.col, message })
    }
    return { issues }
  }
  // `yaml` obeys `%YAML 1.1`, which reads yes/no/on/off as booleans and 2026-11-21 as a date: records are 1.2 only.
  if (doc.directives?.yaml.version !== '1.2') {
    const line = text.split('\n').findIndex((l) => l.startsWith('%YAML')) + 1
    return { issues: [{ file, line: Math.max(line, 1), column: 1, message: `records are YAML 1.2; remove the %YAML ${doc.directives?.yaml.version} line` }] }
  }
  let data: unknown
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (e) {
    return { issues: [yamlLimitIssue(e, text, file)] }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { issues: [{ file, line: 1, column: 1, message: 'must be a YAML mapping of fields (name, repo, …)' }] }
  }
  const parsed = catalogEntrySchema.safeParse(data)
  if (parsed.success) return { entry: detached(parsed.data), issues }
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const at = locate(doc, lc, issue.path, key)
        const hint = didYouMean(key, keysAt(issue.path))
        const message = isNotesKey(issue.path, key)
          ? NOTES_REFUSED
          : hint
            ? `unknown key; did you mean \`${hint}\`? (every field is in docs/catalog.md)`
            : 'unknown key (check the spelling; every field is in docs/catalog.md)'
        issues.push({ file, ...at, field: fieldOf([...issue.path, key]), message })
      }
      continue
    }
    const at = locate(doc, lc, issue.path)
    issues.push({ file, ...at, field: fieldOf(issue.path), message: describeZodIssue(issue, data) })
  }
  // A well-formed repo of an invalid record still counts for duplicates, so one run reports both problems.
  const repo = (data as { repo?: unknown }).repo
  return typeof repo === 'string' && REPO_PATTERN.test(repo) ? { issues, repo } : { issues }
}

/**
 * One image (by every spelling: `foo/x`, `docker.io/foo/x`) claimed by two records, neither archived: `check` would
 * judge one service as two apps. An archived app and the project that goes on publishing its image may share it.
 */
function sharedImages(entries: readonly LoadedEntry[]): CatalogIssue[] {
  const owner = new Map<string, { file: string; image: string }>()
  const out: CatalogIssue[] = []
  for (const { file, entry } of entries) {
    if (entry.archived) continue
    const names = [...(entry.images ?? []), ...(entry.community ?? []).map((c) => c.image)]
    for (const key of new Set(names.map(imageKey))) {
      const image = names.find((n) => imageKey(n) === key)!
      const first = owner.get(key)
      if (!first) {
        owner.set(key, { file, image })
        continue
      }
      out.push(
        { file, line: keyLine(file, [], 'images'), column: 1, field: 'images', message: `image ${image} is already mapped by ${first.file} (as ${first.image}): one image, one app` },
        { file: first.file, line: keyLine(first.file, [], 'images'), column: 1, field: 'images', message: `image ${first.image} is mapped again by ${file} (as ${image})` }
      )
    }
  }
  return out
}

/** A name in lowercase words joined by single hyphens: the slug it suggests (`AdGuard_Home` → `adguard-home`). */
export function asSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** Line of a record's key (`repo`, `release.checked`), for the rare message that names it; 1 when it cannot be found. */
function keyLine(file: string, at: PropertyKey[], key: string): number {
  try {
    const lc = new LineCounter()
    const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter: lc })
    return locate(doc, lc, at, key).line
  } catch {
    return 1
  }
}
const repoLine = (file: string) => keyLine(file, [], 'repo')

/**
 * The release days of records more than a year after `today` (YYYY-MM-DD): a typo such as 2099 for 2026. Valid by
 * the schema, but no fact is read in the future, and the build's "as of" must not move there: a warning for each.
 */
export function futureDays(entries: readonly LoadedEntry[], today: string): CatalogIssue[] {
  const out: CatalogIssue[] = []
  for (const { file, entry } of entries)
    for (const key of ['checked', 'date'] as const) {
      const day = entry.release?.[key]
      if (typeof day === 'string' && day > plausibleUntil(today))
        out.push({
          file,
          line: keyLine(file, ['release'], key),
          column: 1,
          field: `release.${key}`,
          message: `${day} is more than a year after today (${today}), a typo?; the build does not count it as the catalog's "as of" day`
        })
    }
  return out
}

/**
 * Release notes are upstream's text: a record holds facts, and a build reads the notes from GitHub or a file.
 */
const NOTES_REFUSED =
  'release notes are not kept in catalog records; remove this key: a build reads the notes from GitHub ' +
  '(--refresh, with GITHUB_TOKEN) or from a JSON-lines file (--notes-from FILE)'

const isNotesKey = (path: readonly PropertyKey[], key: string) =>
  key === 'notes' && path.length === 1 && path[0] === 'release'

export type RecordRead = ReturnType<typeof parseRecord>

/** One record file's bytes, or why it cannot be a record. */
function recordBytes(file: string): { bytes: Buffer } | { issue: string } {
  // Never through a link: a link could point anywhere on the machine, and a bad record's lines are printed.
  const read = readRegularFile(file, MAX_RECORD_BYTES)
  if ('bytes' in read) return read
  switch (read.refused) {
    case 'link':
      return { issue: 'is a symbolic link; a record must be a regular file in the catalog' }
    case 'not a file':
      return { issue: 'is not a regular file' }
    case 'too large':
      return { issue: `is ${read.size} bytes; a record may be at most ${MAX_RECORD_BYTES} bytes` }
    case 'unreadable':
      return { issue: `cannot be read: ${read.code}` }
  }
}

/** Validate one record file's bytes: encoding, YAML, schema. */
function parseBytes(bytes: Buffer, file: string): RecordRead {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return { issues: [{ file, line: 1, column: 1, message: 'is not valid UTF-8 text' }] }
  }
  return parseRecord(text, file)
}

/** Read and validate one record file: size, encoding, YAML, schema. */
export function readRecord(file: string): RecordRead {
  return readRecordFile(file)
}

/** readRecord, but a record whose bytes `known` recognises is not parsed: `known` names its repository. */
function readRecordFile(file: string, known?: (bytes: Buffer) => string | null): RecordRead & { known?: true } {
  const read = recordBytes(file)
  if ('issue' in read) return { issues: [{ file, line: 1, column: 1, message: read.issue }] }
  const repo = known?.(read.bytes)
  return repo ? { issues: [], repo, known: true } : parseBytes(read.bytes, file)
}

/**
 * Records whose file the caller knows already (see pipeline/reuse.ts): given a slug and its file's bytes, the
 * repository of the record when it need not be parsed again, else null.
 */
export type KnownRecords = (slug: string, bytes: Buffer) => string | null

/** The catalog as read: records parsed, and records the caller knew (not parsed), each in file order. */
export interface CatalogRead {
  entries: LoadedEntry[]
  known: { slug: string; file: string }[]
  /** Every slug of both, in file order (the order of `entries` alone when nothing is known). */
  order: string[]
}

/**
 * Load and validate `<catalogDir>/apps/*.yml`. Throws a catalog ProblemsError with
 * every issue found; returns entries ordered by slug.
 */
export async function loadCatalog(catalogDir: string, log?: Logger): Promise<LoadedEntry[]> {
  return (await readCatalog(catalogDir, log)).entries
}

/** loadCatalog, where the records `known` recognises by their bytes are checked for duplicates but not parsed. */
export async function readCatalog(catalogDir: string, log?: Logger, known?: KnownRecords): Promise<CatalogRead> {
  const appsDir = path.join(catalogDir, 'apps')
  const issues: CatalogIssue[] = []
  let names: string[]
  try {
    // Records are read and quoted in messages, so apps/ must not lead out of the catalog.
    if ((await lstat(appsDir)).isSymbolicLink()) {
      throw folderError(appsDir, 'is a symbolic link; apps/ must be a directory in the catalog')
    }
    names = (await readdir(appsDir)).sort()
  } catch (e) {
    if (e instanceof ProblemsError) throw e
    throw folderError(appsDir, 'catalog has no apps/ directory (expected <catalog>/apps/<slug>.yml files)')
  }
  const ymlNames = names.filter((n) => n.endsWith('.yml') || n.endsWith('.yaml'))
  // Anything else is not read: say so, so a record saved as x.YML or left as x.yml.bak is not silently missing.
  // Hidden files (.gitkeep, .DS_Store) are the file system's, not the catalog's.
  const records = new Set(ymlNames)
  for (const name of names) {
    if (records.has(name) || name.startsWith('.')) continue
    // The name it would have as a record: the slug rules applied, so the hint is one that validates.
    const slug = asSlug(name.replace(/\.ya?ml$/i, ''))
    const hint = /\.ya?ml$/i.test(name) && slug ? `; records are named <slug>.yml in lower case: rename it to ${escapeUnsafe(`${slug}.yml`)}` : ''
    log?.warning(`ignored: ${escapeUnsafe(name)} is not a <slug>.yml record${hint}`, { file: path.join(appsDir, name) })
  }
  if (ymlNames.length === 0) {
    throw catalogError([{ file: appsDir, line: 1, column: 1, message: 'catalog is empty: add at least one apps/<slug>.yml record' }])
  }
  const candidates: { file: string; slug: string }[] = []
  for (const name of ymlNames) {
    const file = path.join(appsDir, name)
    const slug = name.replace(/\.ya?ml$/, '')
    if (name.endsWith('.yaml')) {
      issues.push({ file, line: 1, column: 1, message: `records are named <slug>.yml; rename to ${slug}.yml` })
      continue
    }
    if (!SLUG_PATTERN.test(slug)) {
      issues.push({ file, line: 1, column: 1, message: `file name "${escapeUnsafe(name)}" is not a valid slug: use lowercase letters, digits and single hyphens (e.g. "adguard-home.yml")` })
      continue
    }
    candidates.push({ file, slug })
  }
  const read = candidates.map(({ file, slug }) => readRecordFile(file, known && ((bytes) => known(slug, bytes))))
  const loaded: LoadedEntry[] = []
  const knownRead: CatalogRead['known'] = []
  const order: string[] = []
  const repos = new Map<string, { file: string; repo: string }>()
  candidates.forEach(({ file, slug }, i) => {
    const { entry, issues: recordIssues, repo = entry?.repo, known: isKnown } = read[i]!
    issues.push(...recordIssues)
    if (repo === undefined) return
    // GitHub treats owner/name case-insensitively, so `Foo/Bar` and `foo/bar` are one repo.
    const key = repo.toLowerCase()
    const seen = repos.get(key)
    if (seen !== undefined) {
      issues.push({ file, line: repoLine(file), column: 1, field: 'repo', message: `repository ${repo} is already tracked by ${seen.file}:${repoLine(seen.file)}` })
      // Both records are named: which of the two was added (the file a pull request changed) only the reader knows.
      // Each message names the repository as its own file spells it.
      issues.push({ file: seen.file, line: repoLine(seen.file), column: 1, field: 'repo', message: `repository ${seen.repo} is tracked again by ${file}:${repoLine(file)}` })
      return
    }
    repos.set(key, { file, repo })
    if (entry) loaded.push({ slug, file, entry })
    else if (isKnown) knownRead.push({ slug, file })
    else return
    order.push(slug)
  })
  issues.push(...sharedImages(loaded))
  for (const { file, slug, entry } of loaded) {
    const successor = entry.successor?.toLowerCase()
    if (successor === entry.repo.toLowerCase() || successor === slug)
      issues.push({ file, line: keyLine(file, [], 'successor'), column: 1, field: 'successor', message: `names the app itself; a successor is the project that replaces it (owner/name)` })
  }
  // In file order, as a maintainer reads them (names sort the same way as paths in one folder).
  if (issues.length > 0) throw catalogError(issues.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)))
  return { entries: loaded, known: knownRead, order }
}
