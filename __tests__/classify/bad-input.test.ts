// Issue 3, "Bad input": empty, whitespace, `[truncated]`, 10 MB, binary junk and control
// characters, HTML instead of Markdown, non-English notes. Never a crash.
import { expect, it } from '@jest/globals'
import { describe } from '../support/needs-shared-data.js'
import { classifyReleases, NOTES_CAP, SUMMARY_MAX } from '../../src/classify/index.js'
import { LIMITS } from '../../src/schema/index.js'
import { note } from './fixtures.js'

const judge = (notes: string) => classifyReleases({ releases: [{ version: '1.2.3', notes }] })

// Any C0/C1 control character other than tab and newline.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/

describe('bad input', () => {
  it.each([
    ['empty', ''],
    ['whitespace only', ' \n\t  \n\r\n '],
    ['[truncated] only', '\n[truncated]'],
    ['[truncated] with blank lines', '  \n\n[truncated]\n  ']
  ])('%s → unknown with the `...` summary', (_name, notes) => {
    const j = judge(notes)
    expect(j.safeToUpdate).toBe('unknown')
    expect(j.rule).toBe('empty-notes')
    expect(j.changelogSummary).toBe('...')
  })

  it('10 MB of notes is capped at NOTES_CAP, still classified, never safe, and says it was cut', () => {
    // A real safe release repeated to 10 MB: the part read looks safe, but what was cut may not be.
    const safe = note('netbox@v4.5.10').notes
    const huge = `${safe}\n`.repeat(Math.ceil(10_000_000 / (safe.length + 1)))
    expect(huge.length).toBeGreaterThanOrEqual(10_000_000)
    const t = process.hrtime.bigint()
    const j = judge(huge)
    expect(Number(process.hrtime.bigint() - t) / 1e6).toBeLessThan(2000)
    expect(j.safeToUpdate).not.toBe('safe')
    expect(j.changelogSummary!.length).toBeLessThanOrEqual(SUMMARY_MAX)
    if (j.safeToUpdate === 'caution' && j.rule === 'truncated-notes')
      expect(j.rationale).toContain(`${NOTES_CAP / 1024} KiB`)
  })

  it('10 MB of notes with a breaking section first is breaking', () => {
    const breaking = note('netbox@v4.5.0').notes
    const j = judge(breaking + '\n- filler line\n'.repeat(700_000))
    expect(j.safeToUpdate).toBe('breaking')
    expect(j.rationale).toContain('under "Breaking Changes"')
  })

  it('binary junk and control characters never crash and never reach the output', () => {
    let seed = 42
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const junk = Array.from({ length: 20_000 }, () => String.fromCharCode(Math.floor(rand() * 0xffff))).join('')
    for (const notes of [
      junk,
      '\u0000\u0001\u0007\u001b[31m\u007f\u0085',
      `\u0000${note('adguard-home@v0.107.77').notes}\u0007`
    ]) {
      const j = judge(notes)
      expect(j.rationale).not.toMatch(CONTROL)
      expect(j.changelogSummary ?? '').not.toMatch(CONTROL)
      expect(j.rationale.length).toBeLessThanOrEqual(LIMITS.rationale)
    }
    expect(judge(junk).safeToUpdate).toBe('unknown')
    // Control characters around real notes do not hide what they say.
    expect(judge(`\u0000${note('adguard-home@v0.107.77').notes}\u0007`).safeToUpdate).toBe('caution')
  })

  it('HTML instead of Markdown: headings and list items are read as such', () => {
    const html =
      '<h2>Breaking changes</h2>\n<ul>\n<li>The <code>LEGACY_AUTH</code> option has been removed; use <a href="https://example.org/docs">OIDC</a>.</li>\n</ul>\n<h2>Bug fixes</h2>\n<ul><li>Fix crash when the cache is empty</li></ul>\n'
    const j = judge(html)
    expect(j.changelogSummary).toBe(
      'Breaking changes: The LEGACY_AUTH option has been removed; use OIDC. Bug fixes: Fix crash when the cache is empty.'
    )
    expect(j.safeToUpdate).not.toBe('safe')
  })

  it('XML fragments: English paragraphs are read, other languages dropped, type attributes kept as labels', () => {
    const xml =
      '<change type="security">\n<para lang="ru">исправлена уязвимость в резолвере</para>\n<para lang="en">a vulnerability in the resolver was fixed (CVE-2025-1111).</para>\n</change>\n<change type="bugfix">\n<para lang="ru">ошибка</para>\n<para lang="en">a worker process of Demo could crash on an empty reply.</para>\n</change>\n'
    const j = judge(xml)
    expect(j.safeToUpdate).toBe('caution')
    expect(j.security).toBe(true)
    expect(j.changelogSummary).toContain('[security] a vulnerability in the resolver was fixed')
    expect(j.changelogSummary).not.toMatch(/[а-я]/)
  })

  it('HTML with script and style keeps neither in the summary', () => {
    const j = judge('<p>Fixes a crash on start.</p><script>alert(1)</script><style>p{color:red}</style>')
    expect(j.changelogSummary).toBe('Fixes a crash on start.')
  })

  it('non-English notes → unknown (the detectors read English)', () => {
    const german =
      '### Fehlerbehebungen\n\n- Absturz beim Öffnen der Einstellungen behoben\n- Übersetzungen aktualisiert\n- Darstellung der Seitenleiste auf Mobilgeräten verbessert\n'
    const j = judge(german)
    expect(j.safeToUpdate).toBe('unknown')
    expect(j.rule).toBe('unreadable-notes')
    const chinese = '## 更新内容\n\n- 修复了登录页面的显示问题\n- 改进了搜索性能\n'
    expect(judge(chinese).safeToUpdate).toBe('unknown')
  })

  it('pathological Markdown (emphasis runs, deep nesting, one huge line) is classified without error', () => {
    const inputs = [
      '*_a\n'.repeat(15_000),
      '_a'.repeat(30_000),
      `${'> '.repeat(20_000)}x`,
      `${'- '.repeat(20_000)}x`,
      '['.repeat(60_000),
      '&#xD800;&#0;&amp;'.repeat(3000)
    ]
    for (const notes of inputs) {
      const j = judge(notes)
      expect(j.rationale.length).toBeGreaterThan(0)
      expect(j.changelogSummary!.length).toBeLessThanOrEqual(SUMMARY_MAX)
      expect(j.changelogSummary).not.toMatch(CONTROL)
    }
    // Escaped delimiters stay in the text as characters, so identifiers survive.
    expect(
      judge(`${'*_a\n'.repeat(1500)}\n\n- The \`OLD_MODE\` setting has been removed.\n`).changelogSummary
    ).toContain('setting has been removed')
  })

  it('a hostile version label is cleaned before it reaches the rationale', () => {
    const j = classifyReleases({
      releases: [{ version: 'v1\u0000\u001b[2J\u202Eevil', notes: note('netbox@v4.5.0').notes }]
    })
    expect(j.rationale).not.toMatch(CONTROL)
    expect(j.rationale).not.toContain('\u202E')
    expect(j.rationale).toContain('v1[2Jevil')
  })
})
