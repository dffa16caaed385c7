// Action entry (dist/index.js): everything lives in ./action.ts.
import { runAction } from './action.js'

await runAction(process.env, process.cwd())
