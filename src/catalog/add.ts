// `updatesafe add <owner>/<repo>`: writes a new catalog record, apps/<slug>.yml. With a way to read GitHub it
// records what GitHub says as facts (the repository's name, whether it is archived, its latest stable release:
// version, page, date, the day it was read); without, a minimal record from the arguments, which a build reads
// only with --refresh. Nothing is overwritten, and the text written is the catalog loader's to accept.
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { stringify } from 'yaml'
import { IMAGE_PATTERN, REPO_PATTERN, SLUG_PATTERN, type CatalogEntry } from '../schema/index.js'
import { factsFromSnapshot, type RepoSnapshot } from '../upstream/github/facts.js'
import { utcDay } from '../util/dates.js'
import { problem } from '../util/problems.js'
import { asSlug, parseRecord, readRecord } from './load.js'

export interface AddOptions {
  /** `<owner>/<name>` on GitHub. */
  repo: string
  /** The record's slug; default: from the repository's name. */
  slug?: string
  /** Container image names, without tag or digest. */
  images?: readonly string[]
  catalogDir: string
  now: Date
}

export interface AddResult {
  file: string
  entry: CatalogEntry
  /** Where the facts came from: GitHub, or the arguments alone (no release facts: build with --refresh). */
  from: 'github' | 'arguments'
  /** Why GitHub gave no release facts, when it was asked and gave none. */
  noRelease?: string
}

/** A name that says nothing of the app ("v2", "2", "server"): the owner names it better. */
const GENERIC_NAME = /^(?:v?\d+|server|app|core|main|backend|docker)$/i

/** The slug a repository suggests: its name (or its owner's, for a generic name), in lowercase words. */
export function slugFor(repo: string): string {
  const [owner = '', name = ''] = repo.split('/')
  return asSlug(GENERIC_NAME.test(name) ? owner : name)
}

function usage(message: string) {
  return problem('usage', message)
}

/**
 * Writes `<catalogDir>/apps/<slug>.yml`. `readRepo` reads one repository from GitHub (REST), when a token is at
 * hand; a repository it cannot read stops the command (a typo in the name is better told than recorded).
 */
export async function addRecord(
  opts: AddOptions,
  readRepo?: (repo: string) => Promise<RepoSnapshot>
): Promise<AddResult> {
  if (!REPO_PATTERN.test(opts.repo)) throw usage(`"${opts.repo}" is not <owner>/<repo> (e.g. traefik/traefik)`)
  const slug = opts.slug ?? slugFor(opts.repo)
  if (!SLUG_PATTERN.test(slug))
    throw usage(
      opts.slug
        ? `--slug "${slug}" is not a slug: lowercase letters, digits and single hyphens`
        : `${opts.repo} gives no slug (lowercase letters, digits and single hyphens): give one with --slug`
    )
  for (const image of opts.images ?? [])
    if (!IMAGE_PATTERN.test(image))
      throw usage(`--image "${image}" is not an image name without tag or digest (e.g. ghcr.io/owner/name)`)
  const file = path.join(opts.catalogDir, 'apps', `${slug}.yml`)
  // Another slug for a repository the catalog has would be refused by validate: say which record to edit instead.
  const tracked = await recordOfRepo(opts.catalogDir, opts.repo)
  if (tracked) throw problem('input', `${opts.repo} is already tracked by this record; edit it`, { file: tracked })

  let repo = opts.repo
  let from: AddResult['from'] = 'arguments'
  let noRelease: string | undefined
  let archived = false
  let release: CatalogEntry['release']
  if (readRepo) {
    let snapshot: RepoSnapshot
    try {
      snapshot = await readRepo(opts.repo)
    } catch (e) {
      const status = (e as { status?: number }).status
      throw problem(
        'input',
        status === 404
          ? `GitHub has no repository ${opts.repo} that this token can see: check the name`
          : `GitHub could not be read for ${opts.repo}: ${(e as Error).message}`
      )
    }
    from = 'github'
    // A renamed repository answers under its new name: record that one.
    repo = snapshot.nameWithOwner
    archived = snapshot.archived
    const facts = factsFromSnapshot(snapshot, { repo }, { now: opts.now, maxCrossed: 1 })
    if (facts.kind === 'facts') {
      // A repository without stable releases gives its newest stable tag, as a refresh reads it.
      const f = facts.facts
      release = { version: f.version, url: f.url, ...(f.date ? { date: f.date } : {}), checked: utcDay(opts.now) }
    } else noRelease = facts.reason
  }

  const name = repo.split('/')[GENERIC_NAME.test(repo.split('/')[1] ?? '') ? 0 : 1]!
  const entry: CatalogEntry = {
    name,
    repo,
    ...(archived ? { archived: true } : {}),
    ...(opts.images && opts.images.length > 0 ? { images: [...new Set(opts.images)] } : {}),
    ...(release ? { release } : {})
  }
  const header =
    from === 'github'
      ? `# Written by \`updatesafe add\` from the GitHub API on ${utcDay(opts.now)}: facts only; edit the name freely.\n`
      : `# Written by \`updatesafe add\` from its arguments: no release facts, so build it with --refresh\n# (GITHUB_TOKEN) or --notes-from, or add a release: {version, url, checked} block.\n`
  const text = `${header}${stringify(entry, { lineWidth: 0 })}`
  // What is written must load: the catalog's own parser is the judge.
  const parsed = parseRecord(text, file)
  if (parsed.issues.length > 0 || !parsed.entry)
    throw problem('input', `the record would not be valid: ${parsed.issues.map((i) => i.message).join('; ')}`, {
      file
    })
  await mkdir(path.dirname(file), { recursive: true })
  try {
    // wx: an existing record is never replaced, even one written between a check and this write.
    await writeFile(file, text, { flag: 'wx' })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST')
      throw problem('input', `already exists; edit it, or give another --slug`, { file })
    throw e
  }
  return { file, entry: parsed.entry, from, ...(noRelease ? { noRelease } : {}) }
}

/** The record file that tracks `repo` (any case), as the catalog's reader reads each; null when none does. */
async function recordOfRepo(catalogDir: string, repo: string): Promise<string | null> {
  const dir = path.join(catalogDir, 'apps')
  let names: string[]
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.yml')).sort()
  } catch {
    return null // no catalog yet: the first record
  }
  const wanted = repo.toLowerCase()
  for (const name of names) {
    const read = readRecord(path.join(dir, name))
    if ((read.entry?.repo ?? read.repo)?.toLowerCase() === wanted) return path.join(dir, name)
  }
  return null
}
