// Writing-thread entry (dist/writer/index.js): writes batches of files for the
// pool. A bundle without the parsers and the classifier, so a writing thread
// starts at about 10 MB instead of the 25 MB a thread of dist/worker takes.
import { serveTasks } from './workers/serve.js'
import { runWrite } from './workers/write.js'

serveTasks(runWrite)
