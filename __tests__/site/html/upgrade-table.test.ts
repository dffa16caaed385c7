// The app page's upgrade table: a known breaking release on the way shows beside an update that is unknown.
import { describe, expect, it } from '@jest/globals'
import { upgradeTable } from '../../../src/site/html/upgrade-table.js'
import { RELEASES_SCHEMA_ID, type AppRecord } from '../../../src/schema/index.js'
import { historyEntry } from '../../support/history.js'

const entry = historyEntry

const record = { slug: 'x', latestVersion: 'v1.4.0' } as AppRecord
const releases = [entry('v1.4.0', 'safe'), entry('v1.3.0', 'breaking'), entry('v1.2.0', 'safe'), entry('v1.0.0', 'safe')]
const rowOf = (html: string, v: string) => new RegExp(`<tr data-v="${v.replace(/\./g, '\\.')}">[\\s\\S]*?</tr>`).exec(html)?.[0] ?? ''

describe('upgradeTable', () => {
  it('shows the breaking release an unknown update crosses, as check counts it, and the reason whole', () => {
    // Releases between v1.0.0 and v1.2.0 were never read: from v1.0.0 the update is unknown, but crosses v1.3.0.
    const html = upgradeTable(record, {
      schema: RELEASES_SCHEMA_ID,
      generatedAt: '2026-12-01T00:00:00.000Z',
      slug: 'x',
      latest: null,
      releases,
      gaps: [{ after: 'v1.0.0', before: 'v1.2.0', found: '2026-11-01' }]
    })
    const old = rowOf(html, 'v1.0.0')
    expect(old).toMatch(/<span class="k k-unknown">Unknown<\/span> <small>and crosses<\/small> <span class="k k-breaking">Breaking<\/span> <small>at <code>v1\.3\.0<\/code>/)
    expect(old).toContain('the most severe is breaking (v1.3.0).')
    // Where the update is judged, the release that decided it is named as before.
    expect(rowOf(html, 'v1.2.0')).toMatch(/<span class="k k-breaking">Breaking<\/span> <small>decided by <code>v1\.3\.0<\/code>/)
  })
})
