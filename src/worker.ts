// Worker-thread entry (dist/worker/index.js): serves build tasks for the pool.
// A bundle of its own, so a thread loads only what its tasks need.
import { serveTasks } from './workers/serve.js'
import { runTask } from './workers/tasks.js'

serveTasks(runTask)
