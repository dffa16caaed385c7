// Image references as Compose writes them, and the version a tag says is running.
import { describe, expect, it } from '@jest/globals'
import { imageKey, parseImageRef, runningVersion } from '../../src/check/images.js'
import { readCompose } from '../../src/check/compose.js'

describe('image references', () => {
  it('splits name, tag and digest, keeping a registry port out of the tag', () => {
    expect(parseImageRef('ghcr.io/goauthentik/server:2026.5.1')).toEqual({
      name: 'ghcr.io/goauthentik/server',
      tag: '2026.5.1',
      digest: null
    })
    expect(parseImageRef('localhost:5000/team/app')).toEqual({
      name: 'localhost:5000/team/app',
      tag: null,
      digest: null
    })
    expect(parseImageRef(`nginx:1.27@sha256:${'0'.repeat(64)}`)).toMatchObject({ name: 'nginx', tag: '1.27' })
    expect(parseImageRef('Not An Image')).toBeNull()
    expect(parseImageRef('app:bad tag')).toBeNull()
  })

  it("spells Docker Hub's names one way", () => {
    for (const n of ['nginx', 'library/nginx', 'docker.io/library/nginx', 'index.docker.io/nginx'])
      expect(imageKey(n)).toBe('nginx')
    expect(imageKey('docker.io/freshrss/freshrss')).toBe('freshrss/freshrss')
    expect(imageKey('GHCR.io/goauthentik/server')).toBe('ghcr.io/goauthentik/server')
    expect(imageKey('quay.io/library/x')).toBe('quay.io/library/x')
  })

  it('reads the running version from the tag, and names none for latest or a digest', () => {
    const v = (ref: string) => runningVersion(parseImageRef(ref)!)
    expect(v('app:1.2.3')).toEqual({ version: '1.2.3' })
    expect(v('app:v1.2.3')).toEqual({ version: 'v1.2.3' })
    expect(v('app:1.2.3-alpine')).toEqual({ version: '1.2.3' })
    expect(v('app:1.2')).toEqual({ version: '1.2' })
    expect(v('app:2.0.0-rc.1')).toEqual({ version: '2.0.0-rc.1' })
    expect(v('app:latest')).toHaveProperty('unknown')
    expect(v('app')).toHaveProperty('unknown')
    expect(v(`app@sha256:${'a'.repeat(64)}`)).toHaveProperty('unknown')
  })
})

describe('readCompose', () => {
  it('lists every service with the line of its image, escaped dollars allowed', () => {
    const services = readCompose(
      'c.yml',
      'name: x\nservices:\n  a:\n    image: "nginx:1.27"\n  b:\n    build: .\n  c:\n    image: app:1.0\n    command: echo $$HOME\n'
    )
    expect(services).toEqual([
      { file: 'c.yml', service: 'a', line: 4, image: 'nginx:1.27' },
      { file: 'c.yml', service: 'b', line: 5, image: null },
      { file: 'c.yml', service: 'c', line: 8, image: 'app:1.0' }
    ])
  })

  it('refuses an unset $VAR or ${VAR} in an image, naming the line, but not an escaped $$', () => {
    expect(() => readCompose('c.yml', 'services:\n  a:\n    image: app:$TAG\n')).toThrow(
      /c\.yml:3: services\.a\.image: "app:\$TAG": uses \$\{TAG\}, which is not set/
    )
    expect(() => readCompose('c.yml', 'services:\n  a:\n    image: app:$${TAG}\n')).not.toThrow()
    expect(readCompose('c.yml', 'services:\n  a:\n    image: app:1.0\n    environment:\n      X: ${Y}\n')).toHaveLength(
      1
    )
  })
})
