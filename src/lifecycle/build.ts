// The spec's Lifecycle object (2.5) for one app, from one product's data.
import { lifecycleSchema, type Lifecycle } from '../schema/index.js'
import type { EndoflifeProduct } from '../upstream/endoflife.js'
import { PRODUCT_PATTERN } from '../schema/index.js'
import { utcDay } from '../util/dates.js'
import { matchCycle } from './match.js'

export const ENDOFLIFE_SITE = 'https://endoflife.date'

export interface LifecycleResult {
  lifecycle: Lifecycle | null
  /** Why lifecycle is null, for the build log; absent when it resolved. */
  warning?: string
}

/** Upstream text in a log line: bounded, control and format characters neutralised. */
function clean(label: string, max = 80): string {
  return label.slice(0, max).replace(/[\p{Cc}\p{Cf}]/gu, '?')
}

function quote(label: string): string {
  return JSON.stringify(clean(label))
}

/**
 * Find the cycle of `latestVersion` and describe its end of life as of `now`.
 * `status`: `supported` when no end of life is set, `eol-scheduled` while the
 * date is still ahead, `eol` once it has passed. Like endoflife.date itself,
 * the cycle is past its end of life only the day after the date. The data's
 * own is* flags were computed on the day it was generated, so a dated end of
 * life is judged against `now`, never against `isEol`.
 */
export function buildLifecycle(
  product: string,
  doc: EndoflifeProduct,
  latestVersion: string,
  now: Date,
  opts: { tagPrefix?: string } = {}
): LifecycleResult {
  const today = utcDay(now)
  if (!PRODUCT_PATTERN.test(product)) {
    return { lifecycle: null, warning: `lifecycle: ${quote(product)} is not an endoflife.date product id` }
  }
  const releases = doc.result.releases
  const cycle = matchCycle(latestVersion, releases, opts)
  if (cycle === null) {
    const listed = releases
      .slice(0, 8)
      .map((r) => clean(r.name, 20))
      .join(', ')
    return {
      lifecycle: null,
      warning:
        `lifecycle: no release cycle of endoflife.date product "${product}" matches version ${quote(latestVersion)} ` +
        `(cycles: ${listed}${releases.length > 8 ? ', …' : ''}); lifecycle left empty rather than guessed`
    }
  }
  const release = releases.find((r) => r.name === cycle)!
  let lifecycle: Lifecycle
  if (release.eolFrom === null) {
    // Without a date the flag is the source's own value (not computed on
    // another day). `eol: true` cannot be expressed by spec 2.5, and a missing
    // value is no claim of support: both leave the lifecycle empty.
    if (release.isEol !== false) {
      const why = release.isEol === true ? 'is marked end of life without a date' : 'has no end-of-life information'
      return {
        lifecycle: null,
        warning: `lifecycle: cycle ${cycle} of "${product}" ${why}; the lifecycle object cannot express that, so it is left empty`
      }
    }
    lifecycle = { product, link: `${ENDOFLIFE_SITE}/${product}`, cycle, eol: false, status: 'supported', eolDate: null }
  } else {
    const status = today > release.eolFrom ? 'eol' : 'eol-scheduled'
    lifecycle = {
      product,
      link: `${ENDOFLIFE_SITE}/${product}`,
      cycle,
      eol: release.eolFrom,
      status,
      eolDate: release.eolFrom
    }
  }
  // Cheap guarantee that what we hand on is publishable.
  return { lifecycle: lifecycleSchema.parse(lifecycle) }
}
