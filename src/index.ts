// Action entry (dist/index.js): everything lives in ./action.ts.
import { runAction } from './action.js'
import { bundledWorker } from './workers/index.js'

await runAction(process.env, process.cwd(), bundledWorker(import.meta.url, 'worker/index.js'))
