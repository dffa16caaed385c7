// What a worker thread does: the CPU-heavy steps of a large build, each a pure
// function of its message so the same code runs in-process for small builds.
import { readRecord, type RecordRead } from '../catalog/load.js'
import { classifyReleases, type ClassifyInput, type Judgement } from '../classify/classifier.js'
import type { SiteFile } from '../output/write-tree.js'
import { runWrite } from './write.js'

export type Task =
  | { kind: 'load'; files: string[] }
  | { kind: 'classify'; inputs: ClassifyInput[] }
  | { kind: 'write'; files: SiteFile[] }

export interface TaskResults {
  load: RecordRead[]
  classify: Judgement[]
  write: number
}

/**
 * Read records and classify their seed releases, dropping the notes: they are
 * never published, so they need not travel or wait for the rest. All records
 * are read first, then all seeds judged: interleaving the YAML parser and the
 * classifier record by record ran about 20% slower.
 */
export function loadRecords(files: string[]): RecordRead[] {
  return files.map(readRecord).map((read) => {
    const release = read.entry?.release
    if (!read.entry || !release || release.notes === undefined) return read
    const judged = classifyReleases({
      releases: [{ version: release.version, notes: release.notes }],
      archived: read.entry.archived ?? false
    })
    release.notes = ''
    return { ...read, judged }
  })
}

export function runTask(task: Task): TaskResults[Task['kind']] {
  switch (task.kind) {
    case 'load':
      return loadRecords(task.files)
    case 'classify':
      return task.inputs.map(classifyReleases)
    case 'write':
      return runWrite(task)
  }
}
