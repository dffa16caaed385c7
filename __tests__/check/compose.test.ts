// Compose files as Compose reads them: merge keys, extends (in the file and from another file),
// include, interpolation from the environment passed in, and files that are no Compose file at all.
// Made-up services and images; real files in a temporary folder.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readCompose, readComposeFile } from '../../src/check/compose.js'
import { tempDir } from '../support/tmp.js'

let dir: string
let cleanup: () => Promise<void>
beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-compose-'))
})
afterAll(() => cleanup())

async function file(name: string, text: string): Promise<string> {
  const f = path.join(dir, name)
  await mkdir(path.dirname(f), { recursive: true })
  await writeFile(f, text)
  return f
}

const images = (services: { service: string; image: string | null }[]) =>
  Object.fromEntries(services.map((s) => [s.service, s.image]))

describe('merge keys', () => {
  it('gives a service the image of the fragment it merges, with the line where the image is written', () => {
    const services = readCompose(
      'c.yml',
      'x-app: &app\n  image: app/one:1.0\n  restart: always\nservices:\n  one:\n    <<: *app\n  two:\n    <<: *app\n    image: app/two:2.0\n'
    )
    expect(services).toEqual([
      { file: 'c.yml', service: 'one', line: 2, image: 'app/one:1.0' },
      { file: 'c.yml', service: 'two', line: 9, image: 'app/two:2.0' }
    ])
  })

  it('takes a list of fragments with the earlier one winning, as YAML merge keys do', () => {
    const text =
      'x-a: &a {image: "a:1"}\nx-b: &b {image: "b:2", build: .}\nx-c: &c {build: ./c}\nservices:\n' +
      '  ab:\n    <<: [*a, *b]\n  ba:\n    <<: [*b, *a]\n  cb:\n    <<: [*c, *b]\n  c:\n    <<: *c\n'
    expect(images(readCompose('c.yml', text))).toEqual({ ab: 'a:1', ba: 'b:2', cb: 'b:2', c: null })
    expect(readCompose('c.yml', text).find((s) => s.service === 'ba')?.line).toBe(2)
  })

  it('reads a whole service given as an alias, and refuses an alias bomb', () => {
    expect(images(readCompose('c.yml', 'x: &s {image: "s:1"}\nservices:\n  s: *s\n'))).toEqual({ s: 's:1' })
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i < 9; i++)
      bomb.push(`${'abcdefghij'[i]}: &${'abcdefghij'[i]} [${`*${'abcdefghij'[i - 1]}, `.repeat(9)}]`)
    expect(() => readCompose('bomb.yml', `${bomb.join('\n')}\nservices:\n  s: {image: "x:1"}\n`)).toThrow(
      /bomb\.yml:1: cannot be read as Compose reads it/
    )
  })
})

describe('extends', () => {
  it('inherits the image and build of a service in the same file, through a chain', () => {
    const text =
      'services:\n  base:\n    image: app/base:3.1\n  mid:\n    extends: base\n  top:\n    extends:\n      service: mid\n' +
      '  own:\n    extends: base\n    image: app/own:4.0\n  built:\n    build: .\n  fromBuilt:\n    extends: built\n'
    const services = readCompose('c.yml', text)
    expect(images(services)).toEqual({
      base: 'app/base:3.1',
      mid: 'app/base:3.1',
      top: 'app/base:3.1',
      own: 'app/own:4.0',
      built: null,
      fromBuilt: null
    })
    expect(services.find((s) => s.service === 'top')?.line).toBe(3)
  })

  it('reads a service of another file, relative to the file that names it, and through it a third', async () => {
    await file(
      'stack/common/base.yml',
      'services:\n  web:\n    extends:\n      file: ../shared.yml\n      service: core\n'
    )
    await file(
      'stack/shared.yml',
      'services:\n  core:\n    image: "app/core:${CORE_TAG:-5.0}"\n  unused:\n    image: "x:${UNSET}"\n'
    )
    const main = await file(
      'stack/compose.yml',
      'services:\n  app:\n    extends:\n      file: common/base.yml\n      service: web\n'
    )
    // The line is the service's: its image is written in another file. `unused` there is never read.
    expect(readComposeFile(main, { env: {} })).toEqual([{ file: main, service: 'app', line: 2, image: 'app/core:5.0' }])
    expect(readComposeFile(main, { env: { CORE_TAG: '5.1' } })[0]?.image).toBe('app/core:5.1')
  })

  it('names the file, line and service of a cycle, a missing service and a missing file', async () => {
    const cyc = await file('cyc.yml', 'services:\n  a:\n    extends: b\n  b:\n    extends: a\n')
    expect(() => readComposeFile(cyc)).toThrow(/cyc\.yml:2: services\.a: extends itself/)
    const missing = await file('missing.yml', 'services:\n  a:\n    extends: nope\n')
    expect(() => readComposeFile(missing)).toThrow(/missing\.yml:3: services\.a\.extends: names no service "nope"/)
    const gone = await file('gone.yml', 'services:\n  a:\n    extends: {file: no-such.yml, service: a}\n')
    expect(() => readComposeFile(gone)).toThrow(
      /gone\.yml:3: services\.a\.extends: .*no-such\.yml: cannot be read \(ENOENT\)/
    )
  })

  it('refuses an extended file that is not a regular file, without waiting on it', async () => {
    const fifo = path.join(dir, 'pipe.yml')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const viaFifo = await file('via-fifo.yml', 'services:\n  a:\n    extends: {file: pipe.yml, service: a}\n')
    expect(() => readComposeFile(viaFifo)).toThrow(/via-fifo\.yml:3: .*pipe\.yml: is not a regular file/)
    const viaZero = await file('via-zero.yml', 'services:\n  a:\n    extends: {file: /dev/zero, service: a}\n')
    expect(() => readComposeFile(viaZero)).toThrow(/\/dev\/zero: is not a regular file/)
    const viaDir = await file('via-dir.yml', 'services:\n  a:\n    extends: {file: stack, service: a}\n')
    expect(() => readComposeFile(viaDir)).toThrow(/stack: is not a regular file/)
  })
})

describe('include', () => {
  it('lists the services of the files a top-level include: names, relative to the including file', async () => {
    await file('inc/db.yml', 'services:\n  db:\n    image: app/db:9.1\n')
    await file('inc/more/cache.yml', 'services:\n  cache:\n    image: app/cache:${CACHE_TAG}\n')
    const main = await file(
      'inc/compose.yml',
      'include:\n  - db.yml\n  - path: [more/cache.yml]\nservices:\n  web:\n    image: app/web:1.0\n'
    )
    expect(readComposeFile(main, { env: { CACHE_TAG: '2.2' } })).toEqual([
      { file: main, service: 'web', line: 6, image: 'app/web:1.0' },
      { file: path.join(dir, 'inc', 'db.yml'), service: 'db', line: 3, image: 'app/db:9.1' },
      { file: path.join(dir, 'inc', 'more', 'cache.yml'), service: 'cache', line: 3, image: 'app/cache:2.2' }
    ])
    expect(() => readComposeFile(main, { env: {} })).toThrow(/cache\.yml:3: services\.cache\.image: .*\$\{CACHE_TAG\}/)
    const remote = await file('inc/remote.yml', 'include:\n  - oci://registry/app:1\n')
    expect(() => readComposeFile(remote)).toThrow(/remote\.yml:2: include\.0: names a remote file/)
  })

  it('reports an included file that is not YAML at the include line, with the other problems', async () => {
    await file('bad-inc/b.yml', 'services:\n  demo: [unclosed\n')
    const main = await file('bad-inc/a.yml', 'include:\n  - b.yml\nservices:\n  web:\n    image: demo/web:${NOPE}\n')
    let message = ''
    try {
      readComposeFile(main, { env: {} })
    } catch (e) {
      message = (e as Error).message
    }
    expect(message).toMatch(/a\.yml:5: services\.web\.image: .*\$\{NOPE\}/)
    expect(message).toMatch(/a\.yml:2: include: .*b\.yml:3:\d+: is not YAML/)
    // Through extends: too, at the extends: line.
    const viaExtends = await file('bad-inc/c.yml', 'services:\n  demo:\n    extends: {file: b.yml, service: demo}\n')
    expect(() => readComposeFile(viaExtends)).toThrow(/c\.yml:3: services\.demo\.extends: .*b\.yml:3:\d+: is not YAML/)
  })
})

describe('what is no Compose service', () => {
  it('refuses a service with neither image: nor build:, after merges and extends, naming file, line and service', () => {
    const text =
      'x-common: &common\n  restart: always\nservices:\n  ok:\n    image: "a:1"\n  bare:\n    <<: *common\n  child:\n    extends: bare\n'
    expect(() => readCompose('c.yml', text)).toThrow(/c\.yml:6: services\.bare: has neither image: nor build:/)
    expect(() => readCompose('c.yml', text)).toThrow(/c\.yml:8: services\.child: has neither image: nor build:/)
  })

  it('follows a link a user names to a regular file, and refuses a FIFO, /dev/zero and a folder at once', async () => {
    const real = await file('real.yml', 'services:\n  a:\n    image: "a:1"\n')
    await symlink(real, path.join(dir, 'link.yml'))
    expect(readComposeFile(path.join(dir, 'link.yml'))).toHaveLength(1)
    const fifo = path.join(dir, 'top.fifo')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    expect(() => readComposeFile(fifo)).toThrow(/top\.fifo: is not a regular file/)
    expect(() => readComposeFile('/dev/zero')).toThrow(/\/dev\/zero: is not a regular file/)
    expect(() => readComposeFile(dir)).toThrow(/is not a regular file/)
    await writeFile(path.join(dir, 'big.yml'), Buffer.alloc(1024 * 1024 + 1, 0x20))
    expect(() => readComposeFile(path.join(dir, 'big.yml'))).toThrow(/larger than the 1048576 bytes allowed/)
  })
})
