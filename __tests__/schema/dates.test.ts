import { describe, expect, it } from '@jest/globals'
import { dateString } from '../../src/schema/index.js'

const ok = (s: string) => dateString.safeParse(s).success

describe('dateString', () => {
  it('takes the days of the calendar, leap days included', () => {
    for (const s of ['2024-02-29', '2000-02-29', '0000-02-29', '2025-01-31', '2025-04-30', '2025-12-31', '9999-12-31'])
      expect([s, ok(s)]).toEqual([s, true])
  })

  it('refuses days the calendar does not have and texts that are not YYYY-MM-DD', () => {
    for (const s of ['2025-02-29', '1900-02-29', '2100-02-29', '2025-04-31', '2025-00-10', '2025-13-01', '2025-01-00'])
      expect([s, ok(s)]).toEqual([s, false])
    for (const s of ['2025-1-01', '2025-01-01T00:00:00Z', ' 2025-01-01', '20250101'])
      expect([s, ok(s)]).toEqual([s, false])
  })

  it('agrees with the Date round trip on every month and day number of leap, common and century years', () => {
    const viaDate = (s: string) => {
      const t = new Date(`${s}T00:00:00Z`)
      return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === s
    }
    const two = (n: number) => String(n).padStart(2, '0')
    for (const y of ['0000', '0004', '1582', '1900', '1999', '2000', '2024', '2026', '2100', '2400', '9999'])
      for (let m = 0; m <= 13; m++)
        for (let d = 0; d <= 32; d++) {
          const s = `${y}-${two(m)}-${two(d)}`
          expect([s, ok(s)]).toEqual([s, viaDate(s)])
        }
  })
})
