// One app's record, built from upstream data, that fails its schema is that app's problem (issue 56): it keeps its
// last published record, or is published as unknown saying why, or (with no version to name) is left out; only a
// fault in a field the catalog decides still fails the build. A history entry that fails its schema becomes a gap,
// so no update across it reads as safe. The notes are made up here.
import { describe, expect, it } from '@jest/globals'
import type { AppFacts } from '../../src/pipeline/facts.js'
import { appRecord, refusedGaps, type RecordContext, type RecordFault } from '../../src/pipeline/records.js'
import { CLASSIFIER_DIGEST, type JudgeAnswer } from '../../src/classify/index.js'
import { verdictFrom } from '../../src/classify/upgrade.js'
import {
  appRecordSchema,
  releasesDocSchema,
  type AppRecord,
  type HistoryEntry,
  type ReleasesDoc
} from '../../src/schema/index.js'
import { ProblemsError } from '../../src/util/problems.js'
import type { Logger, ReleaseNotes } from '../../src/util/types.js'

const NOW = new Date('2026-12-02T06:00:00.000Z')
const FIX = '## Bug fixes\n- The feed list keeps its order after a reload'
const BREAKING = '## Breaking changes\n- The `DEMO_LISTEN` setting was removed: set `DEMO_PORT` before upgrading'

const url = (v: string) => `https://github.com/acme/tool/releases/tag/${v}`
const rel = (version: string, notes = FIX): ReleaseNotes => ({ version, notes, url: url(version), date: '2026-11-01' })

function appOf(
  crossed: ReleaseNotes[],
  more: Partial<AppFacts> = {},
  entry: Partial<AppFacts['entry']> = {}
): AppFacts {
  const latest = crossed[crossed.length - 1]!
  return {
    slug: 'tool',
    file: 'catalog/apps/tool.yml',
    entry: { name: 'Tool', repo: 'acme/tool', ...entry },
    facts: {
      version: latest.version,
      url: latest.url!,
      date: latest.date ?? null,
      notes: latest.notes,
      checked: '2026-12-02',
      archived: false,
      crossed
    },
    kept: null,
    stale: false,
    note: null,
    ...more
  }
}

function context(more: Partial<RecordContext> = {}): RecordContext & { warnings: string[]; faults: RecordFault[] } {
  const warnings: string[] = []
  const log: Logger = {
    info: () => {},
    warning: (m, ref) => warnings.push(`${ref?.file ?? ''}: ${m}`),
    error: () => {}
  }
  return {
    baseUrl: 'https://example.org',
    now: NOW,
    docs: new Map(),
    previous: new Map(),
    model: CLASSIFIER_DIGEST,
    log,
    warnings,
    faults: [],
    ...more
  }
}

/** A record published before, at 1.0.0. */
const PRIOR: AppRecord = appRecordSchema.parse({
  slug: 'tool',
  name: 'Tool',
  repo: 'acme/tool',
  latestVersion: '1.0.0',
  safeToUpdate: 'safe',
  rationale: 'Safe in 1.0.0: a made-up rationale.',
  changelogSummary: 'Bug fixes: a made-up summary.',
  sourceUrl: url('1.0.0'),
  lastChecked: '2026-11-01',
  successor: null,
  url: 'https://example.org/apps/tool/',
  badge: 'https://example.org/badge/tool.svg',
  lifecycle: null
})

/** A release page address upstream made longer than any the schema takes. */
const HUGE_URL = `https://github.com/acme/tool/releases/tag/2.0.0?${'x'.repeat(3000)}`

describe('a record built from upstream data that fails its schema (issue 56)', () => {
  it('keeps the last published record, names the fault, and never throws', () => {
    const ctx = context({ previous: new Map([['tool', PRIOR]]) })
    const built = appRecord(appOf([{ ...rel('2.0.0'), url: HUGE_URL }], {}, {}), ctx)
    expect(built).not.toBeNull()
    expect(built!.page.record).toBe(PRIOR)
    expect(ctx.faults).toEqual([
      {
        slug: 'tool',
        file: 'catalog/apps/tool.yml',
        field: 'sourceUrl',
        problem: expect.stringMatching(/^Too big/),
        published: 'previous'
      }
    ])
    expect(ctx.warnings).toContainEqual(
      expect.stringMatching(
        /^catalog\/apps\/tool\.yml: tool: the record built from upstream data cannot be published \(sourceUrl: .*\); its last published record \(1\.0\.0\) is kept$/
      )
    )
    expect(releasesDocSchema.safeParse(built!.releases).success).toBe(true)
  })

  it('with no record published before, publishes it as unknown, saying the upstream data could not be published', () => {
    const ctx = context()
    const built = appRecord(appOf([{ ...rel('2.0.0'), url: HUGE_URL }]), ctx)
    const record = built!.page.record
    expect(appRecordSchema.safeParse(record).success).toBe(true)
    expect(record).toMatchObject({ latestVersion: '2.0.0', safeToUpdate: 'unknown', changelogSummary: null })
    expect(record.rationale).toMatch(
      /^Not known to be safe: the upstream data of 2\.0\.0 could not be published \(sourceUrl: /
    )
    expect(ctx.faults.map((f) => f.published)).toEqual(['unknown'])
    // Nothing judged from the data that failed goes into its history.
    expect(built!.releases.releases).toEqual([])
  })

  it('falls back on the catalog’s own release when nothing of upstream’s can be published', () => {
    const ctx = context()
    const app = appOf(
      [{ ...rel('2.0.0'), url: HUGE_URL }],
      {},
      {
        release: { version: '1.5.0', url: url('1.5.0'), checked: '2026-11-20' }
      }
    )
    app.facts!.checked = 'not a date'
    const built = appRecord(app, ctx)
    expect(built!.page.record).toMatchObject({
      latestVersion: '1.5.0',
      safeToUpdate: 'unknown',
      lastChecked: '2026-11-20'
    })
  })

  it('leaves the app out (null) when not even an unknown record can be published', () => {
    const ctx = context()
    const app = appOf([{ ...rel('2.0.0'), url: HUGE_URL }])
    app.facts!.checked = 'not a date'
    expect(appRecord(app, ctx)).toBeNull()
    expect(ctx.faults.map((f) => [f.field, f.published])).toEqual([['sourceUrl', 'none']])
    expect(ctx.warnings.join('\n')).toContain('it is left out of this snapshot')
  })

  it('still fails the build for a fault in a field the catalog decides, naming file and field', () => {
    const ctx = context()
    const app = appOf([rel('2.0.0')], {}, { name: 'n'.repeat(101) })
    expect(() => appRecord(app, ctx)).toThrow(ProblemsError)
    try {
      appRecord(app, ctx)
    } catch (e) {
      expect((e as ProblemsError).problems).toEqual([
        expect.objectContaining({ file: 'catalog/apps/tool.yml', field: 'name' })
      ])
    }
    expect(ctx.faults).toEqual([])
  })
})

/** A model's checked answer, as model-answer.ts used to pass one whose reason was blank. */
function blankReason(cls: 'safe' | 'breaking', line: string): JudgeAnswer & { cut: boolean } {
  return {
    class: cls,
    breakingKind: cls === 'breaking' ? 'required' : null,
    line,
    reason: '',
    id: 'openai/gpt-4.1-mini',
    prompt: 1,
    cut: false
  }
}

describe('a history entry that fails its schema becomes a gap (issue 56, item 3)', () => {
  /** 1.0.0 (published before), 1.1.0 (breaking) and 1.2.0 judged; the model's answer for 1.1.0 has a blank reason. */
  function run(): { releases: ReleasesDoc; warnings: string[] } {
    const ctx = context({
      judging: {
        judge: 'model:openai/gpt-4.1-mini',
        answers: new Map([
          ['tool', new Map([['1.1.0', blankReason('breaking', 'The `DEMO_LISTEN` setting was removed')]])]
        ])
      }
    })
    const built = appRecord(appOf([rel('1.0.0'), rel('1.1.0', BREAKING), rel('1.2.0')]), ctx)!
    return { releases: built.releases, warnings: ctx.warnings }
  }

  it('records the refused release as a gap, and an update across it is unknown, never safe', () => {
    const { releases, warnings } = run()
    expect(releasesDocSchema.safeParse(releases).success).toBe(true)
    expect(releases.releases.map((e) => e.version)).toEqual(['1.2.0', '1.0.0'])
    expect(releases.gaps).toEqual([{ after: '1.0.0', before: '1.2.0', found: '2026-12-02' }])
    expect(warnings.join('\n')).toMatch(/release "1\.1\.0" left out of its history, recorded as a gap/)
    const verdict = verdictFrom(releases.releases, '1.0.0', { latest: '1.2.0', gaps: releases.gaps ?? [] })
    expect(verdict.safeToUpdate).toBe('unknown')
  })
})

describe('refusedGaps', () => {
  const held = [{ version: '0.9.0' }, { version: '0.8.0' }] as HistoryEntry[]
  it('spans a run of refused releases from the one judged below to the one judged above', () => {
    expect(refusedGaps(new Set(['1.1', '1.2']), ['1.0', '1.1', '1.2', '1.3'], held)).toEqual([
      { after: '1.0', before: '1.3' }
    ])
  })
  it('takes the newest held release below when the oldest judged is refused, and ends at the newest refused', () => {
    expect(refusedGaps(new Set(['1.0', '1.3']), ['1.0', '1.1', '1.3'], held)).toEqual([
      { after: '0.9.0', before: '1.1' },
      { after: '1.1', before: '1.3' }
    ])
  })
  it('needs no span below every release known', () => {
    expect(refusedGaps(new Set(['0.1']), ['0.1', '1.0'], held)).toEqual([])
  })
})
