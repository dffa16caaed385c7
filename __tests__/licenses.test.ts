// scripts/licenses.mjs writes each bundle directory's licenses.txt from its
// source maps. These tests run it on a bundle directory made here, and check
// that every committed bundle names each package its source maps list.
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const SCRIPT = path.resolve('scripts/licenses.mjs')

/** Package names in source-map paths, found here without the script's code. */
function packagesInMaps(dir: string): Set<string> {
  const names = new Set<string>()
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js.map'))) {
    const { sources } = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { sources: string[] }
    for (const source of sources) {
      const m = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)
      if (m?.[1]) names.add(m[1])
    }
  }
  return names
}

/** Entry names in a licenses.txt: a name line directly after a blank line (or first). */
function entriesIn(text: string): string[] {
  const lines = text.split('\n')
  return lines.filter((line, i) => (i === 0 || lines[i - 1] === '') && /^(@[\w.-]+\/)?[a-z0-9][\w.-]*$/i.test(line))
}

function run(dir: string) {
  return spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' })
}

describe('scripts/licenses.mjs', () => {
  it('names each package of every chunk, nested copies by their own package.json, with its licence text', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'licenses-'))
    try {
      // Two chunks, as ncc writes them when it splits a bundle.
      writeFileSync(
        path.join(dir, 'index.js.map'),
        JSON.stringify({
          sources: [
            '.././src/cli.ts',
            '.././node_modules/commonmark/lib/index.js',
            '.././node_modules/zod/v4/core/api.js'
          ]
        })
      )
      writeFileSync(
        path.join(dir, '239.index.js.map'),
        JSON.stringify({
          sources: [
            '.././node_modules/@actions/github/node_modules/@actions/http-client/lib/index.js',
            '.././node_modules/sirv/build.mjs'
          ]
        })
      )
      const r = run(dir)
      expect(r.status).toBe(0)
      const text = readFileSync(path.join(dir, 'licenses.txt'), 'utf8')
      expect(entriesIn(text)).toEqual(['@actions/http-client', 'commonmark', 'sirv', 'zod'])
      expect(text).toContain(
        `commonmark\nBSD-2-Clause\n${readFileSync('node_modules/commonmark/LICENSE', 'utf8').trim().split('\n')[0]}`
      )
      // The nested copy's licence comes from the nested directory.
      const nested = readFileSync('node_modules/@actions/github/node_modules/@actions/http-client/LICENSE', 'utf8')
      expect(text).toContain(nested.trim())
      // A package without a licence file still gets an entry that says so.
      expect(text).toMatch(/^sirv\nMIT\nThe package ships no licence file; its package.json declares MIT/m)
      expect(text).not.toContain('src/cli.ts')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('writes no file for a bundle with no third-party code', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'licenses-'))
    try {
      writeFileSync(path.join(dir, 'index.js.map'), JSON.stringify({ sources: ['.././src/writer.ts'] }))
      writeFileSync(path.join(dir, 'licenses.txt'), 'stale\n')
      expect(run(dir).status).toBe(0)
      expect(readdirSync(dir)).toEqual(['index.js.map'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.each(['dist', 'dist/cli'])('the committed %s/licenses.txt names every package bundled there', (dir) => {
    const bundled = packagesInMaps(dir)
    expect(bundled.size).toBeGreaterThan(3)
    const named = new Set(entriesIn(readFileSync(path.join(dir, 'licenses.txt'), 'utf8')))
    expect([...bundled].filter((name) => !named.has(name))).toEqual([])
  })
})
