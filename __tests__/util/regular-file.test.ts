import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isMissing, readRegularFile, readRegularText } from '../../src/util/regular-file.js'
import { tempDir } from '../support/tmp.js'

describe('readRegularFile', () => {
  it('reads a regular file whole and refuses a link, a folder, a FIFO, a file over the bound and a missing file', async () => {
    const { dir, cleanup } = await tempDir()
    await writeFile(path.join(dir, 'record.yml'), 'name: Gitea\n')
    await writeFile(path.join(dir, 'outside.yml'), 'secret\n')
    await symlink(path.join(dir, 'outside.yml'), path.join(dir, 'link.yml'))
    await mkdir(path.join(dir, 'folder.yml'))
    expect(spawnSync('mkfifo', [path.join(dir, 'pipe.yml')]).status).toBe(0)
    const read = (name: string, max = 1024) => readRegularFile(path.join(dir, name), max)
    expect(read('record.yml')).toEqual({ bytes: Buffer.from('name: Gitea\n') })
    expect(read('link.yml')).toEqual({ refused: 'link' })
    expect(read('folder.yml')).toEqual({ refused: 'not a file' })
    // Opened without waiting for a writer, then refused.
    expect(read('pipe.yml')).toEqual({ refused: 'not a file' })
    expect(read('record.yml', 11)).toEqual({ refused: 'too large', size: 12 })
    expect(read('record.yml', 12)).toEqual({ bytes: Buffer.from('name: Gitea\n') })
    expect(read('missing.yml')).toEqual({ refused: 'unreadable', code: 'ENOENT' })
    await cleanup()
  })
})

describe('isMissing', () => {
  it('is true for no file at the path or a file on the way to it, false for any other read or refusal', async () => {
    const { dir, cleanup } = await tempDir()
    await writeFile(path.join(dir, 'record.yml'), 'name: Gitea\n')
    await mkdir(path.join(dir, 'folder.yml'))
    const missing = (name: string) => isMissing(readRegularFile(path.join(dir, name), 1024))
    expect(missing('gone.yml')).toBe(true)
    expect(missing('record.yml/inside.yml')).toBe(true)
    expect(missing('record.yml')).toBe(false)
    expect(missing('folder.yml')).toBe(false)
    expect(isMissing({ refused: 'unreadable', code: 'EACCES' })).toBe(false)
    expect(isMissing({ refused: 'too large', size: 2048 })).toBe(false)
    await cleanup()
  })
})

describe('readRegularText', () => {
  it('decodes UTF-8, refuses other bytes, and follows a link only when asked, to a regular file', async () => {
    const { dir, cleanup } = await tempDir()
    await writeFile(path.join(dir, 'a.yml'), 'image: café\n')
    await writeFile(path.join(dir, 'latin1.yml'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]))
    await symlink(path.join(dir, 'a.yml'), path.join(dir, 'link.yml'))
    await symlink('/dev/zero', path.join(dir, 'zero.yml'))
    const read = (name: string, followLinks = false) => readRegularText(path.join(dir, name), 1024, { followLinks })
    expect(read('a.yml')).toEqual({ text: 'image: café\n' })
    expect(read('latin1.yml')).toEqual({ problem: 'is not UTF-8 text' })
    expect(read('link.yml')).toEqual({ problem: expect.stringContaining('symbolic link') })
    expect(read('link.yml', true)).toEqual({ text: 'image: café\n' })
    expect(read('zero.yml', true)).toEqual({ problem: expect.stringContaining('is not a regular file') })
    await cleanup()
  })
})
