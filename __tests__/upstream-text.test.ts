// The repository holds our own code and words, and facts (versions, dates, names): never a sentence of an
// upstream project's release notes. Those are read in place from the shared data set. This test reads every
// note (and every label's evidence) of the data set and fails on any run of RUN_WORDS words of one that a
// file of the repository (tracked, or new and not ignored) also holds.
import { expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe } from './support/needs-shared-data.js'
import { DEV_LABELS, readSharedJsonl, RELEASE_NOTES, UNLABELLED_NOTES } from './support/shared-data.js'

/** Words in a row that make a quote: long enough that no two authors write them alike by chance. */
const RUN_WORDS = 8

// Links are facts (and a run of their parts is no sentence), so they are left out before words are taken.
const words = (text: string): string[] =>
  text
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []

/** A run of version numbers and short words ("1 2 3 …", "as far back as 0 99") is no one's sentence. */
const wordy = (run: string[]) => run.filter((w) => /^\p{L}{3,}$/u.test(w)).length >= 4

function runs(text: string): string[] {
  const w = words(text)
  const out: string[] = []
  for (let i = 0; i + RUN_WORDS <= w.length; i++) {
    const run = w.slice(i, i + RUN_WORDS)
    if (wordy(run)) out.push(run.join(' '))
  }
  return out
}

describe('the repository holds no upstream text', () => {
  it(`no tracked file shares ${RUN_WORDS} words in a row with a release note of the data set`, () => {
    const texts = [
      ...readSharedJsonl<{ notes: string }>(RELEASE_NOTES).map((n) => n.notes),
      ...readSharedJsonl<{ notes: string }>(UNLABELLED_NOTES).map((n) => n.notes),
      ...readSharedJsonl<{ evidence: string }>(DEV_LABELS).map((l) => l.evidence)
    ]
    expect(texts.length).toBeGreaterThan(2000)
    const upstream = new Set(texts.flatMap(runs))
    // The check finds a quote: a line of a real note, written into code, is caught.
    const line = texts[0]!.split('\n').find((l) => runs(l).length > 0)!
    expect(runs(`const quoted = ${JSON.stringify(line)}\n`).some((r) => upstream.has(r))).toBe(true)
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      encoding: 'utf8'
    })
      .split('\0')
      .filter((f) => f !== '')
    const found: string[] = []
    for (const file of files) {
      let bytes: Buffer
      try {
        bytes = readFileSync(file)
      } catch {
        continue // listed but deleted in the working tree
      }
      if (bytes.includes(0)) continue // an image, not text
      const hit = runs(bytes.toString('utf8')).find((r) => upstream.has(r))
      if (hit) found.push(`${file}: "${hit}"`)
    }
    expect(found).toEqual([])
  }, 120_000)
})
