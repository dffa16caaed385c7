#!/usr/bin/env node
// CLI entry: everything lives in ./commands.ts so tests can call it directly. It is imported only in the
// process that runs the command: a process that only runs itself again (below) does not load the program,
// which took about 0.4 s of every such run.
import { fileURLToPath } from 'node:url'
import { limitHeapGrowth, needsSmallYoungGeneration, rerunWithSmallYoungGeneration } from './util/heap.js'

const args = process.argv.slice(2)
limitHeapGrowth()

// Only a build holds a catalog's worth of documents; the other commands keep Node's young generation.
process.exitCode =
  args[0] === 'build' && needsSmallYoungGeneration()
    ? await rerunWithSmallYoungGeneration(fileURLToPath(import.meta.url), args)
    : await (await import('./commands.js')).main(args)
