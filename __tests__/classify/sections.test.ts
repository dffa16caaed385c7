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
})
