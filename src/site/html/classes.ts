// How each classification is presented. Colour is never the only signal: every
// class also has a word and an icon (the icon lives in the stylesheet).
import type { Classification } from '../../schema/index.js'

export interface ClassInfo {
  /** Short label shown on chips, badges and filters. */
  label: string
  /** One sentence for readers: what to do. */
  advice: string
  /** Badge and shields colour (white text sits on it). */
  badgeColor: string
}

export const CLASS_INFO: Record<Classification, ClassInfo> = {
  safe: {
    label: 'Safe',
    advice: 'The release notes show no breaking change, migration or manual upgrade step.',
    badgeColor: '#1a7f37'
  },
  caution: {
    label: 'Caution',
    advice: 'No hard break, but behaviour, security or configuration changes: read the notes before updating.',
    badgeColor: '#9a6700'
  },
  breaking: {
    label: 'Breaking',
    advice: 'A manual step or hard prerequisite is required: plan the update.',
    badgeColor: '#cf222e'
  },
  unknown: {
    label: 'Unknown',
    advice: 'Not enough information to classify this release yet.',
    badgeColor: '#59636e'
  },
  unmaintained: {
    label: 'Unmaintained',
    advice: 'The project is archived and gets no further fixes: plan a move.',
    badgeColor: '#8250df'
  }
}
