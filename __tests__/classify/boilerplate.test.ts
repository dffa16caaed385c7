// Credits and pointers are not about the release: GitHub's generated notes add them to any release.
import { describe, expect, it } from '@jest/globals'
import { parseUnits } from '../../src/classify/blocks.js'
import { boilerplate } from '../../src/classify/boilerplate.js'

const judged = (notes: string) =>
  parseUnits(notes)
    .filter((u) => u.kind !== 'heading')
    .map((u) => [u.text, boilerplate(u)])

describe('boilerplate', () => {
  // Made-up lines in the shapes GitHub generates (a credit's link on a made-up host) and projects write.
  it('is a pointer to the changelog or the commits, and every line of a credits section', () => {
    expect(
      judged(
        '- Fix the login form\n\n**Full Changelog**: https://github.com/o/r/compare/v1...v2\n\n' +
          '## New Contributors\n* @alice made their first contribution in https://git.example/o/r/pull/12\n'
      )
    ).toEqual([
      ['Fix the login form', false],
      ['Full Changelog: https://github.com/o/r/compare/v1...v2', true],
      ['@alice made their first contribution in https://git.example/o/r/pull/12', true]
    ])
  })
  it('is a paragraph of one sentence of thanks, not an item nor thanks followed by news', () => {
    expect(
      judged(
        'Thanks to all who helped with this Demo release!\n\n' +
          'Thank you @bob for this PR! Now Demo can check its config with --check.\n\n' +
          '- Thanks to Carol Demo for reporting the crash\n'
      )
    ).toEqual([
      ['Thanks to all who helped with this Demo release!', true],
      ['Thank you @bob for this PR! Now Demo can check its config with --check.', false],
      ['Thanks to Carol Demo for reporting the crash', false]
    ])
  })
  it('is a sentence of appeal for support, and every line of a section of images or checksums', () => {
    expect(
      judged(
        '> If you like this project, please consider sponsoring us on GitHub Sponsors.\n\n' +
          'This release adds IPv6. Please consider sponsoring us.\n\n' +
          '## Docker images\n\n- `ghcr.io/o/r:1.0.1`\n'
      )
    ).toEqual([
      ['If you like this project, please consider sponsoring us on GitHub Sponsors.', true],
      ['This release adds IPv6. Please consider sponsoring us.', false],
      ['ghcr.io/o/r:1.0.1', true]
    ])
  })
})
