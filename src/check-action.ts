// Entry of the pull-request check action (check/action.yml → dist/check/index.js).
import { runCheckAction } from './check/action.js'

await runCheckAction(process.env, process.cwd())
