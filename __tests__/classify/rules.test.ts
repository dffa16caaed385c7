// The rules one by one, on short notes phrased the way release notes phrase them.
// Real notes for each class are pinned in classifier.test.ts; these cover phrasings
// the real set has few of (negations, hedges, admonitions, urgency, future requirements).
import { describe, expect, it } from '@jest/globals'
import { classifyReleases } from '../../src/classify/index.js'

const judge = (notes: string) => classifyReleases({ releases: [{ version: '2.0.0', notes }] })

describe('rules', () => {
  it.each([
    ['### Breaking changes\n\n- The `/api/v1` endpoints are gone.\n', 'breaking', 'breaking-section'],
    ['### Breaking changes\n\nNone.\n\n### Fixes\n\n- Fix crash on empty upload\n', 'safe', 'no-risk-found'],
    ['This release contains no breaking changes.\n\n- Fix crash on empty upload\n', 'safe', 'no-risk-found'],
    [
      '- Changed the session cookie name. This is not really breaking, but clients will have to log in again.\n',
      'caution',
      'hedged-breaking'
    ],
    ['- BREAKING CHANGE: the `cache` section of the config file was restructured\n', 'breaking', 'breaking-marker'],
    ['- refactor(api)!: drop the legacy token format\n', 'breaking', 'breaking-marker'],
    ['## Upgrade notes\n\nRun `app migrate --all` once after the upgrade.\n', 'breaking', 'upgrade-section'],
    ['- PHP 8.2 or later is now required.\n', 'breaking', 'runtime-requirement'],
    ['- Dropped support for PostgreSQL 12; PostgreSQL 13 is the minimum.\n', 'breaking', 'runtime-requirement'],
    ['- PHP 8.1 support will be dropped in the next release.\n', 'caution', 'deprecation'],
    ['- Database migrations must be run manually with `occ db:migrate` after updating.\n', 'breaking', 'manual-step'],
    ['- To roll back, set `schema_version` back to 27 and restore the backup.\n', 'safe', 'no-risk-found'],
    [
      '- This release fixes a critical security vulnerability. We strongly recommend that all users upgrade immediately.\n',
      'breaking',
      'urgent-update'
    ],
    ['- The `LOG_FORMAT` setting has been removed.\n', 'breaking', 'removed-setting'],
    [
      '- The `log_format` option was renamed to `logging.format`; the old name is still accepted as an alias.\n',
      'caution',
      'config-change'
    ],
    ['### Removed\n\n- The built-in LDAP sync job.\n', 'breaking', 'removed-section'],
    [
      '> [!WARNING]\n> The first start after this update rebuilds the search index and can take a while.\n',
      'caution',
      'admonition'
    ],
    ['**Important:** the search index is rebuilt on first start.\n', 'caution', 'admonition'],
    ['### Deprecated\n\n- The `/api/v1/tokens` endpoint.\n', 'caution', 'deprecation'],
    ['- Uploads are now limited to 100 MB by default.\n', 'caution', 'default-change'],
    ['- Fix XSS in the markdown preview (CVE-2025-1234)\n', 'caution', 'security-fix'],
    [
      '### Documentation\n\n- Document the deprecated `X_MODE` flag\n- Fix typo in the upgrade guide\n',
      'safe',
      'no-risk-found'
    ],
    ['### Features\n\n- Users are able to remove their avatar via the API\n', 'safe', 'no-risk-found']
  ])('%j → %s (%s)', (notes, cls, ruleName) => {
    const j = judge(notes)
    expect([j.safeToUpdate, j.rule]).toEqual([cls, ruleName])
  })

  it('quotes the deciding words, bounded', () => {
    const long = `- ${'Improve the handling of very long lines in the log viewer and elsewhere. '.repeat(20)}The \`OLD_API\` option has been removed.\n`
    const j = judge(long)
    expect(j.rule).toBe('removed-setting')
    expect(j.rationale).toContain('OLD_API option has been removed')
    expect(j.rationale.length).toBeLessThan(500)
  })
})
