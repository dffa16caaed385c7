import { describe, expect, it } from '@jest/globals'
import { isSplitJson, joinJson, splitJson, toJson } from '../../src/util/json.js'
import { buildDocuments } from '../../src/site/api.js'
import { BASE, HOSTILE, REALISTIC } from '../site/fixtures.js'

/** The split form must write exactly the bytes toJson does: the published files may not change with it. */
function expectSameBytes(value: Record<string, unknown>, key: string): void {
  const split = splitJson(value, key)
  expect(isSplitJson(split)).toBe(true)
  expect(joinJson(split).equals(Buffer.from(toJson(value)))).toBe(true)
}

describe('splitJson and joinJson', () => {
  it('write the catalog document byte for byte as toJson does', () => {
    const records = [...REALISTIC, ...HOSTILE].map((p) => p.record)
    const { catalog } = buildDocuments(records, '2026-11-21T03:00:00.000Z', BASE)
    expectSameBytes({ ...catalog }, 'apps')
    expect(splitJson({ ...catalog }, 'apps').elements).toHaveLength(records.length)
  })

  it('keep the array where it is among the keys, empty or not, whatever its elements are', () => {
    expectSameBytes({ a: 1, list: [], z: 'end' }, 'list')
    expectSameBytes({ list: [1, 'two', null, [3, [4]], { deep: { er: [] } }, true] }, 'list')
    // JSON.stringify writes what it cannot represent in an array as null, and leaves out such a key of an object.
    expectSameBytes({ list: [undefined, () => 1, { gone: undefined, kept: 0 }] }, 'list')
    expectSameBytes({ before: { list: [9] }, list: [{ list: [] }] }, 'list')
  })

  it('are not misled by text that looks like the array, and keep every character', () => {
    const tricky = '\n  "apps": [ ] "\\ é — 🦀 \u2028 \ud800 <script>'
    expectSameBytes({ docs: tricky, apps: [{ name: tricky }, tricky], after: tricky }, 'apps')
  })

  it('refuse a key that is not a top-level array', () => {
    expect(() => splitJson({ apps: 'no' }, 'apps')).toThrow('apps is not an array')
    expect(() => splitJson({}, 'apps')).toThrow('apps is not an array')
  })

  it('tell split documents from text', () => {
    expect(isSplitJson('{"elements": []}')).toBe(false)
    expect(isSplitJson(Buffer.from('x'))).toBe(false)
  })
})
