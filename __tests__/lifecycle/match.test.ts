import { describe, expect, it } from '@jest/globals'
import { matchCycle } from '../../src/lifecycle/index.js'
import { fixtureProducts, loadFixture } from '../fixtures/endoflife/load.js'

const releases = (product: string) => loadFixture(product).result.releases

describe('matchCycle on real endoflife.date data', () => {
  it('major-only cycles: nextcloud', () => {
    const r = releases('nextcloud')
    expect(matchCycle('34.0.3', r)).toBe('34')
    expect(matchCycle('v33.0.8', r)).toBe('33')
    expect(matchCycle('v9.0.58', r)).toBe('9')
  })

  it('postgresql: major-only cycles from 10 on, major.minor before', () => {
    const r = releases('postgresql')
    expect(matchCycle('18.6', r)).toBe('18')
    expect(matchCycle('10.23', r)).toBe('10')
    expect(matchCycle('9.6.24', r)).toBe('9.6')
    expect(matchCycle('9.5.25', r)).toBe('9.5')
    // 9 alone is no cycle there: less specific than every 9.x cycle.
    expect(matchCycle('9', r)).toBeNull()
  })

  it('major.minor cycles: traefik, grafana, keycloak', () => {
    expect(matchCycle('v3.7.11', releases('traefik'))).toBe('3.7')
    expect(matchCycle('v2.11.30', releases('traefik'))).toBe('2.11')
    expect(matchCycle('v2.1.9', releases('traefik'))).toBe('2.1')
    // A minor the data does not list yet is not guessed into 3.x.
    expect(matchCycle('v3.8.0', releases('traefik'))).toBeNull()

    const g = releases('grafana')
    expect(matchCycle('v13.2.0', g)).toBe('13.2')
    expect(matchCycle('v9.5.21', g)).toBe('9.5')
    // grafana lists 8, 7 and 6 as major-only cycles beside the 9.x+ minors.
    expect(matchCycle('v8.5.27', g)).toBe('8')

    const k = releases('keycloak')
    expect(matchCycle('26.7.2', k)).toBe('26.7')
    expect(matchCycle('26.0.15', k)).toBe('26.0')
    expect(matchCycle('26', k)).toBeNull()
  })

  it('calendar cycles: authentik', () => {
    const r = releases('authentik')
    expect(matchCycle('version/2026.5.6', r)).toBe('2026.5')
    expect(matchCycle('2025.12.1', r)).toBe('2025.12')
    // Numbers, not string prefixes: 2025.1.2 is not in cycle 2025.12.
    expect(matchCycle('2025.1.2', r)).toBeNull()
    // A zero-padded month is the same cycle.
    expect(matchCycle('2026.05.1', r)).toBe('2026.5')
  })

  it('products with extra columns: gitlab, mariadb', () => {
    const gl = releases('gitlab')
    expect(matchCycle('v19.3.0-ee', gl)).toBe('19.3')
    expect(matchCycle('v18.11.11-ee', gl)).toBe('18.11')
    expect(matchCycle('v18.1.6-ee', gl)).toBe('18.1')
    const m = releases('mariadb')
    expect(matchCycle('12.3.2', m)).toBe('12.3')
    expect(matchCycle('10.11.9', m)).toBe('10.11')
    expect(matchCycle('10.1.48', m)).toBe('10.1')
    expect(matchCycle('5.5.68', m)).toBe('5.5')
  })

  it('a version older or newer than every listed cycle has none', () => {
    expect(matchCycle('8.2.0', releases('nextcloud'))).toBeNull()
    expect(matchCycle('35.0.0', releases('nextcloud'))).toBeNull()
    expect(matchCycle('1.6.0', releases('traefik'))).toBeNull()
    expect(matchCycle('2021.10.4', releases('authentik'))).toBeNull()
  })

  it('prefixed labels: v, name@, path/, a configured tag prefix, build metadata, four parts', () => {
    const n = releases('nextcloud')
    expect(matchCycle('server@34.0.3', n)).toBe('34')
    expect(matchCycle('release/34.0', n)).toBe('34')
    expect(matchCycle('v34.0.3+build.7', n)).toBe('34')
    expect(matchCycle('34.0.3.1', n)).toBe('34')
    const ng = releases('nginx')
    expect(matchCycle('release/1.31', ng)).toBe('1.31')
    expect(matchCycle('release-1.31.4', ng, { tagPrefix: 'release-' })).toBe('1.31')
    // Without the prefix configured the label has no leading number: no guess.
    expect(matchCycle('release-1.31.4', ng)).toBeNull()
    expect(matchCycle('mariadb-12.3.2', releases('mariadb'), { tagPrefix: 'mariadb-' })).toBe('12.3')
  })

  it('labels without a number match nothing', () => {
    const n = releases('nextcloud')
    expect(matchCycle('latest', n)).toBeNull()
    expect(matchCycle('', n)).toBeNull()
    expect(matchCycle('v', n)).toBeNull()
  })

  it('two cycles with the same numbers are ambiguous, not a pick', () => {
    const r = [...releases('postgresql'), { name: '09.6' }]
    expect(matchCycle('9.6.24', r)).toBeNull()
    expect(matchCycle('9.5.25', r)).toBe('9.5')
  })

  it("every cycle's own latest release resolves to that cycle, in all 16 products", () => {
    let checked = 0
    for (const product of fixtureProducts()) {
      const r = releases(product)
      for (const release of r) {
        if (!release.latest) continue
        expect({ product, version: release.latest.name, cycle: matchCycle(release.latest.name, r) }).toEqual({
          product,
          version: release.latest.name,
          cycle: release.name
        })
        checked++
      }
    }
    expect(checked).toBeGreaterThan(400)
  })
})
