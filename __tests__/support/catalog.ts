// Small catalogs written at test time.
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** A catalog at `dir` of one seeded record (linkding v1.46.3, checked 2026-11-01): a refresh has something to keep. */
export async function writeSeededCatalog(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'apps'), { recursive: true })
  await writeFile(
    path.join(dir, 'apps/linkding.yml'),
    'name: linkding\nrepo: sissbruecker/linkding\nrelease:\n  version: v1.46.3\n' +
      '  url: https://github.com/sissbruecker/linkding/releases/tag/v1.46.3\n  checked: 2026-11-01\n'
  )
}

/**
 * A copy at `dir` of the bundled catalog's records whose notes the data set holds (the apps a `--notes-from` build
 * judges), plus every `extra`-th other record and the end-of-life files: the bundled catalog's shapes at a size that
 * does not grow with it. Returns the slugs copied.
 */
export async function copyJudgedCatalog(dir: string, notesFile: string, extra = 50): Promise<string[]> {
  const withNotes = new Set(
    (await readFile(notesFile, 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as { slug: string }).slug)
  )
  const all = (await readdir('catalog/apps')).filter((f) => f.endsWith('.yml')).sort()
  const slugs = all.map((f) => f.slice(0, -4)).filter((s, i) => withNotes.has(s) || i % extra === 0)
  await mkdir(path.join(dir, 'apps'), { recursive: true })
  await cp('catalog/endoflife', path.join(dir, 'endoflife'), { recursive: true })
  for (const slug of slugs) await cp(`catalog/apps/${slug}.yml`, path.join(dir, 'apps', `${slug}.yml`))
  return slugs
}
