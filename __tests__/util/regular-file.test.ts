import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readRegularFile } from '../../src/util/regular-file.js'
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
