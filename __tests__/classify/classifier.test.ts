import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ARCHIVED_SUMMARY, classifyReleases, MAX_RELEASES, SUMMARY_MAX } from '../../src/classify/index.js'
import { CLASSES, LIMITS } from '../../src/schema/index.js'
import { LABELS, note, NOTES } from './fixtures.js'

const one = (id: string) => {
  const n = note(id)
  return classifyReleases({ releases: [{ version: n.version, notes: n.notes }] })
}

describe('classifyReleases on real notes', () => {
  // Each row: a real release, the class its dev label gives, the rule that should decide,
  // and words the rationale must quote.
  const pinned: [string, string, string, string][] = [
    ['netbox@v4.3.0', 'breaking', 'breaking-section', 'PostgreSQL 13 is no longer supported'],
    ['paperless-ngx@3.0.0', 'breaking', 'breaking-section', '[BREAKING]'],
    ['woodpecker@3.0.0', 'breaking', 'breaking-section', 'Remove all default privileged plugins'],
    ['miniflux@2.2.10', 'breaking', 'breaking-marker', 'feat(integration)!: remove Pocket integration'],
    ['vikunja@0.22.0', 'breaking', 'breaking-marker', 'BREAKING: The api route to create a new task'],
    ['docker-mailserver@12.0.0', 'breaking', 'runtime-requirement', 'TLS 1.2 is the minimum supported protocol'],
    ['adguard-home@v0.107.52', 'breaking', 'manual-step', 'you need to reinstall the service'],
    ['woodpecker@2.7.2', 'breaking', 'manual-step', 'To secure your instance, set WOODPECKER_PLUGINS_PRIVILEGED'],
    ['woodpecker@3.17.0', 'breaking', 'removed-setting', 'Rename CI_COMMIT_PRERELEASE to CI_PIPELINE_RELEASE_PRE'],
    ['adguard-home@v0.107.60', 'breaking', 'removed-section', 'Node 18 support.'],
    ['traefik@v3.6.4', 'breaking', 'migration-guide', 'please read the migration guide'],
    ['docker-mailserver@v15.1.0', 'caution', 'hedged-breaking', 'before we start with breaking changes'],
    ['adguard-home@v0.107.77', 'caution', 'security-fix', 'path traversal'],
    ['paperless-ngx@2.20.8', 'caution', 'security-fix', 'GHSA-7qqc-wrcw-2fj9'],
    ['netbox@v4.4.0', 'caution', 'deprecation', 'The direct assignment of VLANs to sites is now discouraged'],
    ['miniflux@2.1.0', 'caution', 'default-change', 'Change default Accept header'],
    ['traefik@v3.6.7', 'caution', 'default-change', 'Make encoded character options opt-in'],
    ['paperless-ngx@2.20.0', 'caution', 'platform-change', 'Upgrade underlying Docker image to Trixie'],
    ['docker-mailserver@v13.0.1', 'caution', 'advice', 'Make sure to check the documentation'],
    ['adguard-home@v0.107.43', 'safe', 'no-risk-found', ''],
    ['netbox@v4.5.10', 'safe', 'no-risk-found', ''],
    ['paperless-ngx@3.0.2', 'safe', 'no-risk-found', ''],
    ['traefik@v3.7.2', 'unknown', 'no-content', ''],
    ['vikunja@0.2', 'unknown', 'empty-notes', '']
  ]

  it.each(pinned)('%s → %s by %s', (id, cls, ruleName, quote) => {
    const label = LABELS.find((l) => l.id === id)
    expect(label?.label).toBe(cls) // the pin agrees with the hand label
    const j = one(id)
    expect(j.safeToUpdate).toBe(cls)
    expect(j.rule).toBe(ruleName)
    expect(j.decidedBy).toBe(note(id).version)
    expect(j.rationale).toContain(`rule ${ruleName}`)
    expect(j.rationale).toContain(note(id).version)
    if (quote) expect(j.rationale).toContain(quote)
  })

  it('never calls a labelled breaking release safe', () => {
    for (const l of LABELS.filter((x) => x.label === 'breaking')) {
      expect([l.id, one(l.id).safeToUpdate]).not.toEqual([l.id, 'safe'])
    }
  })

  it('gives every real entry a valid class, a bounded rationale and summary', () => {
    for (const n of NOTES) {
      const j = classifyReleases({ releases: [{ version: n.version, notes: n.notes }] })
      expect(CLASSES).toContain(j.safeToUpdate)
      expect(j.rationale.length).toBeGreaterThan(0)
      expect(j.rationale.length).toBeLessThanOrEqual(LIMITS.rationale)
      expect(j.changelogSummary).not.toBeNull()
      expect(j.changelogSummary!.length).toBeGreaterThan(0)
      expect(j.changelogSummary!.length).toBeLessThanOrEqual(SUMMARY_MAX)
      expect(j.rule).not.toBeNull()
    }
  })
})

describe('several releases', () => {
  const crossed = ['netbox@v4.4.4', 'netbox@v4.5.0', 'netbox@v4.5.10'].map((id) => ({
    version: note(id).version,
    notes: note(id).notes
  }))

  it('the most severe release decides and the rationale names it', () => {
    const j = classifyReleases({ releases: crossed })
    expect(j.safeToUpdate).toBe('breaking')
    expect(j.decidedBy).toBe('v4.5.0')
    expect(j.rationale).toContain('in v4.5.0')
    expect(j.rationale).toContain('Judged 3 releases from v4.4.4 to v4.5.10')
    expect(j.rationale).toContain('the most severe decides: v4.5.0')
  })

  it('the summary covers the newest release and says how many it spans', () => {
    const j = classifyReleases({ releases: crossed })
    const newest = classifyReleases({ releases: [crossed[2]!] })
    expect(j.changelogSummary).toMatch(/^Spans 3 releases; the newest: /)
    // The newest release's own summary content follows the prefix.
    expect(j.changelogSummary!.replace(/^Spans 3 releases; the newest: /, '').slice(0, 60)).toBe(
      newest.changelogSummary!.slice(0, 60)
    )
    expect(j.changelogSummary).not.toContain('Python 3.10') // that is in v4.5.0, not the newest
  })

  it('among equally severe releases the newest decides', () => {
    const safe = ['adguard-home@v0.107.38', 'adguard-home@v0.107.43'].map((id) => ({
      version: note(id).version,
      notes: note(id).notes
    }))
    const j = classifyReleases({ releases: safe })
    expect(j.safeToUpdate).toBe('safe')
    expect(j.decidedBy).toBe('v0.107.43')
  })

  it('a release without notes among safe ones makes the update unknown, not safe', () => {
    const j = classifyReleases({
      releases: [
        { version: '1.0.1', notes: note('netbox@v4.5.10').notes },
        { version: '1.0.2', notes: '' }
      ]
    })
    expect(j.safeToUpdate).toBe('unknown')
    expect(j.decidedBy).toBe('1.0.2')
  })

  it('reads at most MAX_RELEASES releases and says so', () => {
    const many = Array.from({ length: MAX_RELEASES + 5 }, (_, i) => ({
      version: `1.0.${i}`,
      notes: note('netbox@v4.5.10').notes
    }))
    many[0] = { version: '1.0.0', notes: note('netbox@v4.3.0').notes } // outside the window
    const j = classifyReleases({ releases: many })
    expect(j.safeToUpdate).toBe('safe')
    expect(j.rationale).toContain(`only the newest ${MAX_RELEASES} were read`)
  })
})

describe('archived and empty input', () => {
  it('archived → unmaintained with the fixed summary sentence', () => {
    const j = classifyReleases({ releases: [{ version: 'v1', notes: note('netbox@v4.3.0').notes }], archived: true })
    expect(j).toMatchObject({
      safeToUpdate: 'unmaintained',
      changelogSummary: ARCHIVED_SUMMARY,
      rule: 'archived',
      decidedBy: null
    })
  })

  it('no releases → unknown with the `...` summary', () => {
    const j = classifyReleases({ releases: [] })
    expect(j).toMatchObject({ safeToUpdate: 'unknown', changelogSummary: '...', rule: 'no-releases' })
  })
})

describe('generality', () => {
  it('no rule names an app of the data set', () => {
    const dir = fileURLToPath(new URL('../../src/classify/', import.meta.url))
    const source = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(`${dir}${f}`, 'utf8').toLowerCase())
      .join('\n')
    const names = new Set(NOTES.flatMap((n) => [n.app.toLowerCase(), n.slug.toLowerCase()]))
    for (const name of names) expect([name, source.includes(name)]).toEqual([name, false])
    for (const n of NOTES) expect([n.id, source.includes(n.id.toLowerCase())]).toEqual([n.id, false])
  })
})
