import { expect, it } from '@jest/globals'
import { describe } from '../support/needs-shared-data.js'
import { applyOverride, classifyReleases } from '../../src/classify/index.js'
import type { Logger, SourceRef } from '../../src/util/types.js'
import { note } from './fixtures.js'

function fakeLog() {
  const warnings: { message: string; ref?: SourceRef }[] = []
  const log: Logger = { info: () => {}, warning: (message, ref) => warnings.push({ message, ref }), error: () => {} }
  return { log, warnings }
}

const override = {
  class: 'caution' as const,
  reason: 'Upstream asks to reindex after this update (see discussion 123).',
  version: 'v4.5.10'
}

describe('applyOverride', () => {
  // Read inside the describe: where the data set is absent its body is not run.
  const n = note('netbox@v4.5.10')
  const verdict = classifyReleases({ releases: [{ version: n.version, notes: n.notes }] })

  it('wins while latestVersion equals its version', () => {
    expect(verdict.safeToUpdate).toBe('safe')
    const { log, warnings } = fakeLog()
    const v = applyOverride(verdict, override, 'v4.5.10', log, 'catalog/apps/netbox.yml')
    expect(v.safeToUpdate).toBe('caution')
    expect(v.rationale).toBe(
      'Curated override for v4.5.10: Upstream asks to reindex after this update (see discussion 123). The rules alone say: safe.'
    )
    expect(v.changelogSummary).toBe(verdict.changelogSummary)
    expect(warnings).toEqual([])
  })

  it('expires with a warning naming the file once a newer release appears', () => {
    const { log, warnings } = fakeLog()
    const v = applyOverride(verdict, override, 'v4.5.11', log, 'catalog/apps/netbox.yml')
    expect(v).toBe(verdict)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.ref).toEqual({ file: 'catalog/apps/netbox.yml' })
    expect(warnings[0]!.message).toContain('it was for v4.5.10 and the latest release is now v4.5.11')
  })

  it('does not apply to an older latest release, and says why', () => {
    const { log, warnings } = fakeLog()
    expect(applyOverride(verdict, override, 'v4.5.9', log)).toBe(verdict)
    expect(warnings[0]!.message).toContain('newer than the latest release v4.5.9')
    expect(warnings[0]!.ref).toBeUndefined()
  })

  it('without an override the verdict is unchanged and nothing is logged', () => {
    const { log, warnings } = fakeLog()
    expect(applyOverride(verdict, undefined, 'v4.5.10', log)).toBe(verdict)
    expect(warnings).toEqual([])
  })

  it('keeps the summary rule of the schema when the rules gave no summary', () => {
    const { log } = fakeLog()
    const noSummary = {
      safeToUpdate: 'unknown' as const,
      rationale: 'Unknown: assessment pending.',
      changelogSummary: null
    }
    expect(applyOverride(noSummary, { ...override, class: 'safe' }, 'v4.5.10', log).changelogSummary).toBe('...')
    expect(applyOverride(noSummary, { ...override, class: 'unmaintained' }, 'v4.5.10', log).changelogSummary).toBeNull()
  })
})
