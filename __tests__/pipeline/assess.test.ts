// Properties (fast-check): every text a record or a history entry takes from upstream (notes, version labels,
// a moved repository's name, the curator's reason beside them) stays within its schema bounds, whatever its length
// or content, on every path: judged, archived, cut (notes past every bound), pending, moved, releases not read,
// tags only, overridden. A record from upstream data a refresh can pass on is never at fault (issue 56).
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { assess } from '../../src/pipeline/assess.js'
import type { AppFacts } from '../../src/pipeline/facts.js'
import { appRecord, type RecordFault } from '../../src/pipeline/records.js'
import { CLASSIFIER_DIGEST } from '../../src/classify/index.js'
import { appRecordSchema, LIMITS, releasesDocSchema, type Override } from '../../src/schema/index.js'
import type { Logger, ReleaseNotes } from '../../src/util/types.js'
import { anyNotes, anyText, longText, pageOf, releasesOf, stableVersion } from '../support/upstream-arbitraries.js'

const quiet: Logger = { info: () => {}, warning: () => {}, error: () => {} }

interface Shape {
  crossed: ReleaseNotes[]
  earlier: ReleaseNotes[]
  archived: boolean
  fromTags: boolean
  gap: boolean
  movedTo: string | null
  notesRead: boolean
  override: Override | null
}

/** An app's facts in every shape a refresh or a notes file gives them. */
const shapes: fc.Arbitrary<Shape> = fc.record({
  crossed: releasesOf(1, 4),
  earlier: fc.oneof(fc.constant<ReleaseNotes[]>([]), releasesOf(1, 2)),
  archived: fc.boolean(),
  fromTags: fc.boolean(),
  gap: fc.boolean(),
  movedTo: fc.option(fc.oneof(anyText(300), longText(1500)), { nil: null }),
  notesRead: fc.boolean(),
  override: fc.option(
    fc.record({
      class: fc.constantFrom('safe', 'caution', 'breaking', 'unknown', 'unmaintained' as const),
      // The catalog checks a reason's length and characters; what it says is the curator's.
      reason: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: LIMITS.reason }),
      version: fc.constant('LATEST')
    }),
    { nil: null }
  )
})

function appOf(shape: Shape, latest?: string): AppFacts {
  // Earlier releases sit below the crossed ones: their labels say so.
  const earlier = shape.earlier.map((r, i) => ({ ...r, version: `0.${i}.0`, url: pageOf(`0.${i}.0`) }))
  const crossed = latest
    ? [...shape.crossed.slice(0, -1), { ...shape.crossed.at(-1)!, version: latest, url: pageOf(latest) }]
    : shape.crossed
  const last = crossed.at(-1)!
  const override = shape.override && { ...shape.override, version: last.version }
  return {
    slug: 'tool',
    file: 'catalog/apps/tool.yml',
    entry: { name: 'Tool', repo: 'acme/tool', ...(override ? { override } : {}) },
    facts: {
      version: last.version,
      url: last.url!,
      date: last.date ?? null,
      notes: shape.notesRead ? last.notes : null,
      checked: '2026-12-02',
      archived: shape.archived,
      crossed,
      ...(earlier.length > 0 ? { earlier } : {}),
      ...(shape.gap ? { gap: { after: '0.0.1', before: crossed[0]!.version } } : {}),
      ...(shape.movedTo !== null ? { movedTo: shape.movedTo } : {}),
      ...(shape.fromTags ? { fromTags: true } : {})
    },
    kept: null,
    stale: false,
    note: null
  }
}

const within = (s: string | null, max: number) => s === null || (s.length >= 1 && s.length <= max)

describe('assess: every text within its bounds (issue 56)', () => {
  it('the record’s rationale and summary, and each release’s rationale, evidence and quote', () => {
    fc.assert(
      fc.property(shapes, (shape) => {
        const app = appOf(shape)
        const a = assess({ ...app, facts: app.facts! }, quiet)
        expect(a.verdict.rationale.length).toBeGreaterThanOrEqual(1)
        expect(a.verdict.rationale.length).toBeLessThanOrEqual(LIMITS.rationale)
        expect(within(a.verdict.changelogSummary, LIMITS.summary)).toBe(true)
        for (const { verdict: v } of a.judged) {
          expect(within(v.rationale, LIMITS.rationale) && v.rationale !== null).toBe(true)
          expect(within(v.evidence, LIMITS.reason)).toBe(true)
          expect(within(v.quote, LIMITS.reason)).toBe(true)
        }
      }),
      { numRuns: 150 }
    )
  })

  it('an archived app’s summary of its last release, however long its notes', () => {
    fc.assert(
      fc.property(longText(20_000), stableVersion, (notes, version) => {
        const app = appOf(
          {
            crossed: [{ version, notes, url: pageOf(version), date: null }],
            earlier: [],
            archived: true,
            fromTags: false,
            gap: false,
            movedTo: null,
            notesRead: true,
            override: null
          },
          version
        )
        const { verdict } = assess({ ...app, facts: app.facts! }, quiet)
        expect(verdict.safeToUpdate).toBe('unmaintained')
        expect(within(verdict.changelogSummary, LIMITS.summary)).toBe(true)
      }),
      { numRuns: 25 }
    )
  })
})

describe('appRecord: a record and history built from upstream data are never at fault (issue 56)', () => {
  function build(app: AppFacts) {
    const faults: RecordFault[] = []
    const warnings: string[] = []
    const log: Logger = { ...quiet, warning: (m) => warnings.push(m) }
    const ctx = {
      baseUrl: 'https://example.org',
      now: new Date('2026-12-02T06:00:00.000Z'),
      docs: new Map(),
      previous: new Map(),
      model: CLASSIFIER_DIGEST,
      log,
      faults
    }
    return { built: appRecord(app, ctx), faults, warnings }
  }

  it('on every path, with version labels of any length the refresh passes on', () => {
    fc.assert(
      fc.property(shapes, fc.option(stableVersion, { nil: undefined }), (shape, latest) => {
        const { built, faults, warnings } = build(appOf(shape, latest))
        expect(faults).toEqual([])
        expect(warnings.filter((w) => w.includes('left out of its history'))).toEqual([])
        expect(appRecordSchema.safeParse(built!.page.record).success).toBe(true)
        expect(releasesDocSchema.safeParse(built!.releases).success).toBe(true)
      }),
      { numRuns: 100 }
    )
  })

  it('with notes past the notes bound (the cut path)', () => {
    fc.assert(
      fc.property(anyNotes(), fc.boolean(), (head, archived) => {
        const notes = `${head}\n${'- fixed the panel again '.repeat(3000)}`
        const version = '2.0.0'
        const { built, faults } = build(
          appOf(
            {
              crossed: [{ version, notes, url: pageOf(version), date: null }],
              earlier: [],
              archived,
              fromTags: false,
              gap: false,
              movedTo: null,
              notesRead: true,
              override: null
            },
            version
          )
        )
        expect(notes.length).toBeGreaterThan(LIMITS.notes)
        expect(faults).toEqual([])
        expect(releasesDocSchema.safeParse(built!.releases).success).toBe(true)
      }),
      { numRuns: 5 }
    )
  })
})
