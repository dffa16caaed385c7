// Action entry (dist/index.js): everything lives in ./action.ts.
import { runAction } from './action.js'
import { bundledWorkers } from './workers/index.js'

await runAction(process.env, process.cwd(), bundledWorkers(import.meta.url, '.'))
