// What a heading announces, read from its words: release notes decorate headings with emoji and markers.
import { describe, expect, it } from '@jest/globals'
import { headingKinds, S } from '../../src/classify/sections.js'

describe('headingKinds', () => {
  it('reads the words of a heading whatever decorates them', () => {
    for (const [title, kind] of [
      ['Removed', S.removed],
      ['🗑️ Removed', S.removed],
      ['-- Changed --', S.changed],
      ['Changed 🔧', S.changed],
      ['🚀 Upgrading', S.upgrade],
      ['💥', S.breaking]
    ] as const)
      expect([title, headingKinds(title) & kind]).toEqual([title, kind])
    expect(headingKinds('🐛 Bug fixes')).toBe(S.fixes)
  })
  it.each<[string, number]>([
    ['Upgrade notes', S.upgrade],
    ['Upgrading instructions', S.upgrade],
    ['Before you upgrade', S.upgrade],
    ['Before updating', S.upgrade],
    ['How to migrate', S.upgrade],
    ['Migration guide', S.upgrade],
    ['Migrations', S.upgrade],
    ['Action required', S.upgrade],
    ['Manual intervention', S.upgrade],
    ['Required steps', S.upgrade],
    ['Removed features', S.removed],
    ['Removals', S.removed],
    ['Miscellaneous tasks', S.housekeeping],
    ['All app changes', S.housekeeping],
    ['Build system', S.housekeeping],
    ['Dependencies', S.housekeeping]
  ])('%s: a heading of its kind, from the word lists', (title, kind) => {
    expect(headingKinds(title) & kind).toBe(kind)
  })
  it.each<[string, number]>([
    ['Notes for upgraders', S.upgrade],
    ['Warnings about migration', S.upgrade],
    ['Features removed', S.removed],
    ['Documentary', S.housekeeping],
    ['Upgraded dependencies', S.upgrade]
  ])('%s: not that kind (a phrase out of order, a word not in the lists)', (title, kind) => {
    expect(headingKinds(title) & kind).toBe(0)
  })
})
