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
 * A copy at `dir` of the bundled catalog's curated records (an end-of-life product, override or archived flag), the
 * `also` slugs, every `every`-th other record, those `keep` picks, and the end-of-life files: the bundled catalog's
 * shapes at a size that does not grow with it. Returns the slugs copied.
 */
export async function copyCatalogSample(
  dir: string,
  {
    every = 50,
    also = [],
    keep = () => false
  }: { every?: number; also?: readonly string[]; keep?: (slug: string) => boolean } = {}
): Promise<string[]> {
  const files = (await readdir('catalog/apps')).filter((f) => f.endsWith('.yml')).sort()
  await mkdir(path.join(dir, 'apps'), { recursive: true })
  await cp('catalog/endoflife', path.join(dir, 'endoflife'), { recursive: true })
  const slugs: string[] = []
  for (const [i, file] of files.entries()) {
    const slug = file.slice(0, -'.yml'.length)
    const text = await readFile(path.join('catalog/apps', file), 'utf8')
    const curated = /^(?:lifecycle|override|archived):/m.test(text)
    if (!(keep(slug) || curated || also.includes(slug) || i % every === 0)) continue
    await writeFile(path.join(dir, 'apps', file), text)
    slugs.push(slug)
  }
  return slugs
}

/**
 * copyCatalogSample with the records whose notes the data set holds (the apps a `--notes-from` build judges): every
 * one of them, or every `judgedEvery`-th where a test needs only their shapes.
 */
export async function copyJudgedCatalog(
  dir: string,
  notesFile: string,
  { judgedEvery = 1, ...options }: { every?: number; also?: readonly string[]; judgedEvery?: number } = {}
): Promise<string[]> {
  const withNotes = new Set(
    (await readFile(notesFile, 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as { slug: string }).slug)
  )
  const picked = new Set([...withNotes].sort().filter((_, i) => i % judgedEvery === 0))
  return copyCatalogSample(dir, { ...options, keep: (slug) => picked.has(slug) })
}
