// `check --manifest`'s reading of files and folders: what a folder yields and skips, what a file named
// must be, and, on the data set's real Compose files, the same images `--compose` finds.
import { afterAll, beforeAll, expect } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readComposeFile } from '../../src/check/compose.js'
import { readManifests } from '../../src/check/manifest.js'
import { ProblemsError } from '../../src/util/problems.js'
import { describe, it } from '../support/needs-shared-data.js'
import { sharedPath } from '../support/shared-data.js'
import { tempDir } from '../support/tmp.js'

let dir: string
let cleanup: () => Promise<void>
beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-manifest-'))
})
afterAll(() => cleanup())

async function tree(name: string, files: Record<string, string>): Promise<string> {
  const root = path.join(dir, name)
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true })
    await writeFile(path.join(root, file), text)
  }
  return root
}

const problemOf = (f: () => unknown): string => {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(ProblemsError)
    return (e as ProblemsError).problems.map((p) => `${p.file ?? ''}: ${p.message}`).join('\n')
  }
  throw new Error('no problem raised')
}

describe('readManifests', () => {
  it('reads YAML, Dockerfiles and .env files of a folder in name order, and nothing else', async () => {
    const root = await tree('kinds', {
      'b/deploy.yml': 'spec:\n  containers:\n    - image: gogs/gogs:0.15.1\n',
      'a/Containerfile': 'ARG V=3.16.0\nFROM prom/prometheus:v${V} AS base\nFROM base\n',
      'a/.env.production': 'IMMICH_VERSION=v2.3.1\nSEARXNG_IMAGE=searxng/searxng:2025.1.1\n',
      'c/notes.txt': 'image: gogs/gogs:0.1.0\n',
      'c/values.json': '{"image": "gogs/gogs:0.1.0"}\n',
      '.hidden/x.yaml': 'image: gogs/gogs:0.1.0\n',
      'node_modules/pkg/x.yaml': 'image: gogs/gogs:0.1.0\n'
    })
    expect(readManifests([root]).map((r) => [path.relative(root, r.file), r.line, r.image])).toEqual([
      ['a/.env.production', 2, 'searxng/searxng:2025.1.1'],
      ['a/Containerfile', 1, 'prom/prometheus:v3.16.0'],
      ['b/deploy.yml', 3, 'gogs/gogs:0.15.1']
    ])
  })

  it('never follows a link or reads a pipe inside a folder, but follows a link the user names', async () => {
    const outside = await tree('outside', { 'x.yaml': 'image: gogs/gogs:0.1.0\n' })
    const root = await tree('links', { 'real.yaml': 'image: gogs/gogs:0.15.1\n' })
    await symlink(outside, path.join(root, 'to-folder'))
    await symlink(path.join(outside, 'x.yaml'), path.join(root, 'to-file.yaml'))
    expect(spawnSync('mkfifo', [path.join(root, 'pipe.yaml')]).status).toBe(0)
    expect(readManifests([root]).map((r) => r.image)).toEqual(['gogs/gogs:0.15.1'])
    expect(readManifests([path.join(root, 'to-file.yaml')]).map((r) => r.image)).toEqual(['gogs/gogs:0.1.0'])
  })

  it('lists a folder’s file it cannot read as not read, and refuses such a file when it is named', async () => {
    const root = await tree('bad', {
      'chart/templates/deployment.yaml': '{{- if .Values.on }}\nkind: Deployment\n  image: [\n',
      'chart/values.yaml': 'image:\n  repository: gogs/gogs\n  tag: 0.15.1\n',
      'latin1.yaml': ''
    })
    await writeFile(path.join(root, 'latin1.yaml'), Buffer.from([0x69, 0x6d, 0x61, 0x67, 0x65, 0x3a, 0x20, 0xe9, 0x0a]))
    const refs = readManifests([root])
    expect(refs.map((r) => [path.relative(root, r.file), r.line, r.image, r.unreadable?.slice(0, 26)])).toEqual([
      ['chart/templates/deployment.yaml', 0, null, 'not read: it is not YAML: '],
      ['chart/values.yaml', 3, 'gogs/gogs:0.15.1', undefined],
      ['latin1.yaml', 0, null, 'not read: it is not UTF-8 ']
    ])
    expect(problemOf(() => readManifests([path.join(root, 'chart/templates/deployment.yaml')]))).toMatch(
      /deployment\.yaml: is not YAML: line \d+/
    )
    expect(problemOf(() => readManifests([path.join(root, 'latin1.yaml')]))).toMatch(/latin1\.yaml: is not UTF-8 text/)
    expect(problemOf(() => readManifests(['/dev/zero']))).toMatch(/\/dev\/zero: is not a regular file/)
  })

  it('refuses a folder wider than the files it reads, rather than read part of it', async () => {
    const root = await tree('wide', { 'a.yaml': 'a: 1\n', 'b.yaml': 'b: 1\n', 'c/Dockerfile': 'FROM scratch\n' })
    expect(readManifests([root], { maxFiles: 3 })).toEqual([])
    expect(problemOf(() => readManifests([root], { maxFiles: 2 }))).toMatch(/more than 2 YAML files/)
  })

  it('finds in the data set’s real Compose files every image --compose finds where no variable decides it', () => {
    const folder = sharedPath('compose/files')
    const files = readdirSync(folder)
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => path.join(folder, f))
    expect(files.length).toBeGreaterThan(20)
    let compared = 0
    for (const file of files) {
      let services
      try {
        services = readComposeFile(file, { env: {} })
      } catch {
        continue // a file that needs its .env: --compose refuses it, and --manifest is not asked to agree
      }
      const lines = readFileSync(file, 'utf8').split('\n')
      // As written on its line: an image a variable gives is a template to --manifest, which reads no environment.
      const fromCompose = services
        .filter((s) => s.file === file && s.image !== null && !lines[s.line - 1]!.includes('$'))
        .map((s) => s.image!)
      const fromManifest = readManifests([file]).flatMap((r) => (r.image === null ? [] : [r.image]))
      for (const image of fromCompose)
        expect({ file, image, found: fromManifest.includes(image) }).toEqual({ file, image, found: true })
      compared += fromCompose.length
    }
    expect(compared).toBeGreaterThan(100)
  })
})
