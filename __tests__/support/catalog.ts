// Small catalogs written at test time.
import { mkdir, writeFile } from 'node:fs/promises'
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
