// Dockerfile FROM lines read as the images a build pulls: ARG defaults, --platform, named and
// unnamed stages, a stage used as a base, scratch, continuations, here-documents, and the file
// names Dependabot's docker ecosystem reads.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { isDockerfile, readDockerfileRefs } from '../../src/check/dockerfile.js'

const refs = (text: string) => {
  const r = readDockerfileRefs('Dockerfile', text)
  if (!('refs' in r)) throw new Error(r.unreadable)
  return r.refs.map(({ line, image, field, unreadable }) => ({
    line,
    image,
    field,
    ...(unreadable ? { unreadable } : {})
  }))
}

describe('readDockerfileRefs', () => {
  it('reads a plain FROM, with its line', () => {
    expect(refs('# the monitoring image\n\nFROM prom/prometheus:v3.11.3\nCOPY a.yml /etc/\n')).toEqual([
      { line: 3, image: 'prom/prometheus:v3.11.3', field: 'FROM (stage 1)' }
    ])
  })

  it('fills in ARG defaults declared before the first FROM, and points at the ARG line that holds the tag', () => {
    const text = [
      'ARG REGISTRY=docker.io',
      'ARG PG_VERSION=16.4',
      'FROM --platform=$BUILDPLATFORM ${REGISTRY}/library/postgres:${PG_VERSION}-alpine AS db',
      'ARG LATE=9.9',
      'FROM redis:${LATE:-7.2}'
    ].join('\n')
    expect(refs(text)).toEqual([
      { line: 2, image: 'docker.io/library/postgres:16.4-alpine', field: 'FROM (stage db)' },
      // An ARG after the first FROM belongs to that stage: later FROM lines do not see it.
      { line: 5, image: 'redis:7.2', field: 'FROM (stage 2)' }
    ])
  })

  it('says a reference an argument without a default decides is not readable', () => {
    expect(refs('ARG TAG\nFROM gogs/gogs:${TAG}\n')).toEqual([
      {
        line: 2,
        image: null,
        field: 'FROM (stage 1)',
        unreadable: 'a build argument decides it (gogs/gogs:${TAG}): uses ${TAG}, which is not set and has no default'
      }
    ])
  })

  it('skips scratch and a FROM naming an earlier stage, in any case; a stage named after its image still pulls it', () => {
    const text = [
      'FROM golang:1.23 AS Build',
      'RUN go build',
      'FROM build AS test',
      'FROM node:22 as node',
      'FROM scratch',
      'COPY --from=build /app /app',
      'from alpine:3.20'
    ].join('\n')
    expect(refs(text)).toEqual([
      { line: 1, image: 'golang:1.23', field: 'FROM (stage Build)' },
      { line: 4, image: 'node:22', field: 'FROM (stage node)' },
      { line: 7, image: 'alpine:3.20', field: 'FROM (stage 5)' }
    ])
  })

  it('joins continued lines (and the escape directive), and reads no FROM inside a here-document', () => {
    const text = [
      '# escape=`',
      'FROM `',
      '  # a comment inside the instruction',
      '  mcr.microsoft.com/windows/servercore:ltsc2022',
      'RUN <<EOF',
      'FROM not-an-instruction:1.0',
      'EOF',
      'FROM traefik:v3.6@sha256:' + 'a'.repeat(64)
    ].join('\r\n')
    expect(refs(text)).toEqual([
      { line: 2, image: 'mcr.microsoft.com/windows/servercore:ltsc2022', field: 'FROM (stage 1)' },
      { line: 8, image: `traefik:v3.6@sha256:${'a'.repeat(64)}`, field: 'FROM (stage 2)' }
    ])
  })

  it('says why a file is not read', () => {
    expect(readDockerfileRefs('Dockerfile', 'FROM a\0')).toEqual({
      unreadable: 'holds a NUL byte: it is not a text file'
    })
    expect(readDockerfileRefs('Dockerfile', 'x'.repeat(1024 * 1024 + 1))).toEqual({
      unreadable: 'is larger than the 1 MiB read'
    })
  })

  it('reads any image written after FROM, flags and a stage name around it', () => {
    const name = fc.stringMatching(/^[a-z0-9]{1,10}(\/[a-z0-9]{1,10}){0,2}$/)
    const tag = fc.stringMatching(/^[\w][\w.-]{0,20}$/)
    fc.assert(
      fc.property(name, tag, fc.boolean(), fc.boolean(), (n, t, platform, named) => {
        fc.pre(n !== 'scratch')
        const image = `${n}:${t}`
        const line = `FROM ${platform ? '--platform=linux/amd64 ' : ''}${image}${named ? ' AS stage' : ''}`
        expect(refs(line).map((r) => r.image)).toEqual([image])
      })
    )
  })
})

describe('isDockerfile', () => {
  it('takes the names Dependabot reads as Dockerfiles, and no others', () => {
    for (const f of [
      'Dockerfile',
      'dockerfile',
      'app/Dockerfile.prod',
      'web.Dockerfile',
      'Containerfile',
      'x/build-dockerfile'
    ])
      expect({ f, is: isDockerfile(f) }).toEqual({ f, is: true })
    for (const f of ['Dockerfile.md', 'docs/dockerfile.yml', '.dockerignore', 'Dockerfiles/README', 'mydockerfile'])
      expect({ f, is: isDockerfile(f) }).toEqual({ f, is: false })
  })
})
