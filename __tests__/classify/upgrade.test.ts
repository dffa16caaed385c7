// The verdict from the version a user runs, over a history as releases.json publishes it.
import { describe, expect, it } from '@jest/globals'
import { verdictFrom } from '../../src/classify/upgrade.js'
import type { HistoryEntry } from '../../src/schema/index.js'
import { historyEntry } from '../support/history.js'
import { newestFirst } from '../../src/util/versions.js'

const entry = historyEntry

const history = (...e: HistoryEntry[]) => [...e].sort((a, b) => newestFirst(a, b))

describe('verdictFrom', () => {
  const h = history(
    entry('v2.2.12', 'safe'),
    entry('v2.2.11', 'breaking'),
    entry('v2.2.10', 'caution'),
    entry('v2.2.9', 'safe')
  )

  it('is breaking when a breaking release lies between the running version and the latest, and names it', () => {
    const v = verdictFrom(h, '2.2.10')
    expect(v.safeToUpdate).toBe('breaking')
    expect(v.decidedBy?.version).toBe('v2.2.11')
    expect(v.crossed.map((e) => e.version)).toEqual(['v2.2.12', 'v2.2.11'])
    expect(v.rationale).toContain('words of v2.2.11')
    expect(v.urgentOnly).toBe(false)
  })

  it('judges only the releases after the running one', () => {
    expect(verdictFrom(h, 'v2.2.11')).toMatchObject({ safeToUpdate: 'safe', crossed: [h[0]] })
    expect(verdictFrom(h, 'v2.2.12')).toMatchObject({ safeToUpdate: 'safe', crossed: [], decidedBy: null })
  })

  it('places a version between judged ones by version order', () => {
    // 2.2.10.1 is not judged, but it is after 2.2.10 and before 2.2.11.
    expect(verdictFrom(h, '2.2.10.1').crossed.map((e) => e.version)).toEqual(['v2.2.12', 'v2.2.11'])
  })

  it('gives unknown, never safe, for versions the history cannot place', () => {
    for (const running of ['2.2.1', 'latest', 'nightly-2026', 'v3.0.0']) {
      const v = verdictFrom(h, running)
      expect(v.safeToUpdate).toBe('unknown')
      expect(v.rationale.length).toBeGreaterThan(20)
    }
    expect(verdictFrom(h, '2.2.1').rationale).toContain('older than the releases judged')
    // A latest release that was never judged: the path crosses an unknown release.
    expect(verdictFrom(h, '2.2.11', { latest: 'v2.2.13' }).safeToUpdate).toBe('unknown')
    expect(verdictFrom([], '1.0.0', { latest: '1.1.0' }).safeToUpdate).toBe('unknown')
  })

  it('says when every breaking release crossed is an urgent fix, so a gate can let it through', () => {
    const urgent = history(entry('1.3.0', 'safe'), entry('1.2.1', 'breaking', 'urgent'), entry('1.2.0', 'caution'))
    expect(verdictFrom(urgent, '1.2.0')).toMatchObject({ safeToUpdate: 'breaking', urgentOnly: true })
    const both = history(entry('1.3.0', 'breaking', 'required'), ...urgent.slice(1))
    expect(verdictFrom(both, '1.2.0')).toMatchObject({ safeToUpdate: 'breaking', urgentOnly: false })
  })

  it('reads the labels the spec warns about: prefixes, release/ paths, calendar versions, four numbers', () => {
    const mono = history(
      entry('server@1.3.0', 'caution'),
      entry('server@1.2.3', 'breaking'),
      entry('server@1.2.0', 'safe')
    )
    expect(verdictFrom(mono, 'server@1.2.0', { tagPrefix: 'server@' }).decidedBy?.version).toBe('server@1.2.3')
    expect(verdictFrom(mono, '1.2.0', { tagPrefix: 'server@' }).safeToUpdate).toBe('breaking')
    const paths = history(entry('release/1.10', 'caution'), entry('release/1.9', 'safe'))
    expect(verdictFrom(paths, 'release/1.9').safeToUpdate).toBe('caution')
    const calendar = history(entry('2026.5.1', 'caution'), entry('2026.4.0', 'breaking'), entry('2025.12.3', 'safe'))
    expect(verdictFrom(calendar, '2025.12.3').safeToUpdate).toBe('breaking')
    const four = history(entry('1.2.3.5', 'safe'), entry('1.2.3.4', 'caution'))
    expect(verdictFrom(four, '1.2.3.4').safeToUpdate).toBe('safe')
  })
})

describe('newestFirst', () => {
  it('orders by version where labels read as numbers, else by date, and is total', () => {
    const items = [
      { version: 'v1.10.0', date: '2026-01-01' },
      { version: 'v1.9.0', date: '2026-02-01' },
      { version: 'release/1.2', date: null },
      { version: 'snapshot-b', date: '2026-03-01' },
      { version: 'snapshot-a', date: null },
      { version: '1.10.0.1', date: null }
    ]
    const sorted = [...items].sort((a, b) => newestFirst(a, b)).map((i) => i.version)
    expect(sorted.indexOf('1.10.0.1')).toBeLessThan(sorted.indexOf('v1.10.0'))
    expect(sorted.indexOf('v1.10.0')).toBeLessThan(sorted.indexOf('v1.9.0'))
    expect(sorted.indexOf('v1.9.0')).toBeLessThan(sorted.indexOf('release/1.2'))
    expect(sorted.indexOf('snapshot-b')).toBeLessThan(sorted.indexOf('snapshot-a'))
    expect(
      [...items]
        .reverse()
        .sort((a, b) => newestFirst(a, b))
        .map((i) => i.version)
    ).toEqual(sorted)
  })
})

describe('verdictOver with no judged release', () => {
  it('is unknown, and does not call running the latest an update from it to itself', async () => {
    const { verdictOver } = await import('../../src/classify/upgrade.js')
    const { placeLabel } = await import('../../src/check/placement.js')
    const at = (label: string) => placeLabel([], label, { latest: '2026.8.3' })
    const same = verdictOver([], at('2026.8.3'), at('2026.8.3'), { running: '2026.8.3', latest: '2026.8.3' })
    expect(same.safeToUpdate).toBe('unknown')
    expect(same.rationale).toContain('2026.8.3 is the latest release the catalog knows, but its releases are not read')
    expect(same.rationale).not.toContain('from 2026.8.3 to 2026.8.3')
    const older = verdictOver([], at('2026.7.0'), at('2026.8.3'), { running: '2026.7.0', latest: '2026.8.3' })
    expect(older).toMatchObject({ safeToUpdate: 'unknown' })
    expect(older.rationale).toContain('the update from 2026.7.0 to 2026.8.3 is not judged')
  })
})

describe('verdictOver from a tag of two numbers', () => {
  it('names a tag that is itself the newest release of its line plainly, and a line by its newest release', async () => {
    const { verdictOver } = await import('../../src/classify/upgrade.js')
    const { placeLabel } = await import('../../src/check/placement.js')
    const h = history(entry('16.6', 'safe'), entry('16.5', 'caution'), entry('16.4', 'safe'), entry('15.9', 'safe'))
    const at = (label: string) => placeLabel(h, label, { floating: true, latest: '16.6' })
    // postgres:16.4 names the release 16.4: no "(the newest judged release of the 16.4 line, 16.4)".
    const exact = verdictOver(h, at('16.4'), at('16.6'), { running: '16.4', latest: '16.6' })
    expect(exact.rationale).toMatch(/^Updating from 16\.4 to 16\.6 crosses 2 releases/)
    // A line of more releases keeps its words: `16` is its newest, 16.6.
    const line = verdictOver(h, at('15'), at('16'), { running: '15', latest: '16' })
    expect(line.rationale).toContain('15 (the newest judged release of the 15 line, 15.9)')
  })
})
