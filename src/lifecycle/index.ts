// Lifecycle from endoflife.date: cycle matching and the spec's Lifecycle object.
export { matchCycle, type CycleLike } from './match.js'
export { buildLifecycle, ENDOFLIFE_SITE, type LifecycleResult } from './build.js'
export { utcDay } from '../util/dates.js'
