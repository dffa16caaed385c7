// scripts/catalog-generate.mjs on the real shared data set: run twice on the catalog as it was before the script
// (commit 5801227), it gives the committed catalog's records, changes nothing the second time, keeps every record
// that existed (slug, header, facts), and writes only valid records with one repository each.
import { afterAll, beforeAll, expect } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { loadCatalog } from '../../src/catalog/load.js'
import { describe, it } from '../support/needs-shared-data.js'
import { SHARED_DATA } from '../support/shared-data.js'
import { tempDir } from '../support/tmp.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const BEFORE = '5801227' // the catalog before the generator: its 132 records keep their slugs and facts
const SCRIPT = path.join(ROOT, 'scripts/catalog-generate.mjs')

function run(catalog: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, '--data', SHARED_DATA, '--catalog', catalog, ...args], {
    cwd: ROOT,
    encoding: 'utf8'
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const snapshot = (dir: string) =>
  Object.fromEntries(
    readdirSync(path.join(dir, 'apps'))
      .sort()
      .map((f) => [f, readFileSync(path.join(dir, 'apps', f), 'utf8')])
  )

describe('catalog-generate.mjs on the shared data set', () => {
  let dir: string
  let cleanup: () => Promise<void>
  let before: Record<string, string>
  let first: ReturnType<typeof run>
  let once: Record<string, string>
  let twice: Record<string, string>
  let second: ReturnType<typeof run>
  let entries: Awaited<ReturnType<typeof loadCatalog>>
  let bySlug: Map<string, (typeof entries)[number]['entry']>

  beforeAll(async () => {
    ;({ dir, cleanup } = await tempDir())
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${BEFORE} catalog | tar -x -C "${dir}"`])
    before = snapshot(path.join(dir, 'catalog'))
    first = run(path.join(dir, 'catalog'))
    once = snapshot(path.join(dir, 'catalog'))
    second = run(path.join(dir, 'catalog'))
    twice = snapshot(path.join(dir, 'catalog'))
    // The loader validates every record under catalogEntrySchema and refuses a repository tracked twice.
    entries = await loadCatalog(path.join(dir, 'catalog'))
    bySlug = new Map(entries.map((e) => [e.slug, e.entry]))
  }, 180_000)
  afterAll(() => cleanup())

  it('adds the apps of each source, counted by where the record comes from', () => {
    expect(first.status).toBe(0)
    expect(Object.keys(before)).toHaveLength(132)
    expect(first.stdout).toContain(
      'records by source: {"existing":116,"more-images":277,"awesome-selfhosted":757,"community":74}'
    )
    expect(Object.keys(once)).toHaveLength(132 + 277 + 757 + 74)
    // Apps without a GitHub repository are named, not recorded.
    expect(first.stdout).toContain('not recorded (18):')
    expect(first.stdout).toMatch(/^ {2}Plex Media Server \(community\.jsonl: no GitHub repository; 13 image/m)
    expect(first.stdout).toMatch(/^ {2}BusyBox \(community\.jsonl: no GitHub repository/m)
  })

  it('changes nothing when run again, and --check then agrees', () => {
    expect(second.status).toBe(0)
    expect(second.stdout).toContain('0 record(s) written')
    expect(twice).toEqual(once)
    expect(run(path.join(dir, 'catalog'), '--check').status).toBe(0)
  })

  it('gives the committed catalog', () => {
    expect(snapshot(path.join(ROOT, 'catalog'))).toEqual(once)
  })

  it('keeps the slug, header and facts of every record that existed', () => {
    for (const [file, text] of Object.entries(before)) {
      const now = once[file]
      expect(now).toBeDefined()
      const header = (t: string) => t.slice(0, t.indexOf('\nname:'))
      expect(header(now!)).toBe(header(text))
      const old = parse(text) as Record<string, unknown>
      const next = parse(now!) as Record<string, unknown>
      for (const key of Object.keys(old)) if (key !== 'images') expect([file, key, next[key]]).toEqual([file, key, old[key]])
    }
  })

  it('writes valid records only, one per repository', () => {
    expect(entries).toHaveLength(Object.keys(once).length)
    const repos = new Set(entries.map((e) => e.entry.repo.toLowerCase()))
    expect(repos.size).toBe(entries.length)
    // Renamed repositories are one app: the existing record of ether/etherpad-lite takes awesome-selfhosted's
    // ether/etherpad, and no record holds the variant.
    expect(repos.has('ether/etherpad')).toBe(false)
    expect(entries.find((e) => e.slug === 'etherpad')?.entry.categories).toEqual(['Office Suites'])
  })

  it('maps community builds with their publisher\'s tag rule, and own for tags with no upstream version', () => {
    const rules = (slug: string) => Object.fromEntries((bySlug.get(slug)?.community ?? []).map((c) => [c.image, [c.tags, c.channel]]))
    expect(rules('sonarr')).toMatchObject({
      'lscr.io/linuxserver/sonarr': ['linuxserver', 'stable'],
      'ghcr.io/home-operations/sonarr': ['home-operations', 'develop'],
      'ghcr.io/onedr0p/sonarr-develop': ['onedr0p', 'develop'],
      'ghcr.io/hotio/sonarr': ['hotio', undefined]
    })
    const czkawka = [...bySlug.values()].find((e) => e.repo === 'qarmin/czkawka')
    expect(czkawka?.community?.map((c) => c.tags)).toEqual(['own', 'own'])
    const tvheadend = [...bySlug.values()].find((e) => e.repo === 'tvheadend/tvheadend')
    expect(new Set(tvheadend?.community?.map((c) => c.tags))).toEqual(new Set(['own']))
    const radicale = [...bySlug.values()].find((e) => e.repo.toLowerCase() === 'kozea/radicale')
    expect(radicale?.community?.find((c) => c.image === 'tomsquest/docker-radicale')?.tags).toBe('revision')
  })

  it('leaves out an image the app\'s Compose file names that follows another version stream, and says why', () => {
    // Mapped, immich's Postgres image (tags 14, 16) read as Immich 14 and made v3.1.0 an unjudged major downgrade.
    expect(bySlug.get('immich')?.images).toEqual([
      'ghcr.io/immich-app/immich-server',
      'ghcr.io/immich-app/immich-machine-learning'
    ])
    expect(once['immich.yml']).toMatch(/# Not mapped: ghcr\.io\/immich-app\/postgres, .*Postgres/)
    expect(bySlug.get('dify')?.images).toEqual(['langgenius/dify-api', 'langgenius/dify-web'])
    const mapped = new Set([...bySlug.values()].flatMap((e) => e.images ?? []))
    expect(mapped.has('powerdns/dnsdist-master')).toBe(false)
    expect(mapped.has('goharbor/registry-photon')).toBe(false)
    expect(bySlug.get('drone')?.images).toEqual(['drone/drone'])
  })

  it('seeds a new record\'s release from awesome-selfhosted only for a stable tag, checked the day it was read', () => {
    expect(bySlug.get('sonarr')?.release).toEqual({
      version: 'v4.0.19.3001',
      url: 'https://github.com/Sonarr/Sonarr/releases/tag/v4.0.19.3001',
      date: '2026-08-11',
      checked: '2026-08-21'
    })
    // v3.3.4-rc3 is a prerelease: no seed, and the header says why.
    expect(bySlug.get('zoraxy')?.release).toBeUndefined()
    expect(once['zoraxy.yml']).toMatch(/No release is recorded \(awesome-selfhosted's current release tag "v3\.3\.4-rc3"/)
  })

  it('--check exits 1 and writes nothing when a record would change', () => {
    const file = path.join(dir, 'catalog/apps/sonarr.yml')
    const edited = once['sonarr.yml']!.replace('  - Media Management\n', '  - Something Else\n')
    writeFileSync(file, edited)
    const r = run(path.join(dir, 'catalog'), '--check')
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('1 record(s) would change')
    expect(readFileSync(file, 'utf8')).toBe(edited)
  })
})

describe('catalog-from-notes.mjs', () => {
  it('agrees with the generated catalog: it keeps categories, images and community with their comments', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/catalog-from-notes.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8'
    })
    expect(r.status).toBe(0)
  })
})
