import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { linkSync } from 'node:fs'
import { lstat, mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  assertSafeRelativePath,
  checkOutputDir,
  MARKER,
  recoverOutputDir,
  BURST_FILES,
  StagedTree,
  UnsafeOutputError,
  writeTextSync,
  type LinkSync,
  type WriteSync
} from '../../src/output/write-tree.js'
import { tempDir } from '../support/tmp.js'
import { writeTree } from '../support/write-tree.js'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDir()))
afterEach(() => cleanup())

async function listTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) {
      const full = path.join(e.parentPath, e.name)
      out[path.relative(root, full)] = await readFile(full, 'utf8')
    }
  }
  return out
}

describe('writeTree', () => {
  it('writes a new tree and replaces an old one completely, leaving no staging folders', async () => {
    const out = path.join(dir, 'site')
    await writeTree(
      out,
      new Map([
        [MARKER, '{}'],
        ['old.html', 'old']
      ])
    )
    await writeTree(
      out,
      new Map([
        [MARKER, '{"v":2}'],
        ['apps/x/index.html', 'x']
      ])
    )
    expect(await listTree(out)).toEqual({ [MARKER]: '{"v":2}', [path.join('apps', 'x', 'index.html')]: 'x' })
    expect(await readdir(dir)).toEqual(['site'])
  })

  it('leaves the existing tree byte-identical when the check fails', async () => {
    const out = path.join(dir, 'site')
    await writeTree(out, new Map([[MARKER, 'first']]))
    await expect(
      writeTree(out, new Map([[MARKER, 'second']]), () => {
        throw new Error('invalid')
      })
    ).rejects.toThrow('invalid')
    expect(await listTree(out)).toEqual({ [MARKER]: 'first' })
    expect(await readdir(dir)).toEqual(['site'])
  })

  it('refuses paths that would leave the output directory', async () => {
    const out = path.join(dir, 'site')
    for (const bad of ['../escape.txt', '/etc/passwd', 'a/../../b', 'a//b', './a', 'a\\b', 'a b']) {
      await expect(writeTree(out, new Map([[bad, 'x']]))).rejects.toThrow(UnsafeOutputError)
    }
    expect(await readdir(dir)).toEqual([])
  })
})

// Multi-byte UTF-8 of every length (2, 3 and 4 bytes), so a byte count taken for a character count shows.
const TEXT = 'Grüße · naïve — 日本語 🚀 end\n'.repeat(500)

describe('StagedTree', () => {
  it('writes text and bytes exactly, creating folders, and refuses to replace a file or to leave its folder', async () => {
    const out = path.join(dir, 'site')
    const tree = await StagedTree.open(out)
    const bytes = Buffer.from([0, 255, 10, 13])
    tree.write('a/b/text.txt', TEXT)
    tree.write('a/bytes.bin', bytes)
    tree.write('empty.txt', '')
    // Files are written in bursts; flush writes what is staged, and a path produced twice fails there.
    tree.flush()
    tree.write('a/b/text.txt', 'again')
    expect(() => tree.flush()).toThrow(/EEXIST/)
    expect(() => tree.write('../escape.txt', 'x')).toThrow(UnsafeOutputError)
    // Nothing is in place before the commit.
    await expect(readdir(out)).rejects.toThrow(/ENOENT/)
    expect(await tree.commit()).toBe(3)
    expect(await readFile(path.join(out, 'a', 'b', 'text.txt'))).toEqual(Buffer.from(TEXT))
    expect(await readFile(path.join(out, 'a', 'bytes.bin'))).toEqual(bytes)
    expect(await readFile(path.join(out, 'empty.txt'), 'utf8')).toBe('')
    await tree.discard()
    expect(await readdir(dir)).toEqual(['site'])
  })

  it('writes a large tree as it goes, a burst at a time, so only a bounded part of it is ever held', async () => {
    const out = path.join(dir, 'site')
    const tree = await StagedTree.open(out)
    const n = 1000
    for (let i = 0; i < n; i++) tree.write(`apps/app-${i}/index.html`, `<p>${i}</p>`)
    const [staging] = (await readdir(dir)).filter((d) => d.startsWith('.site.new-'))
    const onDisk = async (root: string) =>
      (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length
    const before = await onDisk(path.join(dir, staging!))
    // All but the last burst is written before the commit.
    expect(before).toBeGreaterThanOrEqual(n - BURST_FILES)
    expect(before).toBeLessThan(n)
    expect(await tree.commit()).toBe(n)
    expect(await onDisk(out)).toBe(n)
    expect(await readFile(path.join(out, 'apps', 'app-999', 'index.html'), 'utf8')).toBe('<p>999</p>')
  })

  it('discards what it staged when it is not committed', async () => {
    const tree = await StagedTree.open(path.join(dir, 'site'))
    tree.write(MARKER, '{}')
    await tree.discard()
    expect(await readdir(dir)).toEqual([])
  })
})

describe('StagedTree reusing the previous snapshot', () => {
  /** A previous snapshot with the given files. */
  async function previousTree(files: Record<string, string | Buffer>): Promise<string> {
    const prev = path.join(dir, 'prev')
    for (const [rel, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(prev, rel)), { recursive: true })
      await writeFile(path.join(prev, rel), content)
    }
    return prev
  }

  it('links the files whose bytes are unchanged and writes the others; the tree is the same as one written out', async () => {
    const prev = await previousTree({
      'same.txt': TEXT,
      'fresh.txt': TEXT,
      'a/changed.txt': 'old',
      'bytes.bin': Buffer.from([1, 2])
    })
    // Same length, different bytes: a file that only changed a timestamp of the same width.
    await writeFile(path.join(prev, 'stamp.json'), '{"at":"2026-11-21"}')
    const out = path.join(dir, 'site')
    const tree = await StagedTree.open(out, { previousDir: prev })
    tree.write('same.txt', TEXT)
    tree.write('a/changed.txt', 'new content')
    tree.write('bytes.bin', Buffer.from([1, 2]))
    tree.write('stamp.json', '{"at":"2026-11-22"}')
    tree.write('new.txt', 'only here')
    // A file the caller knows to be new is written without reading the previous one, even when equal.
    tree.write('fresh.txt', TEXT, true)
    tree.flush()
    expect(tree.unchanged).toBe(2)
    tree.write('same.txt', TEXT)
    expect(() => tree.flush()).toThrow(/EEXIST/)
    expect(await tree.commit()).toBe(6)
    expect(await listTree(out)).toEqual({
      'same.txt': TEXT,
      'fresh.txt': TEXT,
      'a/changed.txt': 'new content',
      'bytes.bin': '\u0001\u0002',
      'stamp.json': '{"at":"2026-11-22"}',
      'new.txt': 'only here'
    })
    const ino = async (p: string) => (await stat(p)).ino
    expect(await ino(path.join(out, 'same.txt'))).toBe(await ino(path.join(prev, 'same.txt')))
    expect(await ino(path.join(out, 'stamp.json'))).not.toBe(await ino(path.join(prev, 'stamp.json')))
    // The previous snapshot is left as it was, and removing it does not touch the new tree.
    expect(await readFile(path.join(prev, 'a', 'changed.txt'), 'utf8')).toBe('old')
    await rm(prev, { recursive: true })
    expect(await readFile(path.join(out, 'same.txt'), 'utf8')).toBe(TEXT)
  })

  it('compares bytes, not decoded text: a truncated UTF-8 sequence is not the replacement character', async () => {
    // F0 90 80 decodes to one U+FFFD, whose UTF-8 (EF BF BD) has the same length.
    const prev = await previousTree({ 'odd.txt': Buffer.from([0xf0, 0x90, 0x80]) })
    const tree = await StagedTree.open(path.join(dir, 'site'), { previousDir: prev })
    tree.write('odd.txt', '\ufffd')
    expect(tree.unchanged).toBe(0)
    await tree.commit()
    expect(await readFile(path.join(dir, 'site', 'odd.txt'))).toEqual(Buffer.from([0xef, 0xbf, 0xbd]))
  })

  it('never links a symbolic link of the previous tree, even to a file of the same content', async () => {
    const prev = await previousTree({ 'real.txt': TEXT })
    await writeFile(path.join(dir, 'outside.txt'), TEXT)
    await symlink(path.join(dir, 'outside.txt'), path.join(prev, 'link.txt'))
    const tree = await StagedTree.open(path.join(dir, 'site'), { previousDir: prev })
    tree.write('link.txt', TEXT)
    expect(tree.unchanged).toBe(0)
    await tree.commit()
    const info = await lstat(path.join(dir, 'site', 'link.txt'))
    expect(info.isSymbolicLink()).toBe(false)
    expect(info.ino).not.toBe((await stat(path.join(dir, 'outside.txt'))).ino)
  })

  it('says which regular files the previous tree holds, the same when it asks one by one as when it lists a folder', async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 40; i++) files[`badge/app-${i}.svg`] = TEXT
    const prev = await previousTree({ ...files, 'apps/one/index.html': TEXT })
    await symlink(path.join(prev, 'badge', 'app-0.svg'), path.join(prev, 'badge', 'linked.svg'))
    await mkdir(path.join(prev, 'badge', 'folder.svg'))
    expect(spawnSync('mkfifo', [path.join(prev, 'badge', 'pipe.svg')]).status).toBe(0)
    const tree = await StagedTree.open(path.join(dir, 'site'), { previousDir: prev })
    const asked = ['linked.svg', 'folder.svg', 'pipe.svg', 'missing.svg', ...Object.keys(files).map((f) => f.slice(6))]
    // Twice round: the first questions are answered by a stat each, the later ones (and all of round two) by a listing.
    for (let round = 0; round < 2; round++)
      for (const name of asked)
        expect([name, tree.hasPrevious(`badge/${name}`)]).toEqual([name, name.startsWith('app-')])
    for (let i = 0; i < 40; i++) expect(tree.hasPrevious(`nowhere/app-${i}.svg`)).toBe(false)
    expect(tree.hasPrevious('apps/one/index.html')).toBe(true)
    expect(() => tree.hasPrevious('badge/../../outside.txt')).toThrow()
    await tree.discard()
  })

  it('does not wait on a FIFO of the previous tree, and writes that file', async () => {
    const prev = await previousTree({ 'a.txt': 'a' })
    expect(spawnSync('mkfifo', [path.join(prev, 'pipe.txt')]).status).toBe(0)
    const tree = await StagedTree.open(path.join(dir, 'site'), { previousDir: prev })
    tree.write('pipe.txt', 'a')
    tree.write('a.txt', 'a')
    await tree.commit()
    expect(tree.unchanged).toBe(1)
    expect((await lstat(path.join(dir, 'site', 'pipe.txt'))).isFile()).toBe(true)
  })

  it('writes the one file that cannot take another link (EMLINK) and goes on linking', async () => {
    const prev = await previousTree({ 'a.txt': 'a', 'b.txt': 'b' })
    const full: LinkSync = (existing, created) => {
      if (existing.endsWith('a.txt')) throw Object.assign(new Error('EMLINK: too many links'), { code: 'EMLINK' })
      linkSync(existing, created)
    }
    const tree = await StagedTree.open(path.join(dir, 'site'), { previousDir: prev, link: full })
    tree.write('a.txt', 'a')
    tree.write('b.txt', 'b')
    await tree.commit()
    expect(tree.unchanged).toBe(1)
    expect(await listTree(path.join(dir, 'site'))).toEqual({ 'a.txt': 'a', 'b.txt': 'b' })
  })

  it('writes every file when links cannot be made (another file system), and stops trying after the first', async () => {
    const prev = await previousTree({ 'a.txt': 'a', 'b.txt': 'b' })
    let tries = 0
    const crossDevice: LinkSync = () => {
      tries++
      throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' })
    }
    const out = path.join(dir, 'site')
    const tree = await StagedTree.open(out, { previousDir: prev, link: crossDevice })
    tree.write('a.txt', 'a')
    tree.write('b.txt', 'b')
    await tree.commit()
    expect(tries).toBe(1)
    expect(tree.unchanged).toBe(0)
    expect(await listTree(out)).toEqual({ 'a.txt': 'a', 'b.txt': 'b' })
  })

  it('replaces the previous snapshot in place when it is also the output directory', async () => {
    const out = await previousTree({ [MARKER]: '{"v":1}', 'keep.txt': TEXT })
    const tree = await StagedTree.open(out, { previousDir: out })
    tree.write(MARKER, '{"v":2}')
    tree.write('keep.txt', TEXT)
    await tree.commit()
    expect(tree.unchanged).toBe(1)
    await tree.discard()
    expect(await listTree(out)).toEqual({ [MARKER.split('/').join(path.sep)]: '{"v":2}', 'keep.txt': TEXT })
    expect(await readdir(dir)).toEqual(['prev'])
  })
})

describe('writeTextSync', () => {
  it('finishes a write that stops short, byte for byte', () => {
    const out: Buffer[] = []
    // Takes at most 7 bytes a call, so writes end inside multi-byte characters.
    const short: WriteSync = (_fd: number, data: string | Uint8Array, offset: number = 0, length?: number): number => {
      const all =
        typeof data === 'string'
          ? Buffer.from(data)
          : Buffer.from(data.subarray(offset, offset + (length ?? data.length)))
      const taken = all.subarray(0, 7)
      out.push(taken)
      return taken.length
    }
    writeTextSync(99, TEXT, short)
    expect(Buffer.concat(out)).toEqual(Buffer.from(TEXT))
    expect(out.length).toBe(Math.ceil(Buffer.byteLength(TEXT) / 7))
  })
})

describe('assertSafeRelativePath', () => {
  it('accepts the paths the site uses', () => {
    for (const ok of ['index.html', 'api/v1/apps/adguard-home.json', 'badge/x.svg', 'assets/site.css'])
      expect(() => assertSafeRelativePath(ok)).not.toThrow()
  })
})

describe('checkOutputDir', () => {
  it('refuses the catalog, a directory containing it, the root, a git work tree and foreign non-empty folders', async () => {
    const catalogDir = path.join(dir, 'catalog')
    await mkdir(path.join(catalogDir, 'apps'), { recursive: true })
    const guard = { catalogDir, cwd: dir }
    await expect(checkOutputDir(catalogDir, guard)).rejects.toThrow('catalog')
    await expect(checkOutputDir(dir, guard)).rejects.toThrow('catalog')
    await expect(checkOutputDir(path.join(catalogDir, 'apps'), guard)).rejects.toThrow('inside the catalog')
    await expect(checkOutputDir('/', guard)).rejects.toThrow('root')
    const repo = path.join(dir, 'repo')
    await mkdir(path.join(repo, '.git'), { recursive: true })
    await expect(checkOutputDir(repo, guard)).rejects.toThrow('git repository root')
    const src = path.join(dir, 'src')
    await mkdir(src)
    await writeFile(path.join(src, 'main.ts'), '')
    await expect(checkOutputDir(src, guard)).rejects.toThrow('not an updatesafe snapshot')
  })

  it('accepts a missing directory, an empty one and a previous snapshot', async () => {
    const guard = { catalogDir: path.join(dir, 'catalog'), cwd: dir }
    await expect(checkOutputDir(path.join(dir, 'new'), guard)).resolves.toBeUndefined()
    await mkdir(path.join(dir, 'empty'))
    await expect(checkOutputDir(path.join(dir, 'empty'), guard)).resolves.toBeUndefined()
    await writeTree(path.join(dir, 'site'), new Map([[MARKER, '{}']]))
    await expect(checkOutputDir(path.join(dir, 'site'), guard)).resolves.toBeUndefined()
  })
})

describe('recoverOutputDir (a build killed mid-way)', () => {
  // A process that has exited: its folders belong to no running build.
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!

  it('removes stale staging folders and restores a missing --out from a complete retired tree', async () => {
    const dead = deadPid()
    await writeTree(path.join(dir, 'site'), [[MARKER, '{"v":1}']])
    // Killed between the two renames: the old tree retired, the new one still staged.
    await rename(path.join(dir, 'site'), path.join(dir, `.site.old-${dead}-abcd1234`))
    await mkdir(path.join(dir, `.site.new-${dead}-abcd1234/api`), { recursive: true })
    await mkdir(path.join(dir, `.site.new-${process.pid}-00ff`), { recursive: true })
    const done = await recoverOutputDir(path.join(dir, 'site'))
    expect(done).toEqual([
      `restored ${path.join(dir, 'site')} from .site.old-${dead}-abcd1234, left by a build interrupted between its two renames`,
      `removed .site.new-${dead}-abcd1234, left by an interrupted build`
    ])
    expect(await readFile(path.join(dir, 'site', MARKER), 'utf8')).toBe('{"v":1}')
    // A running build's staging folder (this process's) is left alone.
    expect((await readdir(dir)).sort()).toEqual([`.site.new-${process.pid}-00ff`, 'site'])
  })

  it('never restores an incomplete retired tree, and does nothing when there is nothing to do', async () => {
    const dead = deadPid()
    await mkdir(path.join(dir, `.site.old-${dead}-beef`), { recursive: true })
    expect(await recoverOutputDir(path.join(dir, 'site'))).toEqual([
      `removed .site.old-${dead}-beef, left by an interrupted build`
    ])
    expect(await readdir(dir)).toEqual([])
    expect(await recoverOutputDir(path.join(dir, 'site'))).toEqual([])
  })
})
