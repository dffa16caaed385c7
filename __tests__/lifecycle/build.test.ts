import { describe, expect, it } from '@jest/globals'
import { buildLifecycle, utcDay } from '../../src/lifecycle/index.js'
import { lifecycleSchema } from '../../src/schema/index.js'
import { fixtureProducts, loadFixture } from '../fixtures/endoflife/load.js'

const at = (iso: string) => new Date(iso)
const cycleOf = (product: string, name: string) => {
  const r = loadFixture(product).result.releases.find((x) => x.name === name)
  if (!r) throw new Error(`fixture ${product} has no cycle ${name}`)
  return r
}

describe('buildLifecycle', () => {
  it('builds the spec 2.5 object for a cycle with a future end of life', () => {
    const doc = loadFixture('nextcloud')
    const { lifecycle, warning } = buildLifecycle('nextcloud', doc, 'v34.0.3', at('2026-11-21T00:00:00Z'))
    expect(warning).toBeUndefined()
    expect(lifecycle).toEqual({
      product: 'nextcloud',
      link: 'https://endoflife.date/nextcloud',
      cycle: '34',
      eol: cycleOf('nextcloud', '34').eolFrom,
      status: 'eol-scheduled',
      eolDate: cycleOf('nextcloud', '34').eolFrom
    })
    expect(Object.keys(lifecycle!)).toEqual(['product', 'link', 'cycle', 'eol', 'status', 'eolDate'])
  })

  it("judges a date against now, not the data's isEol flag (computed on 2026-08-22)", () => {
    // nextcloud 32 ends 2026-09-30; the data says isEol: false.
    const doc = loadFixture('nextcloud')
    expect(cycleOf('nextcloud', '32').isEol).toBe(false)
    expect(buildLifecycle('nextcloud', doc, '32.0.14', at('2026-11-21T12:00:00Z')).lifecycle?.status).toBe('eol')
    expect(buildLifecycle('nextcloud', doc, '32.0.14', at('2026-08-22T12:00:00Z')).lifecycle?.status).toBe(
      'eol-scheduled'
    )

    // grafana 12.3 ended 2026-08-19; the data says isEol: true, yet a build dated before then is scheduled.
    const g = loadFixture('grafana')
    expect(cycleOf('grafana', '12.3').isEol).toBe(true)
    expect(buildLifecycle('grafana', g, 'v12.3.11', at('2026-08-01T00:00:00Z')).lifecycle?.status).toBe('eol-scheduled')
    expect(buildLifecycle('grafana', g, 'v12.3.11', at('2026-08-22T00:00:00Z')).lifecycle?.status).toBe('eol')
  })

  it('the end-of-life day itself is still scheduled; the day after is eol (UTC days)', () => {
    const doc = loadFixture('nextcloud')
    const build = (iso: string) => buildLifecycle('nextcloud', doc, '32.0.14', at(iso)).lifecycle!
    expect(build('2026-09-30T00:00:00.000Z').status).toBe('eol-scheduled')
    expect(build('2026-09-30T23:59:59.999Z').status).toBe('eol-scheduled')
    expect(build('2026-10-01T00:00:00.000Z').status).toBe('eol')
    // A time zone offset in --now is read as the UTC instant.
    expect(build('2026-09-30T20:00:00-05:00').status).toBe('eol')
    expect(build('2026-10-01T00:00:00.000Z').eolDate).toBe('2026-09-30')
  })

  it('no end-of-life date set: eol false, status supported, eolDate null', () => {
    for (const [product, version] of [
      ['traefik', 'v3.7.11'],
      ['authentik', 'version/2026.5.6'],
      ['redis', '8.10.1'],
      ['keycloak', '26.7.2']
    ] as const) {
      const { lifecycle, warning } = buildLifecycle(product, loadFixture(product), version, at('2030-01-01T00:00:00Z'))
      expect(warning).toBeUndefined()
      expect(lifecycle).toMatchObject({ product, eol: false, status: 'supported', eolDate: null })
    }
  })

  it('extra columns (gitlab eoas, mariadb eoes) do not stand in for the end of life', () => {
    const gl = cycleOf('gitlab', '19.3')
    expect(gl.eoasFrom).not.toBe(gl.eolFrom)
    const doc = loadFixture('gitlab')
    // Between active-support end (eoas) and end of life: still scheduled.
    const mid = buildLifecycle('gitlab', doc, 'v19.3.0-ee', at('2026-10-01T00:00:00Z')).lifecycle!
    expect(mid).toMatchObject({ cycle: '19.3', eol: gl.eolFrom, status: 'eol-scheduled' })
    expect(buildLifecycle('gitlab', doc, 'v19.3.0-ee', at('2026-11-21T00:00:00Z')).lifecycle!.status).toBe('eol')

    const m = cycleOf('mariadb', '11.4')
    expect(m.eoesFrom).not.toBe(m.eolFrom)
    const ml = buildLifecycle('mariadb', loadFixture('mariadb'), '11.4.8', at('2026-11-21T00:00:00Z')).lifecycle!
    expect(ml).toMatchObject({ cycle: '11.4', eol: m.eolFrom, eolDate: m.eolFrom, status: 'eol-scheduled' })
  })

  it('no matching cycle: null with a warning naming the version, never a guess', () => {
    const r = buildLifecycle('nextcloud', loadFixture('nextcloud'), 'v8.0.16', at('2026-11-21T00:00:00Z'))
    expect(r.lifecycle).toBeNull()
    expect(r.warning).toContain('"v8.0.16"')
    expect(r.warning).toContain('nextcloud')
    const prefixed = buildLifecycle('nginx', loadFixture('nginx'), 'release-1.31.4', at('2026-11-21T00:00:00Z'))
    expect(prefixed.lifecycle).toBeNull()
    expect(
      buildLifecycle('nginx', loadFixture('nginx'), 'release-1.31.4', at('2026-11-21T00:00:00Z'), {
        tagPrefix: 'release-'
      }).lifecycle?.cycle
    ).toBe('1.31')
  })

  it('a cycle marked end of life without a date cannot be expressed: null with a warning', () => {
    expect(cycleOf('mastodon', '3.2')).toMatchObject({ isEol: true, eolFrom: null })
    const r = buildLifecycle('mastodon', loadFixture('mastodon'), 'v3.2.2', at('2026-11-21T00:00:00Z'))
    expect(r.lifecycle).toBeNull()
    expect(r.warning).toContain('3.2')
  })

  it('control characters in a label do not reach the warning', () => {
    const r = buildLifecycle('nextcloud', loadFixture('nextcloud'), 'v99\u001b[31m\u202e', at('2026-11-21T00:00:00Z'))
    expect(r.lifecycle).toBeNull()
    expect(r.warning).not.toMatch(/[\u001b\u202e]/)
  })

  it('rejects an invalid now and an invalid product id', () => {
    expect(() => buildLifecycle('nextcloud', loadFixture('nextcloud'), '34.0.3', new Date('not a date'))).toThrow(
      RangeError
    )
    const r = buildLifecycle('../nextcloud', loadFixture('nextcloud'), '34.0.3', at('2026-11-21T00:00:00Z'))
    expect(r.lifecycle).toBeNull()
    expect(r.warning).toMatch(/not an endoflife.date product id/)
  })

  it('every cycle of every product gives a schema-valid lifecycle or a warning, on two dates', () => {
    let built = 0
    for (const product of fixtureProducts()) {
      const doc = loadFixture(product)
      for (const release of doc.result.releases) {
        if (!release.latest) continue
        for (const now of [at('2026-08-22T00:00:00Z'), at('2026-11-21T00:00:00Z')]) {
          const { lifecycle, warning } = buildLifecycle(product, doc, release.latest.name, now)
          if (lifecycle === null) {
            // Only the dateless end-of-life cycles (mastodon 1–3.2, nodejs 1–3) may come out empty.
            expect({ product, cycle: release.name, isEol: release.isEol, eolFrom: release.eolFrom }).toEqual({
              product,
              cycle: release.name,
              isEol: true,
              eolFrom: null
            })
            expect(warning).toBeDefined()
            continue
          }
          expect(lifecycleSchema.safeParse(lifecycle).success).toBe(true)
          expect(lifecycle.cycle).toBe(release.name)
          if (release.eolFrom !== null) {
            expect(lifecycle.status).toBe(utcDay(now) > release.eolFrom ? 'eol' : 'eol-scheduled')
          }
          built++
        }
      }
    }
    expect(built).toBeGreaterThan(800)
  })
})
