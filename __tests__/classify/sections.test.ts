// What a heading announces, read from its words: release notes decorate headings with emoji and markers.
import { describe, expect, it } from '@jest/globals'
import { headingKinds, S } from '../../src/classify/sections.js'

describe('headingKinds', () => {
  it('reads a bug-fixes heading as that kind only, its emoji aside', () => {
    expect(headingKinds('🐛 Bug fixes')).toBe(S.fixes)
  })
  it.each<[string, number, boolean]>([
    // Whatever decorates the words.
    ['Removed', S.removed, true],
    ['🗑️ Removed', S.removed, true],
    ['-- Changed --', S.changed, true],
    ['Changed 🔧', S.changed, true],
    ['🚀 Upgrading', S.upgrade, true],
    ['💥', S.breaking, true],
    // From the word lists.
    ['Upgrade notes', S.upgrade, true],
    ['Upgrading instructions', S.upgrade, true],
    ['Before you upgrade', S.upgrade, true],
    ['Before updating', S.upgrade, true],
    ['How to migrate', S.upgrade, true],
    ['Migration guide', S.upgrade, true],
    ['Migrations', S.upgrade, true],
    ['Action required', S.upgrade, true],
    ['Manual intervention', S.upgrade, true],
    ['Required steps', S.upgrade, true],
    ['Removed features', S.removed, true],
    ['Removals', S.removed, true],
    ['Miscellaneous tasks', S.housekeeping, true],
    ['All app changes', S.housekeeping, true],
    ['Build system', S.housekeeping, true],
    ['Dependencies', S.housekeeping, true],
    // A phrase out of order, a word not in the lists.
    ['Notes for upgraders', S.upgrade, false],
    ['Warnings about migration', S.upgrade, false],
    ['Features removed', S.removed, false],
    ['Documentary', S.housekeeping, false],
    ['Upgraded dependencies', S.upgrade, false]
  ])('%j announces kind bit %i: %s', (title, kind, is) => {
    expect(headingKinds(title) & kind).toBe(is ? kind : 0)
  })
})
