// The whole-tree write the tests use: StagedTree opened, filled and committed in one call
// (the build drives StagedTree itself, file by file).
import { StagedTree, type SiteFile } from '../../src/output/write-tree.js'

/**
 * Write `files` as the complete content of `outDir`. Files may be produced
 * lazily (a generator), so a large site is never held in memory whole.
 * `check` runs on the staged tree before the swap; if it (or anything else)
 * throws, `outDir` is untouched.
 */
export async function writeTree(
  outDir: string,
  files: Iterable<SiteFile>,
  check: () => void | Promise<void> = () => {}
): Promise<number> {
  const tree = await StagedTree.open(outDir)
  try {
    // Each file is written as it is produced, so none outlives its own write.
    for (const [rel, content] of files) tree.write(rel, content)
    return await tree.commit(check)
  } finally {
    await tree.discard()
  }
}
