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
})
