// The one task a writing thread runs: a batch of files into the staging tree.
import { writeFilesSync } from '../output/write-tree.js'
import type { Task } from './tasks.js'

export function runWrite(task: Task): number {
  if (task.kind !== 'write') throw new Error(`a writing thread runs only write tasks, not "${task.kind}"`)
  writeFilesSync(task.files)
  return task.files.length
}
