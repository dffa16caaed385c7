#!/usr/bin/env node
// CLI entry: everything lives in ./commands.ts so tests can call it directly.
import { main } from './commands.js'

process.exitCode = await main(process.argv.slice(2))
