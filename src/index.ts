// Action entry (dist/index.js): everything lives in ./action.ts.
import { fileURLToPath } from 'node:url'
import { runAction } from './action.js'
import { limitHeapGrowth, needsSmallYoungGeneration, rerunWithSmallYoungGeneration } from './util/heap.js'

limitHeapGrowth()

if (needsSmallYoungGeneration()) {
  process.exitCode = await rerunWithSmallYoungGeneration(fileURLToPath(import.meta.url), process.argv.slice(2))
} else {
  await runAction(process.env, process.cwd())
}
