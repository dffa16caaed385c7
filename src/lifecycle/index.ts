// Lifecycle from endoflife.date: cycle matching and the spec's Lifecycle object.
export { matchCycle, type CycleLike } from './match.js'
export { buildLifecycle, utcDay, ENDOFLIFE_SITE, LIFECYCLE_STATUS_DOCS, type LifecycleResult } from './build.js'
