// A curated override wins for exactly one version; once upstream moves on, the
// curator's judgement no longer describes the latest release, so the rules decide again.
import { LIMITS, type Override } from '../schema/index.js'
import type { Logger, Verdict } from '../util/types.js'
import { EMPTY_SUMMARY } from './summary.js'
import { clip, safeLabel } from './text.js'
import { compareVersions } from '../util/versions.js'

export function applyOverride(
  verdict: Verdict,
  override: Override | undefined,
  latestVersion: string,
  log: Logger,
  file?: string
): Verdict {
  if (!override) return verdict
  const ref = file ? { file } : undefined
  if (override.version !== latestVersion) {
    const order = compareVersions(latestVersion, override.version)
    const why =
      order !== null && order < 0
        ? `it is for ${safeLabel(override.version)}, which is newer than the latest release ${safeLabel(latestVersion)}`
        : `it was for ${safeLabel(override.version)} and the latest release is now ${safeLabel(latestVersion)}`
    log.warning(
      `override ignored: ${why}; the rules decide the classification again (update or remove the override)`,
      ref
    )
    return verdict
  }
  const cls = override.class
  // The record schema allows a null summary only for unknown/unmaintained.
  const summary = verdict.changelogSummary ?? (cls === 'unknown' || cls === 'unmaintained' ? null : EMPTY_SUMMARY)
  return {
    safeToUpdate: cls,
    rationale: clip(
      `Curated override for ${safeLabel(latestVersion)}: ${override.reason.trim() || cls} The rules alone say: ${verdict.safeToUpdate}.`,
      LIMITS.rationale
    ),
    changelogSummary: summary
  }
}
