// WCAG 2.x contrast of every text colour the stylesheet uses, in both schemes.
import { describe, expect, test } from '@jest/globals'
import { PALETTE, SITE_CSS, type Scheme } from '../../src/site/assets.js'
import { CLASS_INFO } from '../../src/site/html/classes.js'
import { CLASSES } from '../../src/schema/index.js'

function luminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex)
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`)
  const [r, g, b] = m.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

function textPairs(s: Scheme): Array<[string, string, string]> {
  return [
    ['body text', s.fg, s.bg],
    ['body text on panels', s.fg, s.panel],
    ['muted text', s.muted, s.bg],
    ['muted text on panels', s.muted, s.panel],
    ['links', s.link, s.bg],
    ['links on panels', s.link, s.panel],
    ['selected filter', s.bg, s.fg],
    ['stale notice', s.fg, s.classes.caution.bg],
    ['end-of-life text', s.classes.breaking.fg, s.bg],
    ...CLASSES.map((c): [string, string, string] => [`${c} chip`, s.classes[c].fg, s.classes[c].bg])
  ]
}

describe.each(['light', 'dark'] as const)('%s scheme', (name) => {
  const s = PALETTE[name]
  test.each(textPairs(s))('%s: contrast ≥ 4.5', (_, fg, bg) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5)
  })
  test('focus ring and control borders: non-text contrast ≥ 3', () => {
    expect(contrast(s.focus, s.bg)).toBeGreaterThanOrEqual(3)
    expect(contrast(s.focus, s.panel)).toBeGreaterThanOrEqual(3)
    expect(contrast(s.line, s.bg)).toBeGreaterThanOrEqual(3)
  })
  test('the stylesheet ships exactly these colours', () => {
    for (const v of [
      s.bg,
      s.fg,
      s.muted,
      s.link,
      s.focus,
      ...CLASSES.flatMap((c) => [s.classes[c].fg, s.classes[c].bg])
    ])
      expect(SITE_CSS).toContain(v)
  })
})

test.each(CLASSES)('%s badge: white text on the badge colour ≥ 4.5', (c) => {
  expect(contrast('#ffffff', CLASS_INFO[c].badgeColor)).toBeGreaterThanOrEqual(4.5)
})

test('contrast() matches known WCAG values', () => {
  expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
  expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
})
