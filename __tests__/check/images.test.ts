// Image references as Compose writes them, and the version a tag says is running.
import { describe, expect, it } from '@jest/globals'
import { imageMatcher, parseImageRef, runningVersion } from '../../src/check/images.js'
import { imageKey } from '../../src/util/image-key.js'
import { githubRepoOf, registryOf } from '../../src/check/oci.js'
import { findImageRefs } from '../../src/check/refs.js'
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
    // Firefly III's pinned tags (fireflyiii/core:version-5.7.5, the data set's compose file 06).
    expect(v('fireflyiii/core:version-5.7.5')).toEqual({ version: '5.7.5' })
    expect(v('app:version-latest')).toHaveProperty('unknown')
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

describe('imageMatcher: image references as people write them', () => {
  const match = imageMatcher(
    [
      { image: 'ghcr.io/paperless-ngx/paperless-ngx', slug: 'paperless-ngx' },
      { image: 'nginx', slug: 'nginx' },
      { image: 'registry.local:5000/team/app', slug: 'team-app' },
      { image: 'linuxserver/sonarr', slug: 'sonarr' }
    ],
    ['paperless-ngx', 'nginx', 'team-app', 'sonarr', 'transmission']
  )
  it('meets every spelling of one image', () => {
    for (const ref of [
      'nginx',
      'nginx:1.27-alpine',
      'library/nginx:1.27',
      'docker.io/library/nginx:1.27',
      'index.docker.io/nginx',
      'public.ecr.aws/docker/library/nginx:1.27',
      'mirror.gcr.io/library/nginx:1.27',
      'mirror.gcr.io/nginx:1.27',
      `nginx@sha256:${'a'.repeat(64)}`
    ])
      expect({ ref, m: match(ref) }).toMatchObject({ ref, m: { slugs: ['nginx'] } })
    expect(match('registry.local:5000/team/app:2.0')).toMatchObject({ slugs: ['team-app'] })
    expect(match('REGISTRY.local:5000/team/app')).toMatchObject({ slugs: ['team-app'] })
    expect(match('GHCR.IO/paperless-ngx/paperless-ngx:2.19.0')).toMatchObject({ slugs: ['paperless-ngx'] })
  })
  it('takes lscr.io/linuxserver/x only where the catalog maps linuxserver/x', () => {
    expect(match('lscr.io/linuxserver/sonarr:4.0.0')).toMatchObject({ slugs: ['sonarr'] })
    expect(match('lscr.io/linuxserver/transmission:latest')).toEqual({
      untracked: expect.stringContaining('it has an app "transmission" but maps no image to it')
    })
  })
  it('says why an image is not tracked', () => {
    expect(match('paperlessngx/paperless-ngx:2.0')).toEqual({
      untracked: expect.stringContaining('its app "paperless-ngx" maps only ghcr.io/paperless-ngx/paperless-ngx (')
    })
    // The way out names both: an official image goes in images:, someone else's build in community:.
    expect(match('paperlessngx/paperless-ngx:2.0')).toEqual({
      untracked: expect.stringMatching(/add it to the app's images: when its project publishes it, or to community: /)
    })
    expect(match('someone/else:1.0')).toEqual({ untracked: 'not tracked by this catalog' })
    expect(match('Not An Image')).toEqual({ untracked: 'not an image reference' })
  })
  it('reads the version beside a digest, and none from a digest alone', () => {
    const v = (ref: string) => runningVersion(parseImageRef(ref)!)
    expect(v(`ghcr.io/juanfont/headscale:v0.29.3@sha256:${'0'.repeat(64)}`)).toEqual({ version: 'v0.29.3' })
    expect(v(`nginx:1.29.3-alpine3.22@sha256:${'0'.repeat(64)}`)).toEqual({ version: '1.29.3' })
    expect(v('x:1.2-alpine')).toEqual({ version: '1.2' })
    expect(v(`registry.local:5000/x@sha256:${'0'.repeat(64)}`)).toEqual({ unknown: expect.stringContaining('digest') })
  })
})

describe('findImageRefs: Compose, Kubernetes, Helm values and Flux HelmRelease', () => {
  it('finds image: strings and repository + tag, with the line a bump changes', () => {
    const text = [
      'apiVersion: apps/v1', // 1
      'kind: Deployment',
      'metadata: { name: gitea }',
      'spec:',
      '  template:', // 5
      '    spec:',
      '      containers:',
      '        - name: app',
      '          image: gitea/gitea:1.23.3',
      '---', // 10
      'apiVersion: helm.toolkit.fluxcd.io/v2',
      'kind: HelmRelease',
      'spec:',
      '  values:',
      '    image:', // 15
      '      repository: ghcr.io/paperless-ngx/paperless-ngx',
      '      tag: 2.19.0',
      '    sidecar:',
      '      image:',
      '        registry: docker.io', // 20
      '        repository: library/redis',
      '        tag: "7.2"',
      '    other:',
      '      image: "${REGISTRY}/x:1"',
      ''
    ].join('\n')
    expect(findImageRefs('m.yaml', text)).toEqual([
      {
        file: 'm.yaml',
        line: 9,
        image: 'gitea/gitea:1.23.3',
        field: 'Deployment/gitea:spec.template.spec.containers[0].image'
      },
      {
        file: 'm.yaml',
        line: 17,
        image: 'ghcr.io/paperless-ngx/paperless-ngx:2.19.0',
        field: '#2:spec.values.image.repository'
      },
      {
        file: 'm.yaml',
        line: 22,
        image: 'docker.io/library/redis:7.2',
        field: '#2:spec.values.sidecar.image.repository'
      },
      {
        file: 'm.yaml',
        line: 24,
        image: null,
        field: '#2:spec.values.other.image',
        unreadable: expect.stringContaining('a template decides it')
      }
    ])
    expect(findImageRefs('bad.yaml', 'a: [\n')).toEqual([])
  })
})

describe('registryOf and githubRepoOf (--resolve-images)', () => {
  it('makes Docker Hub’s implicit parts explicit and speaks HTTP only to this machine', () => {
    expect(registryOf('nginx')).toEqual({ base: 'https://registry-1.docker.io', path: 'library/nginx' })
    expect(registryOf('docker.io/gogs/gogs')).toEqual({ base: 'https://registry-1.docker.io', path: 'gogs/gogs' })
    expect(registryOf('ghcr.io/a/b/c')).toEqual({ base: 'https://ghcr.io', path: 'a/b/c' })
    expect(registryOf('127.0.0.1:5000/team/app')).toEqual({ base: 'http://127.0.0.1:5000', path: 'team/app' })
    expect(registryOf('registry.local:5000/team/app')).toEqual({
      base: 'https://registry.local:5000',
      path: 'team/app'
    })
  })
  it('reads the GitHub repository of a source label, and nothing else', () => {
    expect(githubRepoOf('https://github.com/gogs/gogs')).toBe('gogs/gogs')
    expect(githubRepoOf('https://github.com/paperless-ngx/paperless-ngx.git')).toBe('paperless-ngx/paperless-ngx')
    expect(githubRepoOf('https://gitlab.com/a/b')).toBeNull()
    expect(githubRepoOf('https://github.com/a/b/tree/main')).toBeNull()
  })
})
