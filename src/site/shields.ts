// The shields.io endpoint document (https://shields.io/endpoint) for readers who
// want shields' styles; same words and colour as our own badge.
import type { AppRecord } from '../schema/index.js'
import { BADGE_LABEL, badgeMessage } from './badge.js'
import { CLASS_INFO } from './html/classes.js'

export interface ShieldsEndpoint {
  schemaVersion: 1
  label: string
  message: string
  color: string
}

export function shieldsEndpoint(record: Pick<AppRecord, 'safeToUpdate' | 'latestVersion'>): ShieldsEndpoint {
  return {
    schemaVersion: 1,
    label: BADGE_LABEL,
    message: badgeMessage(record),
    // Shields takes hex without '#', like its query-string form.
    color: CLASS_INFO[record.safeToUpdate].badgeColor.slice(1)
  }
}
