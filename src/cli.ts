#!/usr/bin/env node
// CLI entry: everything lives in ./commands.ts so tests can call it directly.
import { fileURLToPath } from 'node:url'
import { main } from './commands.js'
import { limitHeapGrowth, needsSmallYoungGeneration, rerunWithSmallYoungGeneration } from './util/heap.js'

limitHeapGrowth()

process.exitCode = needsSmallYoungGeneration()
  ? await rerunWithSmallYoungGeneration(fileURLToPath(import.meta.url), process.argv.slice(2))
  : await main(process.argv.slice(2))
