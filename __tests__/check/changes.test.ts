// The image references a pull request changes, read with real git from a local repository with base
// and head commits: Dockerfiles beside YAML, other changed files that touch an image listed as not
// read, .env files, and references that moved (another key, a renamed file or service) paired as updates.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { changedImages } from '../../src/check/changes.js'
import { testGit } from '../support/git.js'
import { tempDir } from '../support/tmp.js'

let dir: string
let cleanup: () => Promise<void>
beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-changes-'))
})
afterAll(() => cleanup())

/**
 * A repository with `base` files on main and `head` on a branch; a file mapped to null is deleted, and
 * `renames` are made with `git mv` before the head's files are written.
 */
async function repoWith(
  name: string,
  base: Record<string, string | Buffer>,
  head: Record<string, string | Buffer | null>,
  renames: [string, string][] = []
): Promise<{ cwd: string; base: string; head: string }> {
  const git = (...args: string[]) => testGit(dir)(cwd, ...args)
  const cwd = path.join(dir, name)
  await mkdir(cwd, { recursive: true })
  git('init', '-q', '-b', 'main')
  const write = async (files: Record<string, string | Buffer | null>) => {
    for (const [f, text] of Object.entries(files)) {
      if (text === null) git('rm', '-q', f)
      else {
        await mkdir(path.dirname(path.join(cwd, f)), { recursive: true })
        await writeFile(path.join(cwd, f), text)
      }
    }
    git('add', '-A')
  }
  await write(base)
  git('commit', '-q', '-m', 'base')
  const b = git('rev-parse', 'HEAD')
  git('checkout', '-q', '-b', 'bump')
  for (const [from, to] of renames) {
    await mkdir(path.dirname(path.join(cwd, to)), { recursive: true })
    git('mv', from, to)
  }
  await write(head)
  git('commit', '-q', '-m', 'bump')
  return { cwd, base: b, head: git('rev-parse', 'HEAD') }
}

const found = async (r: { cwd: string; base: string; head: string }) => {
  const c = await changedImages(r.cwd, r.base, r.head)
  return { changes: c.changes, added: c.added, unreadable: c.unreadable, notRead: c.notRead }
}
const none = { changes: [], added: [], unreadable: [], notRead: [] }

describe('Dockerfiles', () => {
  it('reads a FROM bump as an update of that image (Dependabot’s docker ecosystem)', async () => {
    const r = await repoWith(
      'dockerfile',
      { 'monitoring/Dockerfile': 'FROM prom/prometheus:v3.11.3\nCOPY prometheus.yml /etc/prometheus/\n' },
      { 'monitoring/Dockerfile': 'FROM prom/prometheus:v3.14.0\nCOPY prometheus.yml /etc/prometheus/\n' }
    )
    expect(await found(r)).toEqual({
      ...none,
      changes: [
        {
          file: 'monitoring/Dockerfile',
          field: 'FROM (stage 1)',
          line: 1,
          baseImage: 'prom/prometheus:v3.11.3',
          image: 'prom/prometheus:v3.14.0'
        }
      ]
    })
  })

  it('reads a bump of an ARG default at the ARG line, in a Containerfile and a *.Dockerfile', async () => {
    const file = (v: string) => `ARG PG=${v}\nFROM postgres:\${PG}-alpine AS db\nFROM scratch\nCOPY --from=db / /\n`
    const r = await repoWith(
      'arg',
      { Containerfile: file('16.4'), 'db.Dockerfile': 'FROM redis:7.2\n' },
      { Containerfile: file('16.6'), 'db.Dockerfile': 'FROM redis:7.4\n' }
    )
    const { changes } = await found(r)
    expect(changes).toEqual([
      {
        file: 'Containerfile',
        field: 'FROM (stage db)',
        line: 1,
        baseImage: 'postgres:16.4-alpine',
        image: 'postgres:16.6-alpine'
      },
      { file: 'db.Dockerfile', field: 'FROM (stage 1)', line: 1, baseImage: 'redis:7.2', image: 'redis:7.4' }
    ])
  })
})

describe('YAML shapes beside image:', () => {
  it('reads a Kustomize images: bump, a tag-only values bump as not readable, and leaves an unchanged template alone', async () => {
    const kustomization = (tag: string) =>
      `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nimages:\n  - name: gogs\n    newName: docker.io/gogs/gogs\n    newTag: ${tag}\n`
    const values = (tag: string) => `image:\n  tag: ${tag}\nreplicas: 1\n`
    const compose = (tag: string) => `services:\n  app:\n    image: \${APP_IMAGE}\n  cache:\n    image: redis:${tag}\n`
    const r = await repoWith(
      'shapes',
      { 'kustomization.yaml': kustomization('0.14.3'), 'values.yaml': values('2.1.0'), 'compose.yml': compose('7.2') },
      { 'kustomization.yaml': kustomization('0.15.1'), 'values.yaml': values('2.2.0'), 'compose.yml': compose('7.4') }
    )
    expect(await found(r)).toEqual({
      ...none,
      changes: [
        {
          file: 'compose.yml',
          field: 'services.cache.image',
          line: 5,
          baseImage: 'redis:7.2',
          image: 'redis:7.4'
        },
        {
          file: 'kustomization.yaml',
          field: 'images[0].name',
          line: 6,
          baseImage: 'docker.io/gogs/gogs:0.14.3',
          image: 'docker.io/gogs/gogs:0.15.1'
        }
      ],
      unreadable: [
        {
          file: 'values.yaml',
          line: 2,
          field: 'image.tag',
          reason:
            "only the tag (2.2.0) is here: the image's name is in the chart's defaults, which the gate does not read"
        }
      ]
    })
  })
})

describe('YAML keys other than image:', () => {
  it('reads CloudNativePG’s imageName:, a camelCase …Image: and a snake-case …_image: as references, and a setting that only looks like one not', async () => {
    // A CloudNativePG Cluster as Renovate bumps it, beside an operator's values with a sidecar image.
    const cluster = (tag: string) =>
      `apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: postgres\nspec:\n  instances: 3\n  imageName: ghcr.io/cloudnative-pg/postgresql:${tag}\n`
    const values = (tag: string) =>
      `backup:\n  sidecarImage: docker.io/rclone/rclone:${tag}\n  defaultImage: none\nnextcloud_image: nextcloud:29.0.${tag.endsWith('1') ? 1 : 2}\n`
    const r = await repoWith(
      'named',
      { 'cluster.yaml': cluster('16.4'), 'values.yaml': values('1.68.1') },
      { 'cluster.yaml': cluster('17.2'), 'values.yaml': values('1.69.0') }
    )
    expect(await found(r)).toEqual({
      ...none,
      changes: [
        {
          file: 'cluster.yaml',
          field: 'Cluster/postgres:spec.imageName',
          line: 7,
          baseImage: 'ghcr.io/cloudnative-pg/postgresql:16.4',
          image: 'ghcr.io/cloudnative-pg/postgresql:17.2'
        },
        {
          file: 'values.yaml',
          field: 'backup.sidecarImage',
          line: 2,
          baseImage: 'docker.io/rclone/rclone:1.68.1',
          image: 'docker.io/rclone/rclone:1.69.0'
        },
        {
          file: 'values.yaml',
          field: 'nextcloud_image',
          line: 4,
          baseImage: 'nextcloud:29.0.1',
          image: 'nextcloud:29.0.2'
        }
      ]
    })
  })

  it('reads split fields that look like images on their own line as the references they are part of', async () => {
    // home-operations' values pin a v-tag with its digest; Kustomize bumps a digest in a field of its own.
    const values = (tag: string, d: string) =>
      `controllers:\n  app:\n    containers:\n      app:\n        image:\n          repository: ghcr.io/home-operations/radarr\n          tag: ${tag}@sha256:${d.repeat(64)}\n`
    const kustomization = (d: string) =>
      `images:\n  - name: gogs\n    newName: docker.io/gogs/gogs\n    digest: sha256:${d.repeat(64)}\n`
    const r = await repoWith(
      'split',
      { 'values.yaml': values('v5.14.0', 'a'), 'kustomization.yaml': kustomization('c') },
      { 'values.yaml': values('v5.15.0', 'b'), 'kustomization.yaml': kustomization('d') }
    )
    const c = await found(r)
    expect(c.notRead).toEqual([])
    expect(c.changes.map((x) => x.file).sort()).toEqual(['kustomization.yaml', 'values.yaml'])
  })

  it('lists a YAML file as not read where its change touches an image outside the fields read, keeping what it read', async () => {
    // A Talos machine config names its installer under a key of its own; the Deployment beside it is read.
    const talos = (v: string, app: string) =>
      `machine:\n  install:\n    installer: ghcr.io/siderolabs/installer:${v}\n---\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n        - image: gogs/gogs:${app}\n`
    const r = await repoWith(
      'unexplained',
      { 'talos.yaml': talos('v1.8.0', '0.14.3') },
      { 'talos.yaml': talos('v1.9.0', '0.15.1') }
    )
    expect(await found(r)).toEqual({
      ...none,
      changes: [
        {
          file: 'talos.yaml',
          field: 'Deployment/web:spec.template.spec.containers[0].image',
          line: 12,
          baseImage: 'gogs/gogs:0.14.3',
          image: 'gogs/gogs:0.15.1'
        }
      ],
      notRead: [
        {
          file: 'talos.yaml',
          reason:
            'its change touches what reads as an image reference outside the fields the gate reads (ghcr.io/siderolabs/installer:v1.8.0, ghcr.io/siderolabs/installer:v1.9.0)'
        }
      ]
    })
  })
})

describe('Renovate comments', () => {
  it('reads a version a docker comment names, in YAML, in a Dockerfile (once) and in a script', async () => {
    const talconfig = (v: string) =>
      `clusterName: home\n# renovate: datasource=docker depName=ghcr.io/siderolabs/installer\ntalosVersion: ${v}\n`
    const dockerfile = (v: string) =>
      `# renovate: datasource=docker depName=node\nARG NODE_VERSION=${v}\nFROM node:\${NODE_VERSION}\n`
    const script = (v: string) => `#!/bin/sh\n# renovate: datasource=docker depName=gogs/gogs\nGOGS_VERSION=${v}\n`
    const r = await repoWith(
      'renovate',
      { 'talconfig.yaml': talconfig('v1.8.0'), Dockerfile: dockerfile('22.1.0'), 'up.sh': script('0.14.3') },
      { 'talconfig.yaml': talconfig('v1.9.0'), Dockerfile: dockerfile('22.2.0'), 'up.sh': script('0.15.1') }
    )
    expect(await found(r)).toEqual({
      ...none,
      changes: [
        { file: 'Dockerfile', field: 'FROM (stage 1)', line: 2, baseImage: 'node:22.1.0', image: 'node:22.2.0' },
        {
          file: 'talconfig.yaml',
          field: 'talosVersion (renovate: ghcr.io/siderolabs/installer)',
          line: 3,
          baseImage: 'ghcr.io/siderolabs/installer:v1.8.0',
          image: 'ghcr.io/siderolabs/installer:v1.9.0'
        },
        {
          file: 'up.sh',
          field: 'GOGS_VERSION (renovate: gogs/gogs)',
          line: 3,
          baseImage: 'gogs/gogs:0.14.3',
          image: 'gogs/gogs:0.15.1'
        }
      ]
    })
  })
})

describe('.env files', () => {
  it('reads a variable whose value is an image reference, as Dependabot bumps it; other settings are not images', async () => {
    const env = (tag: string, port: number) =>
      `# the stack\nexport GOGS_IMAGE="gogs/gogs:${tag}"\nPORT=${port}\nHOST=localhost:${port}\nDB=db.lan:${port}\n`
    const r = await repoWith('env', { 'stack/.env': env('0.14.3', 3000) }, { 'stack/.env': env('0.15.1', 3001) })
    expect(await found(r)).toEqual({
      ...none,
      changes: [
        { file: 'stack/.env', field: 'GOGS_IMAGE', line: 2, baseImage: 'gogs/gogs:0.14.3', image: 'gogs/gogs:0.15.1' }
      ]
    })
  })
})

describe('changed files the gate does not parse', () => {
  it('lists one whose change touches an image reference as not read; other changes stay quiet', async () => {
    const r = await repoWith(
      'other',
      {
        'deploy.sh': 'docker run -d gogs/gogs:0.14.3\n',
        'README.md': 'Runs on a small box.\n',
        'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
        'old.sh': 'docker pull redis:7.2\n'
      },
      {
        'deploy.sh': 'docker run -d gogs/gogs:0.15.1\n',
        'README.md': 'Runs on a small box, see https://example.com:8443/docs.\n',
        'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 3, 4]),
        'old.sh': null
      }
    )
    expect(await found(r)).toEqual({
      ...none,
      notRead: [
        {
          file: 'deploy.sh',
          reason:
            'is not YAML, a Dockerfile or a .env file, and its change touches what reads as an image reference (gogs/gogs:0.14.3, gogs/gogs:0.15.1)'
        }
      ]
    })
  })
})

describe('pairing removed and added references', () => {
  it('pairs a values file that moved image.name to image.repository', async () => {
    const r = await repoWith(
      'values',
      { 'values.yaml': 'image:\n  name: gogs/gogs\n  tag: 0.14.3\n' },
      { 'values.yaml': 'image:\n  repository: gogs/gogs\n  tag: 0.15.1\n' }
    )
    expect(await found(r)).toEqual({
      ...none,
      changes: [
        {
          file: 'values.yaml',
          field: 'image.repository',
          line: 3,
          baseImage: 'gogs/gogs:0.14.3',
          image: 'gogs/gogs:0.15.1'
        }
      ]
    })
  })

  it('pairs a bump made with a file renamed and a service renamed', async () => {
    const r = await repoWith(
      'renamed',
      { 'apps/git.yml': 'services:\n  git:\n    image: gogs/gogs:0.14.3\n' },
      { 'apps/gogs/compose.yml': 'services:\n  gogs:\n    image: docker.io/gogs/gogs:0.15.1\n' },
      [['apps/git.yml', 'apps/gogs/compose.yml']]
    )
    expect(await found(r)).toEqual({
      ...none,
      changes: [
        {
          file: 'apps/gogs/compose.yml',
          field: 'services.gogs.image',
          line: 3,
          baseImage: 'gogs/gogs:0.14.3',
          image: 'docker.io/gogs/gogs:0.15.1'
        }
      ]
    })
  })

  it('a chart upgrade that moves every image to new paths reports only the one bumped, each to its nearest version', async () => {
    const before = [
      'app:',
      '  image: ghcr.io/someone/app:1.4.2',
      'init:',
      '  image: busybox:1.36',
      'db:',
      '  image: postgres:15.8',
      'cache:',
      '  image: postgres:16.4'
    ].join('\n')
    const after = [
      'components:',
      '  app:',
      '    image: { repository: ghcr.io/someone/app, tag: 1.4.2 }',
      '  init:',
      '    image: busybox:1.36',
      '  cacheStore:',
      '    image: postgres:16.6',
      '  database:',
      '    image: postgres:15.8'
    ].join('\n')
    const r = await repoWith('chart', { 'values.yaml': `${before}\n` }, { 'values.yaml': `${after}\n` })
    expect(await found(r)).toEqual({
      ...none,
      changes: [
        {
          file: 'values.yaml',
          field: 'components.cacheStore.image',
          line: 7,
          baseImage: 'postgres:16.4',
          image: 'postgres:16.6'
        }
      ]
    })
  })

  it('still reads a new image as added, and a change of name in place as a change', async () => {
    const r = await repoWith(
      'added',
      { 'compose.yml': 'services:\n  prom:\n    image: prom/prometheus:v3.11.3\n' },
      {
        'compose.yml':
          'services:\n  prom:\n    image: quay.io/prometheus/prometheus:v3.14.0\n  cache:\n    image: redis:7.4\n'
      }
    )
    const f = await found(r)
    expect(f.changes).toEqual([
      {
        file: 'compose.yml',
        field: 'services.prom.image',
        line: 3,
        baseImage: 'prom/prometheus:v3.11.3',
        image: 'quay.io/prometheus/prometheus:v3.14.0'
      }
    ])
    expect(f.added).toEqual([
      { file: 'compose.yml', field: 'services.cache.image', line: 5, baseImage: '', image: 'redis:7.4' }
    ])
  })
})
