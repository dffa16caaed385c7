// `npm start`: build the bundled catalog and serve it, with release notes from wherever they can be had.
//   1. the team's data set beside the checkout (../shared/data/release-notes/notes.jsonl), read in place;
//   2. else GitHub, when GITHUB_TOKEN is set (build --refresh);
//   3. else the catalog's records alone: every app is published "unknown" until its notes are read, and the
//      terminal and the index page say how to get them.
// PORT (or --port) picks the port; anything else after `npm start --` goes to `serve`.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cli = path.join(root, 'dist/cli/index.js')
const dataSet = path.resolve(root, '../shared/data/release-notes/notes.jsonl')

const source = existsSync(dataSet)
  ? { args: ['--notes-from', path.relative(process.cwd(), dataSet)], says: `release notes from ${dataSet}` }
  : process.env.GITHUB_TOKEN
    ? { args: ['--refresh'], says: 'release notes from GitHub (GITHUB_TOKEN is set)' }
    : {
        args: [],
        says:
          'no release notes: every app shows "unknown". For verdicts, set GITHUB_TOKEN (any token that reads ' +
          'public repositories) or put the updatesafe data set at ../shared/data beside this checkout, then run npm start again'
      }
console.error(`npm start: ${source.says}`)

const built = spawnSync(process.execPath, [cli, 'build', '--catalog', 'catalog', '--out', 'site', ...source.args], {
  cwd: root,
  stdio: 'inherit'
})
if (built.status !== 0) process.exit(built.status ?? 1)

// The server runs until it is stopped: a signal to this script stops it too.
const server = spawn(process.execPath, [cli, 'serve', '--dir', 'site', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit'
})
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
