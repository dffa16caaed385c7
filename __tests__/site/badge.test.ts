import { describe, expect, test } from '@jest/globals'
import { renderBadge, badgeMessage, BADGE_VERSION_MAX } from '../../src/site/badge.js'
import { shieldsEndpoint } from '../../src/site/shields.js'
import { CLASS_INFO } from '../../src/site/html/classes.js'
import { CLASSES } from '../../src/schema/index.js'
import { HOSTILE } from './fixtures.js'
import { deepText, parseXml, type XmlNode } from './markup.js'

function all(n: XmlNode): XmlNode[] {
  return [n, ...n.children.flatMap(all)]
}

describe('renderBadge', () => {
  test.each(CLASSES)('%s: well-formed SVG in the class colour, with its word and the version', (c) => {
    const svg = renderBadge({ safeToUpdate: c, latestVersion: 'v1.2.3' })
    const root = parseXml(svg)
    expect(root.name).toBe('svg')
    expect(root.attrs.xmlns).toBe('http://www.w3.org/2000/svg')
    const fills = all(root).map((n) => n.attrs.fill?.toLowerCase())
    expect(fills).toContain(CLASS_INFO[c].badgeColor)
    // The colour of every other class is absent: one badge, one meaning.
    for (const other of CLASSES.filter((o) => o !== c)) expect(fills).not.toContain(CLASS_INFO[other].badgeColor)
    expect(deepText(root)).toContain(`${CLASS_INFO[c].label.toLowerCase()} · v1.2.3`)
    expect(root.attrs['aria-label'] ?? deepText(all(root).find((n) => n.name === 'title')!)).toContain('update safety')
  })

  test('hostile version labels stay text and the SVG stays well-formed', () => {
    for (const p of HOSTILE) {
      const svg = renderBadge(p.record)
      const root = parseXml(svg)
      expect(
        all(root)
          .map((n) => n.name)
          .filter((n) => n === 'script' || n === 'foreignObject')
      ).toEqual([])
      expect(svg).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
    }
    const xml = parseXml(
      renderBadge({ safeToUpdate: 'unknown', latestVersion: '"/><script>window.__pwned=1</script>' })
    )
    expect(deepText(xml)).toContain('"/><script>')
  })

  test('long versions are cut so the badge stays narrow', () => {
    const msg = badgeMessage({ safeToUpdate: 'safe', latestVersion: 'v' + '9'.repeat(200) })
    expect(Array.from(msg.replace('safe · ', ''))).toHaveLength(BADGE_VERSION_MAX)
    expect(msg.endsWith('…')).toBe(true)
  })

  test('output is deterministic', () => {
    expect(renderBadge({ safeToUpdate: 'breaking', latestVersion: '1.0' })).toBe(
      renderBadge({ safeToUpdate: 'breaking', latestVersion: '1.0' })
    )
  })
})

describe('shieldsEndpoint', () => {
  test.each(CLASSES)('%s: schemaVersion 1, same words and colour as the badge', (c) => {
    const e = shieldsEndpoint({ safeToUpdate: c, latestVersion: '2.0.0' })
    expect(e).toEqual({
      schemaVersion: 1,
      label: 'update safety',
      message: `${CLASS_INFO[c].label.toLowerCase()} · 2.0.0`,
      color: CLASS_INFO[c].badgeColor.slice(1)
    })
    expect(e.color).toMatch(/^[0-9a-f]{6}$/)
  })
  test('control and bidi characters are removed from the message', () => {
    const e = shieldsEndpoint({ safeToUpdate: 'safe', latestVersion: '1.0\u202E\u0007' })
    expect(e.message).toBe('safe · 1.0')
  })
})
