/** YYYY-MM-DD of `now` in UTC: the day a build is on. */
export function utcDay(now: Date): string {
  if (Number.isNaN(now.getTime())) throw new RangeError('now is not a valid date')
  return now.toISOString().slice(0, 10)
}

/**
 * The last day of the year after `day` (YYYY-MM-DD) that a record's fact may carry before it reads as a typo
 * (2099 for 2026). A day merely after the run's is not one: tests, and a catalog built before a seed's day, hold
 * such days, and what a page shows must not hang on the day it was built.
 */
export function plausibleUntil(day: string): string {
  return `${Number(day.slice(0, 4)) + 1}${day.slice(4, 10)}`
}
