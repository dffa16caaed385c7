import { describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { shownPath } from '../../src/util/shown-path.js'

describe('shownPath', () => {
  const cwd = path.resolve('/work/repo')

  it('names a path beneath the working folder relative to it, as Actions annotations need', () => {
    expect(shownPath(path.join(cwd, 'catalog'), cwd)).toBe('catalog')
    expect(shownPath('catalog/apps', cwd)).toBe(path.join('catalog', 'apps'))
    expect(shownPath(cwd, cwd)).toBe('.')
    // A name that only starts with two dots is still beneath it.
    expect(shownPath(path.join(cwd, '..notes.jsonl'), cwd)).toBe('..notes.jsonl')
  })

  it('names a path elsewhere absolutely, not by climbing out of the working folder', () => {
    expect(shownPath(path.resolve('/tmp/notes.jsonl'), cwd)).toBe(path.resolve('/tmp/notes.jsonl'))
    expect(shownPath('../other/catalog', cwd)).toBe(path.resolve('/work/other/catalog'))
    expect(shownPath('..', cwd)).toBe(path.resolve('/work'))
  })
})
