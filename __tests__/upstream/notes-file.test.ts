// Release notes from a JSON-lines file (build --notes-from): read, matched to catalog records by repository and
// version, and handed on as a refresh's outcome. The notes here are made up; they say what they exercise.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { notesDigest, notesFileOutcomes, readNotesFile } from '../../src/upstream/notes-file.js'
import type { Logger } from '../../src/util/types.js'
import { tempDir } from '../support/tmp.js'

let dir: string
let cleanup: () => Promise<void>
let warnings: string[]
const log: Logger = {
  info: () => {},
  warning: (m, ref) => warnings.push(`${ref?.file}:${ref?.line}: ${m}`),
  error: () => {}
}
const NOW = new Date('2026-12-01T08:00:00Z')

beforeEach(async () => {
  ;({ dir, cleanup } = await tempDir('updatesafe-notes-'))
  warnings = []
})
afterEach(() => cleanup())

const line = (o: Record<string, unknown>) => JSON.stringify({ tag: null, date: null, ...o })
async function file(...lines: string[]): Promise<string> {
  const f = path.join(dir, 'notes.jsonl')
  await writeFile(f, `${lines.join('\n')}\n`)
  return f
}

describe('readNotesFile', () => {
  it('reads releases by repository, case-insensitively, and leaves out each bad line with its file and line', async () => {
    const f = await file(
      line({ repo: 'Demo-Org/Demo', version: '1.0.0', notes: 'Fixes a typo in the demo page.' }),
      'not json',
      line({ repo: 'not a repo', version: '1.0.1', notes: '' }),
      line({ repo: 'demo-org/demo', version: '1.1.0', notes: 'Adds a demo button.' }),
      JSON.stringify({ repo: 'demo-org/demo', version: '1.2.0' })
    )
    const notes = readNotesFile(f, log)
    expect(notes.byRepo.get('demo-org/demo')!.map((e) => e.version)).toEqual(['1.0.0', '1.1.0'])
    expect(notes.skipped).toBe(3)
    expect(warnings).toEqual([
      `${f}:2: not a JSON object; line left out`,
      expect.stringMatching(new RegExp(`^${f}:3: repo: `)),
      expect.stringMatching(new RegExp(`^${f}:5: notes: `))
    ])
  })

  it('reads several files as one: a release both hold keeps the first file’s tag and reads both notes, with a warning', async () => {
    const a = path.join(dir, 'a.jsonl')
    const b = path.join(dir, 'b.jsonl')
    await writeFile(
      a,
      `${line({ repo: 'demo-org/demo', version: '1.0.0', tag: 'v1.0.0', notes: 'Adds a demo button.' })}\n` +
        `${line({ repo: 'demo-org/other', version: '2.0.0', notes: 'First release of the other tool.' })}\n`
    )
    await writeFile(
      b,
      `${line({ repo: 'demo-org/demo', version: 'v1.0.0', tag: 'release-1.0.0', notes: 'The config key moved: rename it.' })}\n` +
        `${line({ repo: 'demo-org/third', version: '0.3.0', notes: 'Faster start.' })}\n`
    )
    const notes = readNotesFile([a, b], log)
    expect([...notes.byRepo.keys()].sort()).toEqual(['demo-org/demo', 'demo-org/other', 'demo-org/third'])
    expect(notes.byRepo.get('demo-org/demo')).toEqual([
      {
        repo: 'demo-org/demo',
        version: '1.0.0',
        tag: 'v1.0.0',
        date: null,
        notes: 'Adds a demo button.\n\nThe config key moved: rename it.'
      }
    ])
    expect(notes.file).toBe(`${a} and ${b}`)
    expect(warnings).toEqual([
      `${b}:1: version "v1.0.0" is also on line 1 of ${a} with other notes; both notes are read as one release, so the more cautious reading decides`
    ])
    // A file that cannot be read stops the build, whichever place it has.
    expect(() => readNotesFile([a, path.join(dir, 'missing.jsonl')], log)).toThrow('--notes-from cannot be read')
  })

  it('follows a link the user names, but refuses what is not a regular file', async () => {
    const f = await file(line({ repo: 'demo-org/demo', version: '1.0.0', notes: 'x' }))
    await symlink(f, path.join(dir, 'link.jsonl'))
    expect(readNotesFile(path.join(dir, 'link.jsonl'), log).byRepo.size).toBe(1)
    await mkdir(path.join(dir, 'folder'))
    expect(() => readNotesFile(path.join(dir, 'folder'), log)).toThrow('--notes-from is not a regular file')
    execFileSync('mkfifo', [path.join(dir, 'fifo')])
    expect(() => readNotesFile(path.join(dir, 'fifo'), log)).toThrow('--notes-from is not a regular file')
    expect(() => readNotesFile(path.join(dir, 'missing.jsonl'), log)).toThrow('--notes-from cannot be read (ENOENT)')
  })
})

describe('notesFileOutcomes', () => {
  const demo = { slug: 'demo', repo: 'demo-org/demo' }
  const releases = [
    line({ repo: 'demo-org/demo', version: '1.1.0', tag: 'v1.1.0', date: '2026-11-10', notes: 'Adds a demo button.' }),
    line({ repo: 'demo-org/demo', version: '2.0.0', tag: 'v2.0.0', date: '2026-11-20', notes: 'Removes DEMO_X.' }),
    line({ repo: 'demo-org/demo', version: '1.0.0', date: '2026-11-01', notes: 'First demo release.' }),
    line({ repo: 'demo-org/demo', version: '2.1.0-rc.1', notes: 'A prerelease: never the latest.' })
  ]

  it('takes the newest stable version as the latest and every other release as a new app history', async () => {
    const notes = readNotesFile(await file(...releases), log)
    const out = notesFileOutcomes(notes, [demo, { slug: 'other', repo: 'other/app' }], NOW)
    expect([...out.keys()]).toEqual(['demo'])
    const o = out.get('demo')!
    expect(o.status).toBe('fresh')
    if (o.status !== 'fresh') return
    expect(o.facts).toMatchObject({
      version: '2.0.0',
      url: 'https://github.com/demo-org/demo/releases/tag/v2.0.0',
      date: '2026-11-20',
      notes: 'Removes DEMO_X.',
      checked: '2026-12-01',
      archived: false
    })
    expect(o.facts.crossed.map((r) => r.version)).toEqual(['2.0.0'])
    expect(o.facts.earlier!.map((r) => r.version)).toEqual(['1.0.0', '1.1.0'])
    // No tag: the repository's releases page.
    expect(o.facts.earlier![0]!.url).toBe('https://github.com/demo-org/demo/releases')
  })

  it('crosses the releases since the published version, and keeps the catalog day for the release it records', async () => {
    const notes = readNotesFile(await file(...releases), log)
    const seed = { version: '2.0.0', checked: '2026-11-21' }
    const o = notesFileOutcomes(notes, [{ ...demo, previousVersion: '1.0.0', seed, archived: true }], NOW).get('demo')!
    if (o.status !== 'fresh') throw new Error(o.status)
    expect(o.facts.crossed.map((r) => r.version)).toEqual(['1.1.0', '2.0.0'])
    expect(o.facts.earlier).toBeUndefined()
    expect(o.facts).toMatchObject({ checked: '2026-11-21', archived: true })
  })

  it('leaves an app alone whose catalog record names a newer release than the file holds', async () => {
    const notes = readNotesFile(await file(...releases), log)
    const seed = { version: '3.0.0', checked: '2026-11-21' }
    expect(notesFileOutcomes(notes, [{ ...demo, seed }], NOW).size).toBe(0)
  })

  it('takes the catalog release under its own label when that label reads as no version', async () => {
    const notes = readNotesFile(
      await file(line({ repo: 'demo-org/demo', version: '<b>nightly</b>', notes: 'Odd label, real notes.' })),
      log
    )
    const seed = { version: '<b>nightly</b>', checked: '2026-11-21' }
    const o = notesFileOutcomes(notes, [{ ...demo, seed }], NOW).get('demo')!
    if (o.status !== 'fresh') throw new Error(o.status)
    expect(o.facts).toMatchObject({ version: '<b>nightly</b>', notes: 'Odd label, real notes.', checked: '2026-11-21' })
  })

  it('digests an app releases so that a changed note changes its key, and no release gives an empty one', async () => {
    const a = readNotesFile(await file(...releases), log)
    const b = readNotesFile(await file(...releases.slice(0, 3), releases[3]!.replace('never', 'not')), log)
    expect(notesDigest(a, 'Demo-Org/demo')).not.toBe('')
    expect(notesDigest(a, 'demo-org/demo')).not.toBe(notesDigest(b, 'demo-org/demo'))
    expect(notesDigest(a, 'other/app')).toBe('')
  })

  it('never lets a tag or a source path pick a page outside the app repository', async () => {
    const source = { repo: 'demo-org/demo', path: '../../../evil/repo/blob/main/x.md', commit: 'abcdef1' }
    const notes = readNotesFile(
      await file(
        line({ repo: 'demo-org/demo', version: '1.0.0', tag: '../../../evil/repo/releases/tag/v1', notes: 'a' }),
        line({ repo: 'demo-org/demo', version: '1.0.1', tag: null, source, notes: 'b' }),
        line({ repo: 'demo-org/demo', version: '1.0.2', tag: 'release/1.0.2', notes: 'c' })
      ),
      log
    )
    const o = notesFileOutcomes(notes, [demo], NOW).get('demo')!
    if (o.status !== 'fresh') throw new Error(o.status)
    expect(o.facts.url).toBe('https://github.com/demo-org/demo/releases/tag/release/1.0.2')
    expect(o.facts.earlier!.map((r) => r.url)).toEqual([
      'https://github.com/demo-org/demo/releases',
      'https://github.com/demo-org/demo/releases'
    ])
  })

  it('records each step to a release that is not the next one as unread, crossing the update above the published', async () => {
    const v = (version: string) => line({ repo: 'demo-org/demo', version, notes: `Fixes the demo page ${version}.` })
    const notes = readNotesFile(
      await file(v('2.0.10'), v('2.0.12'), v('2.0.13'), v('2.0.15'), v('2.0.17'), v('2.1.0')),
      log
    )
    const o = notesFileOutcomes(notes, [{ ...demo, previousVersion: '2.0.13' }], NOW).get('demo')!
    if (o.status !== 'fresh') throw new Error(o.status)
    expect(o.facts.crossed.map((r) => r.version)).toEqual(['2.0.15', '2.0.17', '2.1.0'])
    const why = 'the notes file holds no release between them (a sampled history)'
    expect(o.facts.unread).toEqual([
      { after: '2.0.13', before: '2.0.15', crossed: true, why },
      { after: '2.0.15', before: '2.0.17', crossed: true, why }
    ])
    // A new app: the steps inside its first history are gaps there, but the update to the latest crosses none.
    const first = notesFileOutcomes(notes, [demo], NOW).get('demo')!
    if (first.status !== 'fresh') throw new Error(first.status)
    expect(first.facts.unread!.map((u) => [u.after, u.before, u.crossed])).toEqual([
      ['2.0.10', '2.0.12', false],
      ['2.0.13', '2.0.15', false],
      ['2.0.15', '2.0.17', false]
    ])
  })

  it('reads a prerelease flag: a flagged release labelled stable is crossed unread, never the latest', async () => {
    const notes = readNotesFile(
      await file(
        line({ repo: 'demo-org/demo', version: '1.0.0', notes: 'First demo release.' }),
        line({ repo: 'demo-org/demo', version: '1.1.0', notes: 'Removes DEMO_X.', prerelease: true }),
        line({ repo: 'demo-org/demo', version: '1.2.0', prerelease: true, notes: 'A flagged newest.' }),
        line({ repo: 'demo-org/demo', version: '1.1.1', notes: 'Fixes the demo page.' })
      ),
      log
    )
    const o = notesFileOutcomes(notes, [{ ...demo, previousVersion: '1.0.0' }], NOW).get('demo')!
    if (o.status !== 'fresh') throw new Error(o.status)
    expect(o.facts.version).toBe('1.1.1')
    expect(o.facts.unread).toEqual([
      {
        after: '1.0.0',
        before: '1.1.1',
        crossed: true,
        why: '"1.1.0" flagged as prerelease but labelled as a stable version'
      }
    ])
  })
})

describe('duplicate versions', () => {
  it('joins the notes of a version given twice with other notes, warning with the file and line; same notes are one', async () => {
    const f = await file(
      line({ repo: 'demo-org/demo', version: '1.0.0', notes: 'Fixes the demo page.' }),
      line({ repo: 'demo-org/demo', version: 'v1.0', notes: 'Removes DEMO_X.' }),
      line({ repo: 'demo-org/demo', version: '1.0.0', notes: 'Fixes the demo page.' }),
      line({ repo: 'demo-org/demo', version: '1.0.0-rc.1', notes: 'Not the same release.' })
    )
    const notes = readNotesFile(f, log)
    const entries = notes.byRepo.get('demo-org/demo')!
    expect(entries.map((e) => [e.version, e.notes])).toEqual([
      ['1.0.0', 'Fixes the demo page.\n\nRemoves DEMO_X.'],
      ['1.0.0-rc.1', 'Not the same release.']
    ])
    expect(warnings).toEqual([
      `${f}:2: version "v1.0" is also on line 1 with other notes; both notes are read as one release, so the more cautious reading decides`
    ])
  })
})
