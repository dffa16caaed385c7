// The files `check --manifest` reads: Kubernetes manifests, Helm values, Flux HelmReleases, Kustomize
// `images:`, Dockerfiles and `.env` files, as the PR gate reads them (file-kinds.ts), named one by one or
// as a folder. A file named is read whatever its name (anything not a Dockerfile or `.env` as YAML), and
// one that cannot be read is a bad input; in a folder only files of those kinds are read, hidden folders
// and `node_modules` skipped, links never followed, and a file that cannot be read is listed as not
// read: a Helm chart's templates are not YAML until rendered.
import { readdirSync, statSync, type Dirent } from 'node:fs'
import path from 'node:path'
import { problem } from '../util/problems.js'
import { codeOf, readRegularText } from '../util/regular-file.js'
import { kindOf, readRefs } from './file-kinds.js'
import type { FoundRef } from './refs.js'

/** A file past this is no manifest anyone reviews (refs.ts reads no more). */
const MAX_BYTES = 1024 * 1024
/** Files one `check` reads from folders; past it the folder is too wide to mean one deployment. */
export const MAX_FILES = 5000
const MAX_DEPTH = 32

/** The files of readable kinds under `dir`, in name order; links and hidden folders are not entered. */
function filesUnder(dir: string, depth: number, out: string[], max: number): void {
  if (depth > MAX_DEPTH) return
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch (e) {
    throw problem('bad-input', `the folder cannot be read (${codeOf(e)})`, { file: dir })
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const e of entries) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) {
      if (!e.name.startsWith('.') && e.name !== 'node_modules') filesUnder(p, depth + 1, out, max)
    } else if (e.isFile() && kindOf(e.name) !== 'other') {
      if (out.length >= max)
        throw problem(
          'bad-input',
          `--manifest: more than ${max} YAML files, Dockerfiles and .env files under the folders given; name the folders of what you deploy`
        )
      out.push(p)
    }
  }
}

/**
 * Every image reference in the files and folders named, in the order named; a file of a folder that could not be
 * read is a reference at line 0 with no image, saying why.
 */
export function readManifests(named: readonly string[], opts: { maxFiles?: number } = {}): FoundRef[] {
  const refs: FoundRef[] = []
  const found: string[] = []
  for (const p of named) {
    let folder = false
    try {
      folder = statSync(p).isDirectory()
    } catch {
      // Not there, or not readable: readRegularText below says which.
    }
    if (!folder) {
      const read = readRegularText(p, MAX_BYTES, { followLinks: true })
      if ('problem' in read) throw problem('bad-input', read.problem, { file: p })
      const got = readRefs(p, kindOf(p), read.text)
      if ('unreadable' in got) throw problem('bad-input', got.unreadable, { file: p })
      refs.push(...got.refs)
      continue
    }
    const start = found.length
    filesUnder(p, 0, found, opts.maxFiles ?? MAX_FILES)
    for (const file of found.slice(start)) {
      const read = readRegularText(file, MAX_BYTES)
      const got = 'problem' in read ? { unreadable: read.problem } : readRefs(file, kindOf(file), read.text)
      if ('unreadable' in got)
        refs.push({ file, line: 0, image: null, field: '', unreadable: `not read: it ${got.unreadable}` })
      else refs.push(...got.refs)
    }
  }
  return refs
}
