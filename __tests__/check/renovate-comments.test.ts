// Renovate's regex-manager comments: the image and version each names, on the version's line.
import { describe, expect, it } from '@jest/globals'
import { renovateRefs, withRenovateRefs } from '../../src/check/renovate-comments.js'

describe('renovateRefs', () => {
  it('reads a docker comment over a YAML key, a shell export, a Dockerfile ARG and a quoted list item', () => {
    const text = [
      '# renovate: datasource=docker depName=ghcr.io/siderolabs/installer',
      'talosVersion: v1.8.0',
      '  # renovate: datasource=docker depName=ghcr.io/siderolabs/kubelet versioning=semver',
      '  kubernetesVersion: "v1.31.0" # pinned',
      '# renovate: datasource=docker depName=postgres packageName=docker.io/library/postgres',
      'export PG_VERSION=16.4',
      '# renovate: datasource=docker depName=node',
      'ARG NODE_VERSION=22.1.0',
      '// renovate: datasource=docker depName=redis',
      "  - REDIS='7.4.1'"
    ].join('\n')
    expect(renovateRefs('f', text).map((r) => [r.line, r.image, r.field])).toEqual([
      [2, 'ghcr.io/siderolabs/installer:v1.8.0', 'talosVersion (renovate: ghcr.io/siderolabs/installer)'],
      [4, 'ghcr.io/siderolabs/kubelet:v1.31.0', 'kubernetesVersion (renovate: ghcr.io/siderolabs/kubelet)'],
      [6, 'docker.io/library/postgres:16.4', 'PG_VERSION (renovate: docker.io/library/postgres)'],
      [8, 'node:22.1.0', 'NODE_VERSION (renovate: node)'],
      [10, 'redis:7.4.1', 'REDIS (renovate: redis)']
    ])
  })

  it('leaves other datasources, a value that is a whole reference, a comment with nothing under it and odd names alone', () => {
    const text = [
      '# renovate: datasource=github-releases depName=siderolabs/talos',
      'talosctl: v1.8.0',
      '# renovate: datasource=docker depName=ghcr.io/x/y',
      'image: ghcr.io/x/y:1.2.3',
      '# renovate: datasource=docker depName=UPPER/Case',
      'v: 1.0.0',
      '# renovate: datasource=docker depName=ghcr.io/x/z',
      '',
      'v: 2.0.0',
      '# renovate: datasource=docker depName=ghcr.io/x/last'
    ].join('\n')
    expect(renovateRefs('f', text)).toEqual([])
  })

  it('adds nothing on a line the file’s own reading already holds', () => {
    const text =
      '# renovate: datasource=docker depName=docker.io/library/node\nARG NODE_VERSION=22.1.0\nFROM node:${NODE_VERSION}\n'
    const own = [{ file: 'Dockerfile', line: 2, image: 'node:22.1.0', field: 'FROM (stage 1)' }]
    expect(withRenovateRefs('Dockerfile', text, own)).toEqual(own)
  })
})
