/** YYYY-MM-DD of `now` in UTC: the day a build is on. */
export function utcDay(now: Date): string {
  if (Number.isNaN(now.getTime())) throw new RangeError('now is not a valid date')
  return now.toISOString().slice(0, 10)
}
