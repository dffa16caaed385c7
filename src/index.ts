// Action entry (dist/index.js): everything lives in ./action.ts, imported only in the process that runs the
// action (a process that only runs itself again does not load the program).
import { fileURLToPath } from 'node:url'
import { limitHeapGrowth, needsSmallYoungGeneration, rerunWithSmallYoungGeneration } from './util/heap.js'

limitHeapGrowth()

if (needsSmallYoungGeneration()) {
  process.exitCode = await rerunWithSmallYoungGeneration(fileURLToPath(import.meta.url), process.argv.slice(2))
} else {
  await (await import('./action.js')).runAction(process.env, process.cwd())
}
