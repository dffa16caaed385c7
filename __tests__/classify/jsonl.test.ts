import { expect, it } from '@jest/globals'
import { describe } from '../support/needs-shared-data.js'
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { classifyJsonl, JsonlInputError } from '../../src/classify/index.js'
import { RELEASE_NOTES, readSharedJsonl } from '../support/shared-data.js'
import { note } from './fixtures.js'

async function* lines(...ls: string[]): AsyncIterable<string> {
  for (const l of ls) yield l
}

async function run(input: AsyncIterable<string>) {
  const out: string[] = []
  const count = await classifyJsonl(input, (l) => out.push(l))
  return { count, out: out.map((l) => JSON.parse(l) as Record<string, unknown>), raw: out }
}

describe('classifyJsonl', () => {
  it('writes one line per input line, in input order, with exactly the four fields', async () => {
    // The real notes file, streamed line by line as the CLI does.
    const rl = createInterface({ input: createReadStream(RELEASE_NOTES), crlfDelay: Infinity })
    const { count, out, raw } = await run(rl)
    const all = readSharedJsonl<{ id: string }>(RELEASE_NOTES)
    expect(count).toBe(all.length)
    expect(out.map((o) => o.id)).toEqual(all.map((n) => n.id))
    for (const o of out) expect(Object.keys(o)).toEqual(['id', 'safeToUpdate', 'rationale', 'changelogSummary'])
    expect(raw.every((l) => !l.includes('\n'))).toBe(true)
  })

  it('classifies the releases array when given, oldest first', async () => {
    const rel = (id: string) => ({ version: note(id).version, notes: note(id).notes })
    const line = JSON.stringify({
      id: 'nb',
      notes: '',
      releases: [rel('netbox@v4.4.4'), rel('netbox@v4.5.0'), rel('netbox@v4.5.10')]
    })
    const { out } = await run(lines(line))
    expect(out[0]).toMatchObject({ id: 'nb', safeToUpdate: 'breaking' })
    expect(out[0]!.rationale).toContain('the most severe decides: v4.5.0')
  })

  it('skips blank lines but counts them for line numbers', async () => {
    const ok = JSON.stringify({ id: 1, notes: '- Fix crash on start' })
    await expect(run(lines(ok, '', '   ', '{"id": 2, "notes": 5}'))).rejects.toMatchObject({ line: 4 })
    const { count } = await run(lines(ok, '', ok))
    expect(count).toBe(2)
  })

  it.each([
    ['not JSON', '{"id": 1, notes}', /^line 2: not valid JSON/],
    ['missing notes', '{"id": "a"}', /^line 2: expected \{id, notes.*notes/],
    ['no id', '{"notes": "x"}', /^line 2: expected .*id/],
    ['an array', '[1, 2]', /^line 2: expected/],
    ['bad releases', '{"id": "a", "notes": "", "releases": [{"version": "1"}]}', /^line 2: .*releases\.0\.notes/]
  ])('stops at a malformed line (%s) naming its 1-based line number', async (_name, bad, message) => {
    const written: string[] = []
    const promise = classifyJsonl(
      lines(JSON.stringify({ id: 'first', notes: '' }), bad, JSON.stringify({ id: 'never', notes: '' })),
      (l) => written.push(l)
    )
    await expect(promise).rejects.toBeInstanceOf(JsonlInputError)
    await expect(promise).rejects.toThrow(message)
    expect(written).toHaveLength(1) // lines before the bad one were written, nothing after
  })
})
