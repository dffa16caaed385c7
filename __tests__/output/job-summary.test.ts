import { describe, expect, it } from '@jest/globals'
import type { RecordChange } from '../../src/pipeline/pipeline.js'
import {
  buildSummary,
  escapeMarkdown,
  headlineChanges,
  MAX_LIST_ITEMS,
  type SummaryInput
} from '../../src/output/job-summary.js'

const base: SummaryInput = { count: 3, changes: [], stale: [], warnings: [], errors: [], refresh: true, stats: null }

function change(slug: string, before: [string, string] | null, after: [string, string] | null): RecordChange {
  const brief = (v: [string, string] | null) => (v ? { latestVersion: v[0], safeToUpdate: v[1] as 'safe' } : null)
  return { slug, before: brief(before), after: brief(after) }
}

/** The table rows of the summary, as arrays of trimmed cells. */
function rows(md: string): string[][] {
  return md
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| App') && !l.startsWith('| ---'))
    .map((l) =>
      l
        .slice(2, -2)
        .split(' | ')
        .map((c) => c.trim())
    )
}

describe('buildSummary', () => {
  it('names each model of a list that judged, the rules, and the apps whose notes address the judge', () => {
    const md = buildSummary({
      ...base,
      judging: {
        judge: 'model:openai/gpt-4.1',
        calls: 9,
        verdicts: { 'model:openai/gpt-4.1': 5, 'model:openai/gpt-4.1-mini': 3, rules: 1 },
        injection: ['wiki', 'blog']
      }
    })
    expect(md).toContain(
      'Judge: `openai/gpt-4.1` (GitHub Models) judged 5 new releases in 9 requests; the next model, `openai/gpt-4.1-mini`, judged 3 new releases; 1 left to the rules, asked again next run.'
    )
    expect(md).toContain('Notes that address the reviewer or ask for a class, judged by the rules alone: wiki, blog.')
  })

  it('says how many releases got model answers that could not be used, and how many still wait for the model', () => {
    const judging = { judge: 'model:openai/gpt-4.1', calls: 4, verdicts: { 'model:openai/gpt-4.1': 3, rules: 2 } }
    const line = (extra: object) =>
      buildSummary({ ...base, judging: { ...judging, ...extra } })
        .split('\n')
        .find((l) => l.startsWith('Judge:'))
    expect(line({})).toBe(
      'Judge: `openai/gpt-4.1` (GitHub Models) judged 3 new releases in 4 requests; 2 left to the rules, asked again next run.'
    )
    expect(line({ unusable: 1, pending: 7 })).toMatch(
      /next run\. 1 release got an answer that could not be used \(the release's history names the model\)\. 7 latest releases still wait for the model\.$/
    )
    expect(line({ unusable: 2, pending: 1 })).toMatch(
      / 2 releases got answers that could not be used .* 1 latest release still waits for the model\.$/
    )
  })

  it('counts and lists the apps left out, with what upstream did, escaped', () => {
    const md = buildSummary({ ...base, leftOut: [{ slug: 'newapp', reason: 'not found: <b>gone</b>' }] })
    expect(md).toContain('3 apps · 0 changed · 0 stale · 1 left out · 0 warnings')
    expect(md).toContain('### Left out')
    expect(md).toContain('- newapp: not found: \\<b\\>gone\\</b\\>')
  })

  it('counts and lists the apps whose upstream data could not be published, with what was published instead', () => {
    const md = buildSummary({
      ...base,
      faults: [
        { slug: 'odd', field: 'sourceUrl', problem: 'Too big: <2048', published: 'previous' },
        { slug: 'new', field: 'lifecycle.eol', problem: 'bad', published: 'unknown' }
      ]
    })
    expect(md).toContain('3 apps · 0 changed · 0 stale · 2 upstream faults · 0 warnings')
    expect(md).toContain('### Upstream data not published')
    expect(md).toContain('- odd: sourceUrl: Too big: \\<2048; last published record kept')
    expect(md).toContain('- new: lifecycle.eol: bad; published as unknown')
  })

  it('tabulates version and classification moves as old → new', () => {
    const md = buildSummary({
      ...base,
      changes: [
        change('gitea', ['1.23.4', 'safe'], ['1.23.5', 'breaking']),
        change('miniflux', ['2.2.11', 'safe'], ['2.2.11', 'caution']),
        change('newapp', null, ['v1.0.0', 'safe']),
        change('oldapp', ['0.9', 'unknown'], null)
      ]
    })
    expect(md).toContain('### Version or classification changed')
    expect(rows(md)).toEqual([
      ['gitea', '`1.23.4` → `1.23.5`', '**safe** → **breaking**'],
      ['miniflux', '`2.2.11`', '**safe** → **caution**'],
      ['newapp', '`v1.0.0` (new app)', '**safe**'],
      ['oldapp', '`0.9` → removed', '**unknown**']
    ])
    expect(md).toContain('3 apps · 4 changed · 0 stale · 0 warnings · refreshed from upstream')
  })

  it('keeps records that changed only in rationale or lifecycle out of the table, but names them', () => {
    const md = buildSummary({ ...base, changes: [change('redis', ['8.1', 'safe'], ['8.1', 'safe'])] })
    expect(rows(md)).toEqual([])
    expect(md).not.toContain('### Version or classification changed')
    expect(md).toContain('Also changed (rationale, summary, lifecycle or links): redis.')
  })

  it('says only the run report is new when no record changed', () => {
    const md = buildSummary(base)
    expect(md).toContain('No record changed since the previous snapshot: only the run report')
    expect(md).not.toContain('### Stale')
    expect(md).not.toContain('### Warnings')
  })

  it('lists stale apps and warnings, escaped so upstream text cannot inject markup or break the table', () => {
    const md = buildSummary({
      ...base,
      changes: [change('x', ['1|2', 'safe'], ['<b>3</b>', 'caution'])],
      stale: ['grafana'],
      warnings: ['grafana: GitHub said <script>alert(1)</script> | [link](http://evil) **bold**\nsecond line']
    })
    expect(md).toContain(
      '### Stale\n\nUpstream could not be read for these apps; their last-known-good records were republished.\n\n- grafana'
    )
    expect(md).toContain(
      '- grafana: GitHub said \\<script\\>alert\\(1\\)\\</script\\> \\| \\[link\\]\\(http://evil\\) \\*\\*bold\\*\\* second line'
    )
    expect(md).not.toMatch(/<script>/)
    // The pipe inside the version is escaped, so the row still has three cells.
    expect(rows(md)).toEqual([['x', '`1\\|2` → `<b>3</b>`', '**safe** → **caution**']])
    expect(md).toContain('1 stale · 1 warning ·')
  })

  it('reports errors as a failure with every error listed', () => {
    const md = buildSummary({
      ...base,
      count: null,
      errors: ['catalog/apps/a.yml:3:1: repo: is required', 'catalog/apps/b.yml:1:1: nmae: unknown key']
    })
    expect(md).toContain('**Failed: nothing was published.** 2 errors:')
    expect(md).toContain('- catalog/apps/a.yml:3:1: repo: is required')
    expect(md).not.toContain('No record changed')
  })

  it('shows the GitHub request figures of a refresh', () => {
    const md = buildSummary({ ...base, stats: { requests: 3, graphqlPoints: 2, remaining: 4998, batches: 1 } })
    expect(md).toContain('GitHub: 3 requests, 2 GraphQL points, 4998 points left.')
  })

  it('cuts long lists so the summary stays readable', () => {
    const warnings = Array.from({ length: MAX_LIST_ITEMS + 7 }, (_, i) => `w${i}`)
    const changes = Array.from({ length: MAX_LIST_ITEMS + 3 }, (_, i) =>
      change(`app-${i}`, ['1', 'safe'], ['2', 'safe'])
    )
    const md = buildSummary({ ...base, warnings, changes })
    expect(md).toContain('- … and 7 more')
    expect(md).toContain('| … and 3 more | | |')
    expect(rows(md).filter((r) => r[0]?.startsWith('app-'))).toHaveLength(MAX_LIST_ITEMS)
  })
})

describe('helpers', () => {
  it('headlineChanges keeps version, class, added and removed changes only', () => {
    const all = [
      change('a', ['1', 'safe'], ['1', 'safe']),
      change('b', ['1', 'safe'], ['2', 'safe']),
      change('c', null, ['1', 'safe']),
      change('d', ['1', 'safe'], null)
    ]
    expect(headlineChanges(all).map((c) => c.slug)).toEqual(['b', 'c', 'd'])
  })

  it('escapeMarkdown leaves plain words alone', () => {
    expect(escapeMarkdown('  plain words, v1.2.3-rc.1  ')).toBe('plain words, v1.2.3-rc.1')
  })
})
