// Placing the versions of a pull request's image change in an app's judged history (src/check/placement.ts), end
// to end through runCheck on a snapshot folder of made-up apps: a tag unlike its release label, floating tags, a
// digest moved under a floating tag, a tag that names no version, an app with no judged release, and the release
// quoted among those crossed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import path from 'node:path'
import fc from 'fast-check'
import { parseImageRef } from '../../src/check/images.js'
import { placeImage, placeLabel, spanOf } from '../../src/check/placement.js'
import { verdictFrom } from '../../src/classify/upgrade.js'
import { gateStatus } from '../../src/check/gate.js'
import { runCheck, type CheckedApp, type ImageChange } from '../../src/check/report.js'
import { main } from '../../src/commands.js'
import { snapshotReader } from '../../src/check/snapshot.js'
import { APPS } from '../support/made-up-apps.js'
import { historyOf, writeMiniSnapshot } from '../support/mini-snapshot.js'
import { tempDir } from '../support/tmp.js'

const D = (c: string) => `sha256:${c.repeat(64)}`

let dir: string
let cleanup: () => Promise<void>

beforeAll(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-placement-'))
  await writeMiniSnapshot(path.join(dir, 'snapshot'), APPS)
})
afterAll(() => cleanup())

async function change(baseImage: string, image: string): Promise<CheckedApp> {
  const c: ImageChange = { file: 'compose.yml', field: 'services.x.image', line: 3, baseImage, image }
  const result = await runCheck(snapshotReader(path.join(dir, 'snapshot')), { from: [], services: [], changes: [c] })
  expect(result.untracked).toEqual([])
  expect(result.apps).toHaveLength(1)
  return result.apps[0]!
}

describe('placing an image change in the app’s history', () => {
  it('finds both ends by their tags when the release labels number otherwise, and judges the release between', async () => {
    const a = await change('ghcr.io/example/calver:v0.2601.0', 'ghcr.io/example/calver:v0.2602.0')
    expect(a).toMatchObject({ running: 'v0.2601.0', latest: 'v0.2602.0', safeToUpdate: 'breaking' })
    expect(a.decidedBy?.version).toBe('v26.02')
    expect(a.crossed.map((e) => e.version)).toEqual(['v26.02'])
  })

  it('reads a floating tag as the newest release of its line, on both sides', async () => {
    // v3.6 runs 3.6.2 already: the breaking 3.6.1 is behind it.
    const a = await change('example/proxy:v3.6', 'example/proxy:v3.7')
    expect(a).toMatchObject({ running: 'v3.6', latest: 'v3.7', safeToUpdate: 'caution' })
    expect(a.crossed.map((e) => e.version)).toEqual(['v3.7.1', 'v3.7.0'])
    expect(a.rationale).toContain('the newest judged release of the 3.6 line, v3.6.2')
    // A major tag is a line too.
    expect((await change('example/proxy:v3.5.0', 'example/proxy:v3')).crossed[0]!.version).toBe('v3.7.1')
    // A floating tag and the release it stands for are one release.
    const same = await change('example/proxy:v3.6', 'example/proxy:v3.6.2')
    expect(same).toMatchObject({ safeToUpdate: 'safe', crossed: [] })
    expect(same.rationale).toContain('name the same release')
    // An exact tag stays exact.
    expect((await change('example/proxy:v3.6.0', 'example/proxy:v3.6.2')).safeToUpdate).toBe('breaking')
  })

  it('calls a digest moved under a floating tag unknown, unless the line has one release since it began', async () => {
    const moved = await change(`example/cache:7.2-alpine@${D('a')}`, `example/cache:7.2-alpine@${D('b')}`)
    expect(moved.safeToUpdate).toBe('unknown')
    expect(moved.rationale).toContain('the digest under the floating tag 7.2 moved')
    // It may carry any release of the line after its first, which the old image carried at least.
    expect(moved.crossed.map((e) => e.version)).toEqual(['7.2.2', '7.2.1'])
    // 7.4 has one release, and an older judged one shows where the line began: nothing came out since.
    const one = await change(`example/cache:7.4@${D('a')}`, `example/cache:7.4@${D('b')}`)
    expect(one).toMatchObject({ safeToUpdate: 'safe', running: '7.4', latest: '7.4' })
    // A tag naming one release: a rebuild of it.
    const exact = await change(`example/cache:7.2.1-alpine@${D('a')}`, `example/cache:7.2.1-alpine@${D('b')}`)
    expect(exact.safeToUpdate).toBe('safe')
    expect(exact.rationale).toContain('The version stays 7.2.1')
  })

  it('shows a tag that names no version as written, never the catalog’s latest', async () => {
    const a = await change('example/cache:7.2.1-alpine', 'example/cache:latest-alpine')
    expect(a).toMatchObject({ running: '7.2.1', latest: 'latest-alpine', safeToUpdate: 'unknown' })
    expect(a.rationale).toContain('"latest-alpine" names no version')
    const back = await change('example/cache:latest', 'example/cache:7.2.1')
    expect(back).toMatchObject({ running: 'latest', latest: '7.2.1', safeToUpdate: 'unknown' })
  })

  it('says of an app with no judged release that none is judged, not that the target is the oldest', async () => {
    const a = await change('example/store:8.2.2', 'example/store:8.4.0')
    expect(a.safeToUpdate).toBe('unknown')
    expect(a.rationale).not.toContain('older than the releases judged')
    expect(a.rationale).toContain('No release of this app is judged yet')
  })

  it('quotes the weightiest release crossed: the most severe, a required step before an urgent fix, a major first', async () => {
    const a = await change('example/metrics:v2.54.1', 'example/metrics:v3.14.0')
    expect(a.safeToUpdate).toBe('breaking')
    expect(a.decidedBy?.version).toBe('v3.0.0')
    expect(a.rationale).toContain('made-up words of v3.0.0')
  })
})

describe('placeImage', () => {
  const at = (image: string, versions: string[], build?: Parameters<typeof placeImage>[1]) => {
    const history = historyOf(versions.map((version) => ({ version, cls: 'safe' as const })))
    const placed = placeImage(parseImageRef(image)!, build, history, history[0]?.version ?? '0')
    return 'place' in placed
      ? placed.place.at === 'release'
        ? placed.place.entry.version
        : `label ${placed.place.label}`
      : `unknown: ${placed.unknown}`
  }

  it('places a develop build only where the history holds its release', () => {
    const dev = { tags: 'as-is' as const, channel: 'develop' as const }
    expect(at('ghcr.io/x/sonarr:4.0.15.2941', ['v4.0.14.2939', 'v4.0.15.2941'], dev)).toBe('v4.0.15.2941')
    expect(at('ghcr.io/x/sonarr:4.0.15.2941', ['v4.0.14.2939'], dev)).toMatch(
      /is a develop build: its tag names "4.0.15.2941", which is no release/
    )
  })

  it("reads a publisher's alias and a tag of one or two numbers as the newest release of its line", () => {
    const homeOps = { tags: 'home-operations' as const }
    expect(at('x:1.6.0', ['v1.6.0', 'v1.5.2'], homeOps)).toBe('v1.6.0')
    expect(at('x:1.6', ['v1.6.0', 'v1.6.3', 'v1.7.0'], homeOps)).toBe('v1.6.3')
    expect(at('x:26.2', ['v26.2', 'v26.2.1'])).toBe('v26.2.1')
    expect(at('x:v26', ['v26.2', 'v26.2.1', 'v25.9'])).toBe('v26.2.1')
    // A line the history does not hold stays a label, compared as that line.
    expect(at('x:2.1', ['v1.6.0'])).toBe('label 2.1')
    // Three numbers name one release.
    expect(at('x:1.6.0', ['v1.6.0', 'v1.6.0.1'])).toBe('v1.6.0')
  })

  it('matches a release by its tag where its label numbers otherwise', () => {
    const history = historyOf([
      { version: 'v26.01', tag: 'v0.2601.0', cls: 'safe' },
      { version: 'v26.02', tag: 'v0.2602.0', cls: 'safe' }
    ])
    const placed = placeImage(parseImageRef('x:v0.2601.0')!, undefined, history, 'v26.02')
    expect('place' in placed && placed.place).toMatchObject({
      at: 'release',
      scheme: 'tag',
      entry: { version: 'v26.01' }
    })
  })
})

describe('the gate on an update of the major version the catalog cannot judge', () => {
  it('fails it under the default fail-on: breaking, with its reason; allow-unjudged-major lets it pass as unknown', async () => {
    const c = (baseImage: string, image: string): ImageChange => ({
      file: 'compose.yml',
      field: 'services.db.image',
      line: 3,
      baseImage,
      image
    })
    const reader = snapshotReader(path.join(dir, 'snapshot'))
    const major = await runCheck(reader, {
      from: [],
      services: [],
      changes: [c('example/store:7.1', 'example/store:8.4.0')]
    })
    expect(major.apps[0]).toMatchObject({ safeToUpdate: 'unknown', changesMajor: true })
    expect(gateStatus(major)).toBe(1)
    expect(gateStatus(major, { allowUnjudgedMajor: true })).toBe(0)
    expect(gateStatus(major, { failOn: 'never' })).toBe(0)
    // The same app within one major: unknown, which fails only fail-on: unknown.
    const minor = await runCheck(reader, {
      from: [],
      services: [],
      changes: [c('example/store:8.2.2', 'example/store:8.4.0')]
    })
    expect(gateStatus(minor)).toBe(0)
    expect(gateStatus(minor, { failOn: 'unknown' })).toBe(1)

    // The command line: `check --allow-unjudged-major`.
    const out: string[] = []
    const quiet = { info: () => {}, warning: () => {}, error: () => {} }
    const check = (...args: string[]) =>
      main(['check', '--api', path.join(dir, 'snapshot'), '--from', 'store=7.1', ...args], quiet, {}, (t) =>
        out.push(t)
      )
    expect(await check()).toBe(1)
    expect(out.join('')).toMatch(/breaking unjudged major\s+The update changes the major version/)
    expect(await check('--allow-unjudged-major')).toBe(0)

    // Running a major above the catalog's latest is a stale catalog, not an update: unknown, and it passes.
    const ahead = await runCheck(reader, { from: [{ slug: 'store', version: '9.0.0' }], services: [] })
    expect(ahead.apps[0]).toMatchObject({ safeToUpdate: 'unknown', changesMajor: false })
    expect(gateStatus(ahead)).toBe(0)
    // A pull request that goes down a major is still one the catalog cannot judge.
    const down = await runCheck(reader, {
      from: [],
      services: [],
      changes: [c('example/store:8.4.0', 'example/store:7.1')]
    })
    expect(down.apps[0]).toMatchObject({ changesMajor: true })
  })
})

describe('spanOf, over any history', () => {
  const histories = fc
    .uniqueArray(
      fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })),
      {
        minLength: 1,
        maxLength: 25,
        selector: (t) => t.join('.')
      }
    )
    .map((ts) => historyOf(ts.map((t) => ({ version: `v${t.join('.')}`, cls: 'safe' as const }))))

  it('crosses exactly the releases after the one run, up to and including the one updated to', () => {
    fc.assert(
      fc.property(histories, fc.nat(), fc.nat(), (history, i, j) => {
        // Newest first: the larger index is the older release.
        const older = Math.max(i % history.length, j % history.length)
        const newer = Math.min(i % history.length, j % history.length)
        const from = placeLabel(history, history[older]!.version)
        const to = placeLabel(history, history[newer]!.version)
        const span = spanOf(history, from, to)
        if (older === newer) return span.order === 'same'
        return span.order === 'up' && span.crossed.length === older - newer && span.crossed[0] === history[newer]
      })
    )
  })

  it('never calls an update safe when the version updated to is not judged', () => {
    fc.assert(
      fc.property(histories, fc.nat(), fc.integer({ min: 4, max: 9 }), (history, i, major) => {
        const v = verdictFrom(history, history[i % history.length]!.version, { latest: `v${major}.0.0` })
        return v.safeToUpdate === 'unknown'
      })
    )
  })
})
