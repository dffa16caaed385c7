// The SVG badge per app, made with badge-maker (which escapes XML itself; we
// still clean the text so control characters cannot make the SVG ill-formed).
import { makeBadge } from 'badge-maker'
import type { AppRecord } from '../schema/index.js'
import { CLASS_INFO } from './html/classes.js'
import { shownVersion } from './html/text.js'

export const BADGE_LABEL = 'update safety'
/** Long version labels would make a badge wider than any README column. */
export const BADGE_VERSION_MAX = 32

/** The badge's right-hand text: the class word and the version it applies to. */
export function badgeMessage(record: Pick<AppRecord, 'safeToUpdate' | 'latestVersion'>): string {
  const word = CLASS_INFO[record.safeToUpdate].label.toLowerCase()
  const version = shownVersion(record.latestVersion, BADGE_VERSION_MAX)
  return version ? `${word} · ${version}` : word
}

export function renderBadge(record: Pick<AppRecord, 'safeToUpdate' | 'latestVersion'>): string {
  return makeBadge({
    label: BADGE_LABEL,
    message: badgeMessage(record),
    color: CLASS_INFO[record.safeToUpdate].badgeColor,
    labelColor: '#555'
  })
}
