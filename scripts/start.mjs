// `npm start`: build the bundled catalog and serve it, with release notes from wherever they can be had.
//   1. the team's data set beside the checkout (../shared/data/release-notes/notes.jsonl), read in place;
//   2. else GitHub, when GITHUB_TOKEN is set (build --refresh);
//   3. else the demo (demo/README.md): made-up apps with notes we wrote, so a fresh clone shows every class. The
//      terminal and every page say they are made up, and how to see real ones.
// PORT (or --port) picks the port; anything else after `npm start --` goes to `serve`.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
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
        catalog: 'demo/catalog',
        args: ['--notes-from', 'demo/notes.jsonl', '--demo'],
        says:
          'no release notes and no token, so this is the DEMO: made-up apps with release notes we wrote (demo/README.md). ' +
          'To see the real catalog, set GITHUB_TOKEN (any token that reads public repositories) or put the updatesafe ' +
          'data set at ../shared/data beside this checkout, then run npm start again'
      }
console.error(`npm start: ${source.says}`)

const catalog = source.catalog ?? 'catalog'
// The pages' badge snippets and feed links name the address they are served at: the port serve is given.
const argv = process.argv.slice(2)
const portAt = argv.indexOf('--port')
const port = (portAt >= 0 ? argv[portAt + 1] : undefined) ?? process.env.PORT
const baseUrl = port && /^[1-9]\d{0,4}$/.test(port) ? ['--base-url', `http://localhost:${port}`] : []
const built = spawnSync(
  process.execPath,
  [cli, 'build', '--catalog', catalog, '--out', 'site', ...baseUrl, ...source.args],
  {
    cwd: root,
    stdio: 'inherit'
  }
)
if (built.status !== 0) process.exit(built.status ?? 1)
if (!source.args.includes('--refresh'))
  console.error(summary(path.join(root, 'site/api/v1/apps.json'), !!source.catalog))

// The server runs until it is stopped: a signal to this script stops it too.
const server = spawn(process.execPath, [cli, 'serve', '--dir', 'site', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit'
})
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))

/**
 * What the build made of the notes it had, for the terminal: first the apps it judged from their notes, then how
 * many more (no notes read yet: not in the data set, or no data set) a refresh would read. Names and versions come
 * from the catalog and upstream: control characters are dropped and each is cut, so none can steer the terminal.
 */
function summary(catalogFile, demo) {
  const { apps } = JSON.parse(readFileSync(catalogFile, 'utf8'))
  const clean = (s, max) =>
    String(s)
      .replace(/[\p{Cc}\p{Cf}]/gu, '')
      .slice(0, max)
  // A record whose notes were not read is unknown and pending (pipeline/assess.ts, pipeline/facts.ts).
  const unread = (a) => a.safeToUpdate === 'unknown' && a.rationale.startsWith('Assessment pending:')
  const judged = apps.filter((a) => !unread(a))
  const more = apps.length - judged.length
  const SHOWN = 200
  const lines = [
    demo
      ? `npm start: ${judged.length} of ${apps.length} MADE-UP demo apps judged from the notes we wrote:`
      : `npm start: ${judged.length} of ${apps.length} apps judged from their release notes:`
  ]
  for (const a of judged.slice(0, SHOWN))
    lines.push(`  ${clean(a.safeToUpdate, 12).padEnd(12)} ${clean(a.name, 60)} ${clean(a.latestVersion, 40)}`)
  if (judged.length > SHOWN) lines.push(`  … and ${judged.length - SHOWN} more (see the index page)`)
  if (more > 0)
    lines.push(
      `npm start: ${more} more app${more === 1 ? '' : 's'} without release notes read yet (shown as unknown): a refresh ` +
        'reads them from GitHub. Set GITHUB_TOKEN (any token that reads public repositories) and build with --refresh, ' +
        'as npm start does when the data set is not beside this checkout'
    )
  return lines.join('\n')
}
