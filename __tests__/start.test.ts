// `npm start` as a new user runs it: a clone of the project's files in a folder of its own, with or without the
// team's data set beside it. The script builds with the notes it can get and serves the site on a free port.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { spawn, spawnSync } from 'node:child_process'
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { it as withData } from './support/needs-shared-data.js'
import { RELEASE_NOTES } from './support/shared-data.js'
import { tempDir } from './support/tmp.js'

let dir: string
let cleanup: () => Promise<void>

/** A clone: what `npm start` reads (its script, the CLI bundle, the catalog), copied to `<dir>/<name>`. */
async function clone(name: string): Promise<string> {
  const root = path.join(dir, name)
  for (const p of ['scripts/start.mjs', 'dist/cli', 'catalog', 'demo', 'package.json'])
    await cp(p, path.join(root, p), { recursive: true })
  return root
}

/** Runs `node scripts/start.mjs --port N` (0: any free port) until it serves; returns what it said and the site's address. */
async function start(
  root: string,
  env: NodeJS.ProcessEnv,
  port = 0
): Promise<{ said: string; origin: string; stop: () => void }> {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', String(port)], { cwd: root, env })
  let said = ''
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no server after 120 s:\n${said}`)), 120_000)
    const read = (chunk: Buffer) => {
      said += chunk.toString()
      const m = /serving \S+ at (http:\/\/\S+)/.exec(said)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!.replace(/\/$/, ''))
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${said}`)))
  })
  // Stopped as a terminal stops it; the script passes the signal on to its server.
  return { said, origin, stop: () => child.kill('SIGINT') }
}

const env = (): NodeJS.ProcessEnv => {
  const e = { ...process.env }
  delete e.GITHUB_TOKEN
  return e
}

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-start-'))
})
afterAll(() => cleanup())

describe('npm start', () => {
  withData(
    'beside the data set: reads its notes, and serves the verdicts a build from it gives',
    async () => {
      const root = await clone('with/updatesafe')
      await mkdir(path.join(dir, 'with/shared/data/release-notes'), { recursive: true })
      await symlink(RELEASE_NOTES, path.join(dir, 'with/shared/data/release-notes/notes.jsonl'))
      // A record the data set has no notes of, as most of a large catalog's are (made-up facts).
      await writeFile(
        path.join(root, 'catalog/apps/zz-quiet.yml'),
        'name: ZZ Quiet\nrepo: example/zz-quiet\nrelease:\n  version: v1.0.0\n' +
          '  url: https://github.com/example/zz-quiet/releases/tag/v1.0.0\n  checked: 2026-11-20\n'
      )
      const s = await start(root, env())
      try {
        expect(s.said).toContain('release notes from')
        // First the apps judged from their notes, then how many more a refresh would read.
        const judged = /npm start: (\d+) of (\d+) apps judged from their release notes:\n/.exec(s.said)
        const more =
          /npm start: (\d+) more apps? without release notes read yet \(shown as unknown\): a refresh reads them/.exec(
            s.said
          )
        expect(judged).not.toBeNull()
        expect(more).not.toBeNull()
        expect(judged!.index).toBeLessThan(more!.index)
        expect(Number(judged![1]) + Number(more![1])).toBe(Number(judged![2]))
        const listed = s.said.slice(judged!.index, more!.index)
        expect(listed).toMatch(/\n {2}(safe|caution|breaking|unmaintained) +Gitea /)
        expect(listed).not.toContain('ZZ Quiet')
        const served = (await (await fetch(`${s.origin}/api/v1/apps.json`)).json()) as {
          apps: { slug: string; safeToUpdate: string }[]
        }
        // The same verdicts as the build a user would type by hand.
        const out = path.join(dir, 'by-hand')
        const r = spawnSync(
          process.execPath,
          [
            path.resolve('dist/cli/index.js'),
            'build',
            '--catalog',
            'catalog',
            '--out',
            out,
            '--notes-from',
            RELEASE_NOTES
          ],
          { encoding: 'utf8', cwd: root }
        )
        expect(r.status).toBe(0)
        const byHand = JSON.parse(await readFile(path.join(out, 'api/v1/apps.json'), 'utf8')) as typeof served
        const classes = (d: typeof served) => d.apps.map((a) => [a.slug, a.safeToUpdate])
        expect(classes(served)).toEqual(classes(byHand))
        // Most apps the data set has notes for are judged; the rest of the catalog waits for a refresh.
        const withNotes = new Set(
          (await readFile(RELEASE_NOTES, 'utf8'))
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map((l) => (JSON.parse(l) as { slug: string }).slug)
        )
        const ofNotes = served.apps.filter((a) => withNotes.has(a.slug))
        expect(ofNotes.length).toBeGreaterThan(100)
        expect(ofNotes.filter((a) => a.safeToUpdate === 'unknown').length).toBeLessThan(ofNotes.length / 5)
        expect(Number(judged![2])).toBe(served.apps.length)
      } finally {
        s.stop()
      }
    },
    240_000
  )

  it('on a port given with PORT or --port, the pages’ badge snippets and feeds name that port', async () => {
    const root = await clone('port/updatesafe')
    // A port free a moment ago: the script is given a number, as a user gives it.
    const probe = http.createServer()
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok))
    const port = (probe.address() as AddressInfo).port
    await new Promise((ok) => probe.close(ok))
    const s = await start(root, env(), port)
    try {
      expect(s.origin).toContain(`:${port}`)
      const feed = await (await fetch(`${s.origin}/feed.xml`)).text()
      expect(feed).toContain(`http://localhost:${port}/`)
      expect(feed).not.toContain('http://localhost:8080/')
    } finally {
      s.stop()
    }
  }, 120_000)

  it('alone, without a token: serves the made-up demo, and says so in the terminal and on every page', async () => {
    const root = await clone('alone/updatesafe')
    const s = await start(root, env())
    try {
      expect(s.said).toMatch(/this is the DEMO: made-up apps.*GITHUB_TOKEN.*\.\.\/shared\/data/s)
      const m = /npm start: (\d+) of (\d+) MADE-UP demo apps judged from the notes we wrote:\n/.exec(s.said)
      expect(m).not.toBeNull()
      const served = (await (await fetch(`${s.origin}/api/v1/apps.json`)).json()) as {
        apps: { slug: string; repo: string; safeToUpdate: string }[]
      }
      // Only the demo's apps, none of the real catalog's.
      expect(served.apps.every((a) => a.repo.startsWith('updatesafe-demo/'))).toBe(true)
      const judged = served.apps.filter((a) => a.safeToUpdate !== 'unknown')
      expect(judged.length).toBeGreaterThanOrEqual(8)
      // Each demo app's notes are read: an unknown one (notes that only point elsewhere) is judged too.
      expect(Number(m![1])).toBe(served.apps.length)
      for (const c of ['safe', 'caution', 'breaking']) expect(judged.some((a) => a.safeToUpdate === c)).toBe(true)
      // Every page says the apps are made up, the index and each app's own.
      for (const page of ['/', ...served.apps.map((a) => `/apps/${a.slug}/`)])
        expect(await (await fetch(`${s.origin}${page}`)).text()).toContain('Demo: these apps are made up.')
    } finally {
      s.stop()
    }
  }, 240_000)
})
