// The check action's comment: upstream words made inert (no HTML, no table break, no @mention),
// the worst updates first, and a size GitHub accepts for a comment however many images change.
import { describe, expect, it } from '@jest/globals'
import { reportMarkdown, type Report } from '../../src/check/action.js'
import type { CheckedApp } from '../../src/check/report.js'

// Made-up words that try what hostile release notes could: HTML, a pipe, a mention, a workflow command.
const HOSTILE = 'Run <script>alert(1)</script> | cc @maintainers\n::set-output name=x::y `code`'

function app(slug: string, cls: 'safe' | 'breaking', line: number): CheckedApp {
  const release = {
    version: '2.0.0',
    safeToUpdate: cls,
    breakingKind: cls === 'breaking' ? ('required' as const) : null,
    security: false,
    url: 'https://example.invalid/r',
    rationale: 'r',
    quote: HOSTILE,
    evidence: 'e'
  }
  return {
    slug,
    name: slug,
    source: {
      from: 'change',
      file: 'compose.yml',
      service: 'services.x.image',
      line,
      image: `x/${slug}:2.0.0`,
      baseImage: `x/${slug}:1.0.0`
    },
    running: '1.0.0',
    latest: '2.0.0',
    changesMajor: true,
    safeToUpdate: cls,
    rationale: 'why',
    decidedBy: release,
    crossed: [release],
    breaking: cls === 'breaking',
    urgentOnly: false,
    unmaintained: false
  }
}

const report = (apps: CheckedApp[]): Report => ({
  result: { snapshot: { generatedAt: '2026-11-28T00:00:00.000Z' }, apps, untracked: [] },
  added: [],
  unreadable: [],
  notRead: [],
  failOn: 'breaking',
  allowUrgent: false,
  status: 1,
  api: 'https://example.invalid'
})

describe('reportMarkdown', () => {
  it('quotes upstream words inert: no HTML, no cell break, no mention, no command at a line start', () => {
    const md = reportMarkdown(report([app('demo', 'breaking', 3)]))
    const row = md.split('\n').find((l) => l.startsWith('| `compose.yml:3`'))!
    expect(row).not.toContain('<script>')
    expect(row).toContain('\\<script\\>')
    expect(row.split(/(?<!\\)\|/)).toHaveLength(8) // 6 cells, nothing more
    expect(row).toContain('@\u200bmaintainers')
    expect(md).not.toMatch(/^::/m)
  })

  it('stays far below GitHub’s 65,536 characters for 200 changed images, the breaking ones first', () => {
    const apps = Array.from({ length: 200 }, (_, i) => app(`app${i}`, i === 150 ? 'breaking' : 'safe', i + 1))
    const md = reportMarkdown(report(apps))
    expect(md.length).toBeLessThan(60_000)
    const rows = md.split('\n').filter((l) => l.startsWith('| `compose.yml:'))
    expect(rows).toHaveLength(40)
    expect(rows[0]).toContain('| app150 |')
    expect(md).toContain('…and 160 more updates left out here (the worst come first).')
  })

  it('cuts a report past GitHub’s 65,536 characters, saying how many rows and lines it left out', () => {
    // Every field at its longest: a long path, mentions made inert (each "@" takes two characters), long reasons.
    const long = (i: number) => {
      const a = app(`app-${'x'.repeat(60)}-${i}`, 'breaking', i + 1)
      const file = `${'deep/'.repeat(40)}compose-${i}.yml`
      if (a.source.from === 'change') a.source.file = file
      a.decidedBy!.quote = '@'.repeat(1000)
      a.running = '@'.repeat(100)
      return a
    }
    const r = report(Array.from({ length: 60 }, (_, i) => long(i)))
    r.notRead = Array.from({ length: 60 }, (_, i) => ({
      file: `${'deep/'.repeat(40)}values-${i}.yaml`,
      reason: `is not YAML: ${'@'.repeat(600)}`
    }))
    r.result.untracked = Array.from({ length: 60 }, (_, i) => ({
      file: `${'deep/'.repeat(40)}other-${i}.yaml`,
      service: 'services.x.image',
      line: i + 1,
      image: `registry.example.invalid/${'y'.repeat(200)}:1.0.${i}`,
      reason: `not tracked by this catalog ${'@'.repeat(600)}`
    }))
    const md = reportMarkdown(r, 'No pull-request comment: '.repeat(60))
    expect(md.length).toBeLessThanOrEqual(65_536)
    expect(md.startsWith('<!-- updatesafe-check -->\n')).toBe(true)
    expect(md).toMatch(/<sub>fail-on: breaking · catalog https:\/\/example\.invalid, generated .*<\/sub>\n$/)
    const rows = md.split('\n').filter((l) => l.startsWith('| `deep/'))
    const lines = md.split('\n').filter((l) => l.startsWith('- `deep/'))
    expect(md).toContain(`…and ${60 - rows.length} more updates left out here`)
    expect(md).toContain(`- and ${120 - lines.length} more left out here`)
  })

  it('prints the catalog’s address without its user name and password', () => {
    const r = report([app('demo', 'breaking', 3)])
    r.api = 'https://reader:hunter22secret@catalog.example.invalid/site'
    const md = reportMarkdown(r)
    expect(md).not.toContain('hunter22secret')
    expect(md).toContain('catalog https://catalog.example.invalid/site,')
  })
})
