// Made-up apps whose releases carry the shapes issue 58 found in real pull requests: a release labelled unlike its
// tag, a line under a floating tag, a line of one release, an app with no judged release, a major among patches.
import type { MiniApp } from './mini-snapshot.js'

export const APPS: MiniApp[] = [
  {
    // Labels its releases v26.02 and tags them v0.2602.0; the image follows the tags.
    slug: 'calver',
    repo: 'example/calver',
    latestVersion: 'v26.02',
    images: ['ghcr.io/example/calver'],
    releases: [
      { version: 'v25.12', tag: 'v0.2512.0', cls: 'safe' },
      { version: 'v26.01', tag: 'v0.2601.0', cls: 'safe' },
      { version: 'v26.02', tag: 'v0.2602.0', cls: 'breaking' }
    ]
  },
  {
    slug: 'proxy',
    repo: 'example/proxy',
    latestVersion: 'v3.7.1',
    images: ['example/proxy'],
    releases: [
      { version: 'v3.5.0', cls: 'safe' },
      { version: 'v3.6.0', cls: 'safe' },
      { version: 'v3.6.1', cls: 'breaking' },
      { version: 'v3.6.2', cls: 'safe' },
      { version: 'v3.7.0', cls: 'caution' },
      { version: 'v3.7.1', cls: 'safe' }
    ]
  },
  {
    slug: 'cache',
    repo: 'example/cache',
    latestVersion: '7.4.0',
    images: ['example/cache'],
    releases: [
      { version: '7.0.15', cls: 'safe' },
      { version: '7.2.0', cls: 'caution' },
      { version: '7.2.1', cls: 'safe' },
      { version: '7.2.2', cls: 'breaking', kind: 'urgent' },
      { version: '7.4.0', cls: 'caution' }
    ]
  },
  {
    // No release judged yet.
    slug: 'store',
    repo: 'example/store',
    latestVersion: '8.4.0',
    images: ['example/store'],
    releases: []
  },
  {
    slug: 'metrics',
    repo: 'example/metrics',
    latestVersion: 'v3.14.0',
    images: ['example/metrics'],
    releases: [
      { version: 'v2.54.1', cls: 'safe' },
      { version: 'v3.0.0', cls: 'breaking' },
      { version: 'v3.1.0', cls: 'breaking', kind: 'urgent' },
      { version: 'v3.13.0', cls: 'caution' },
      { version: 'v3.14.0', cls: 'breaking' }
    ]
  }
]
