// The rules that bound the model, read from what the detectors found, each from a sentence of the
// labelling rubric; not learned. A finding "softened" below sits in a sentence that is negated,
// hedged, about a later release or a bug fix.
// - called: notes that call a change breaking (a BREAKING marker, `feat!:`, "breaking change", or
//   a line under a breaking-changes heading) make the release breaking, unless the line's own
//   words are softened;
// - required: a line that states what the rubric names as breaking (a raised requirement, a
//   removed or renamed setting, interface or feature, a configuration now refused, a function or
//   structure that gained or lost an argument or member, a manual step, an upgrade path, an urgent
//   update, a line under a "Removed" heading) makes it breaking, unless softened, internal work, under a
//   bug-fixes heading, an addition, a new ability, or the removal of something unused, not
//   working or a control of the interface (a button, an icon);
// - action: a release is never safe while a line asks the admin to act (a detector whose reason
//   is a required step or an urgent fix, a line under a "Removed" or upgrade heading), unless
//   softened or the line adds something ("Add a command to remove options"): doubt falls to caution;
// - precaution: nor while a line asks for a backup before updating (however hedged), says the update
//   cannot be undone or that something stops working with it, or hedges a step or migration ("You may
//   need to chown your volumes"): caution, asked of some admins only;
// - security, changed: a release with a security fix (a line under a security heading, with a
//   security word or about access control, not internal work or tests, not negated) or a line
//   under a deprecations, "Changed" or configuration-changes heading, or one that says a default
//   changed ("Raised the default rate limit from 10 to 120"), that something is deprecated or will be
//   removed or required by a later release ("The v1 API will be removed in 3.0"), that
//   checking is stricter or behaviour new, or that moves to another base image or system ("Upgrade
//   the Docker image to Trixie", not a bump of its tag), is never safe: the rubric counts
//   security-relevant fixes, behaviour, default, platform and configuration changes and
//   deprecations as caution;
// - described: notes in which a line says what changed are never unknown; notes whose every line only
//   sends the reader elsewhere ("See the release notes on our website") always are.
// These replaced a learned safety gate: leave-one-app-out, `action` alone took the breaking
// releases called safe to zero at a far smaller cost in safe recall (see README).
import type { CueFlags } from './model.js'
import {
  CHORES,
  DETECTOR,
  DETECTORS,
  LINE_START,
  MODIFIERS,
  nearPattern,
  typeOpening,
  wordsPattern,
  type Hit
} from './detectors.js'
import type { UnitEvidence } from './features.js'
import { S, type HeadingKind } from './sections.js'
import { COMMIT_HASH } from './text.js'
import { WORD } from './words.js'

/** Modifiers that take the force out of a line: it does not say what this release requires. */
const SOFTENED = new Set(['negated', 'hedged', 'future', 'fixLine', 'optIn'])
const MARKERS = new Set(['breakingMarker', 'bangMarker'])
// The words that call a change breaking ("breaking" alone also breaks words and lines).
const CALLED_WORDS =
  /\bbreaking[- ]changes?\b|\bbackwards?[- ]incompatib|\bnot backwards?[- ]compatible\b|\bbreaks? (?:backwards? )?compatibility\b|\bincompatible changes?\b/i
/** Findings that raise what the software runs on: a runtime, database or platform. */
const RAISES: ReadonlySet<string> = new Set([
  'raisedRequirement',
  'requirementAfter',
  'requiredVersion',
  'minimumRaised'
])
/** Findings that remove support, a setting or an interface. */
const REMOVALS = [
  'removedSupport',
  'supportRemoved',
  'removedSetting',
  'settingRemoved',
  'removedInterface',
  'interfaceRemoved'
]
// What the rubric names as breaking, detector by detector: a raised runtime/database/OS requirement; removed or
// renamed configuration, API or feature; a manual step or upgrade path, or a backup asked for before updating (the
// labellers read it as a step); an urgent fix the notes say to apply now, or one that an earlier release needs. A
// release the notes say not to install (`notThisRelease`) asks for action, so is never safe, but states no change
// of its own: an update that goes past it to a later release never installs it, and must not be held back by it.
const REQUIRED: ReadonlySet<string> = new Set([
  ...RAISES,
  ...REMOVALS,
  'renamed',
  'signatureChanged',
  'refusedConfig',
  'manualStep',
  'upgradePath',
  'upgradeFirst',
  'urgent',
  'criticalFix',
  'earlierUnfit',
  'backupFirst'
])
/** Findings that say there is no news: a release withdrawn, a first release. */
const NO_NEWS = new Set(['withdrawn', 'firstRelease'])
/** Findings that do not say what changed: no news, or a version number. */
const SAYS_NOTHING = new Set([...NO_NEWS, 'versionNumber'])

/**
 * Distinct words (links and mentions left out) past which a line says what changed by itself, whatever a detector
 * finds in it: the rubric keeps `unknown` for notes with nothing usable (empty, only a link, "Release canceled.",
 * "First release"). Without this, a sentence no detector reads left the model free to call it unknown, and whether
 * it did turned on a word count bucket: a plain fix line of a dozen words ("Match the peer by both of its keys when it
 * connects") was safe, and unknown once GitHub's " by @someone in <link>" followed it.
 */
const PROSE_WORDS = 6
/** Other text a line may point to. */
const ELSEWHERE = 'changelog|commits|release notes|compare'
/** A line that points to other text (the changelog, the commits) says nothing by its length. */
const POINTS_ELSEWHERE = new RegExp(String.raw`\b(?:${ELSEWHERE}|list of (?:the )?changes|see (?:below|above))\b`, 'i')
/** A line that sends the reader elsewhere: "See <link> for …", "Please read the release notes on our website". */
const POINTER =
  /(?:^|:\s*)(?:for (?:more )?details,?\s+)?(?:please\s+)?(?:see|view|read|check(?:\s+out)?|refer\s+to|visit|consult)\b/i
const OTHER_TEXT = new RegExp(
  String.raw`\b(?:${ELSEWHERE}|changes|below|above|docs|documentation|website|blog)\b|https?:\/\/`,
  'i'
)
/** Links, @mentions and commits: a credit ("by @someone in <link>", "1a2b3c4") adds words but says nothing. */
const LINK_MENTION_OR_COMMIT = new RegExp(String.raw`\bhttps?:\/\/\S+|@[\w-]+|${COMMIT_HASH}`, 'g')

/** A line that says something in its own words: enough of them, and not a pointer or a release withdrawn. */
function prose(ue: UnitEvidence): boolean {
  const text = ue.unit.text
  if (text.length < PROSE_WORDS * 2 || POINTS_ELSEWHERE.test(text)) return false
  if (ue.hits.some((h) => NO_NEWS.has(h.detector.name))) return false
  // Distinct words, as countWords reads them: a run of one word ("a a a a a a") says nothing.
  const words = text.replace(LINK_MENTION_OR_COMMIT, ' ').toLowerCase().match(WORD)
  return words !== null && words.length >= PROSE_WORDS && new Set(words).size >= PROSE_WORDS
}

/** Whether a line's findings are all routine (a fix, an addition, docs, a version): none the rubric weighs. */
function routineOnly(ue: UnitEvidence): boolean {
  return ue.hits.every((h) => h.detector.why === 'routine')
}

/** Whether a line only sends the reader to other text: what it names there ("the docs", "the fixes") is routine. */
function pointer(ue: UnitEvidence): boolean {
  return POINTER.test(ue.unit.text) && OTHER_TEXT.test(ue.unit.text) && routineOnly(ue)
}

/** A line a rule found, and why: the detector's hit, or else the kind of heading it sits under. */
export interface Cue {
  ue: UnitEvidence
  hit: Hit | null
  heading: HeadingKind | null
  /** The finding is announced for a later release ("will be removed in 3.0"), not made by this one. */
  later?: true
}

export interface Cues {
  /** The first line that asks for action; null when none does. */
  action: Cue | null
  /** The first line the notes call breaking; null when none. */
  called: Cue | null
  /** The first line that states what the rubric counts as breaking (a raised requirement, a removal, a manual step). */
  required: Cue | null
  /** The first line that announces a security fix (or an access-control fix); null when none does. */
  security: Cue | null
  /**
   * The first line under a deprecations, "Changed" or configuration-changes heading, or that says a default
   * changed, that something is deprecated, that checking is stricter or behaviour new, or that moves to another base
   * image; null when none is.
   */
  changed: Cue | null
  /** Some line, not a pointer, says what changed (a detector other than a modifier finds something, or its words). */
  described: boolean
  /** Every line sends the reader to other text ("See the release notes on our website"): nothing here is usable. */
  pointsElsewhere: boolean
}

function softened(hits: readonly Hit[]): boolean {
  return hits.some((h) => SOFTENED.has(h.detector.name))
}

const SOFTENERS = DETECTORS.filter((d) => SOFTENED.has(d.name))
/** The softeners but a hedge: "you may need to chown your volumes" still asks the admin to read first. */
const FIRM_SOFTENERS = SOFTENERS.filter((d) => d.name !== 'hedged')
/** The softeners that say a line changes nothing now: not a hedge, nor its being for a later release. */
const NOW_SOFTENERS = FIRM_SOFTENERS.filter((d) => d.name !== 'future')
// A sentence ends at . ! ? or ; before a space: not the dot inside `3.8` or `node.js`. So does a colon
// before a capital: the command or list it introduced is gone from the text ("… and run: This will …").
// A dash between spaces parts two clauses as well ("Fix an injection - remove support for X").
const SENTENCE_END = /[.!?;]\s+|:\s+(?=[A-Z])|\s[-–—]\s+/g

/** The sentence of `text` that holds index `at`. */
export function sentenceAt(text: string, at: number): string {
  let start = 0
  for (const m of text.matchAll(SENTENCE_END)) {
    // A colon after a label of three words or fewer ("BUGFIX: Remove …", "Fix #12: Drop …") ends no sentence.
    if (m[0][0] === ':' && text.slice(start, m.index).trim().split(/\s+/).length < 4) continue
    if (m.index >= at) return text.slice(start, m.index + 1)
    start = m.index + m[0].length
  }
  return text.slice(start)
}

// A rename whose line goes on to keep the old name ("X was renamed to Y. The old name still works as an alias."):
// the sentence after softens it as "alias" in its own sentence would.
const OLD_NAME_KEPT =
  /\b(?:old|original|previous|former) names?\b[^.;!?]{0,60}\b(?:still|remains?|kept|keeps|continues?)\b|\b(?:kept|remains?|still (?:supported|accepted|works?)) as an? (?:deprecated )?alias(?:es)?\b/i

/**
 * Is this hit softened: is a softening word in its own sentence? A paragraph of several sentences
 * ("… potentially unsafe. To secure your instance, set X") softens only the sentence it hedges.
 */
function softenedAt(ue: UnitEvidence, hit: Hit, softeners = SOFTENERS): boolean {
  if (hit.detector.name === 'renamed' && OLD_NAME_KEPT.test(ue.unit.text)) return true
  if (!softened(ue.hits)) return false
  const s = sentenceAt(ue.unit.text, hit.at)
  const lower = s.toLowerCase()
  return softeners.some((d) => d.re.test(d.lower ? lower : s))
}

/** A line that opens with one of `verbs` (a pattern), after an optional `[tag]` and a `scope` label ending in `sep`. */
function opensWith(verbs: string, sep: string): RegExp {
  return new RegExp(String.raw`${LINE_START}(?:\[[^\]]{0,40}\]\s*)?(?:[#\w./-]{1,40}\s*${sep}\s*)?(?:${verbs})\b`, 'i')
}

// A line that adds something ("Add an option to remove headers"), is internal work ("CLEANUP:",
// "docs:"), sits under a bug-fixes, documentation, tests or dependencies heading (it describes a
// bug or the project's own work), removes what nobody used or what did not work ("Remove unused
// fields") or a control of the interface (a button, an icon) states no breaking change.
const ADDS = opensWith('add(?:s|ed)?|allow(?:s|ed)?|implement(?:s|ed)?', '[:-]')
// A Conventional Commits feature or fix ("feat(urlcleaner): remove …") states no breaking change either:
// that convention marks a breaking one with "!" ("feat(config)!: remove …", a breaking marker), so
// without it the author declares the change not breaking.
const CONVENTIONAL = new RegExp(String.raw`${LINE_START}(?:feat|fix)(?:\([^)]{0,60}\))?:`, 'i')
const UNUSED = wordsPattern(
  [
    'unused',
    'unnecessary',
    'unnecessarily',
    'unneeded',
    'duplicate',
    'duplicates',
    'duplicated',
    'redundant',
    'leftover',
    'dead code',
    'no longer needed',
    'no longer required',
    "wasn't working",
    'was not working',
    "didn't work",
    'did not work',
    'never worked'
  ],
  'i'
)
// "X, no longer used" is a leftover; "X are no longer used to attribute visits" changes what X does.
const NO_LONGER_USED = /\bno\s+longer\s+used\b(?!\s+to\b)/i
// "X no longer requires Y" relaxes a requirement; "no longer hangs", "no longer fails" describes a fixed bug.
const NO_LONGER_NEEDS =
  /\bno\s+longer\s+(?:requires?|needs?|hangs?|crash(?:es)?|fails?|freezes?|panics?|stalls?|leaks?)\b/i
// A user story ("As an administrator I can …", "As a user, I should …"): a feature or a fix, not a removal.
const STORY = /\bas an? [\w -]{1,40},? I (?:can|should)\b/i

/** A line that adds something: it opens with "Add", "Allow", "Implement", or is a user story. */
function adds(text: string): boolean {
  return ADDS.test(text) || STORY.test(text)
}
// "Users can now remove X", "the ability to delete Y": a new ability, not a removal.
const ABILITY = nearPattern(
  ['able to', 'can now', 'ability to', 'option to', 'allow*', 'possible to', 'lets you', 'let users'],
  ['remov*', 'delet*', 'drop*', 'renam*', 'disabl*', 'clear*'],
  20,
  'i'
)
// Removing a control of the interface ("the floating Create button", "the icon's alt attribute")
// removes no setting, interface or feature an admin relies on.
const REMOVES_UI = nearPattern(
  ['remov*', 'drop*', 'delet*'],
  [
    'button',
    'buttons',
    'icon',
    'icons',
    'tooltip*',
    'alt attribute',
    'banner',
    'animation*',
    'placeholder*',
    'scrollbar*',
    'spinner*'
  ],
  40,
  'i'
)

// An entry that says there is none ("Nothing", "None.", "N/A" under a "Removed" heading): no line at all.
const NO_ENTRY = /^\W*(?:nothing|none|n\/a|no changes?|nothing (?:yet|to report))\W*$/i

/** An entry that says there is none: no line to quote. */
export function saysNone(ue: UnitEvidence): boolean {
  return NO_ENTRY.test(ue.unit.text)
}

/** Under a bug-fixes, documentation, tests or dependencies heading that announces nothing stronger. */
function routineHeading(kinds: number): boolean {
  return (kinds & (S.housekeeping | S.fixes)) !== 0 && (kinds & (S.breaking | S.removed | S.upgrade)) === 0
}

function harmless(ue: UnitEvidence): boolean {
  return (
    ue.hits.some((h) => h.detector.name === 'choreLine') ||
    routineHeading(ue.unit.section?.kinds ?? 0) ||
    adds(ue.unit.text) ||
    CONVENTIONAL.test(ue.unit.text) ||
    UNUSED.test(ue.unit.text) ||
    NO_LONGER_USED.test(ue.unit.text) ||
    NO_LONGER_NEEDS.test(ue.unit.text) ||
    REMOVES_UI.test(ue.unit.text) ||
    ABILITY.test(ue.unit.text)
  )
}

/** The standing of a line whose own words state a breaking change: the highest. */
const STATES = 3

/**
 * How plainly a rule's line states a breaking change, for choosing the line a rationale quotes: 3 when
 * its own words state one (a finding of REQUIRED or a breaking marker, not softened), 2 for any other
 * line, 1 for a harmless or softened one (an addition, a removal of something unused, a hedge), 0 for internal work.
 */
function quoteStanding(cue: Cue): number {
  const ue = cue.ue
  if (internal(ue)) return 0
  if (harmless(ue) || softened(ue.hits)) return 1
  const states = ue.hits.some(
    (h) => (REQUIRED.has(h.detector.name) || MARKERS.has(h.detector.name)) && !softenedAt(ue, h)
  )
  return states ? STATES : 2
}

const INTERNAL_WORK = new Set(['choreLine', 'testWord'])

/** Internal work, tests or docs, by its words or its heading. */
function internalWork(ue: UnitEvidence): boolean {
  return (
    ((ue.unit.section?.kinds ?? 0) & S.housekeeping) !== 0 || ue.hits.some((h) => INTERNAL_WORK.has(h.detector.name))
  )
}

/** Internal work, tests or docs (by its words or its heading), or negated: nothing an admin need read first. */
export function internal(ue: UnitEvidence): boolean {
  return internalWork(ue) || ue.hits.some((h) => h.detector.name === 'negated')
}

// Permissions of files, not of users: "Fix log folder permissions", "failed with a permission error".
const FILE_PERMISSION = new RegExp(
  `${nearPattern(['file*', 'folder*', 'director*', 'dir', 'socket*', 'read-only'], ['permission*'], 20).source}|` +
    wordsPattern(['permission error*', 'permission denied', 'permissions error*']).source,
  'i'
)

// A line that announces new support ("OAuth: Support standard authentication with …"): a feature, like ADDS.
const SUPPORTS = opensWith('supports?', ':')

/**
 * A fix of who may access what: not an addition ("Support for authenticated media has been added"
 * is a feature), not under a features heading, not about the permissions of files.
 */
function accessFix(ue: UnitEvidence): boolean {
  const kinds = ue.unit.section?.kinds ?? 0
  return (
    (kinds & S.features) === 0 &&
    !adds(ue.unit.text) &&
    !SUPPORTS.test(ue.unit.text) &&
    !FILE_PERMISSION.test(ue.unit.text)
  )
}

// An advisory named by its identifier ("CVE-2024-12345", "GHSA-abcd-efgh-ijkl") is the most precise sign of a security
// fix the notes give, so the floor reads it (floorKindsOf): the rules' broader security words fire on releases
// labelled safe too often to hold a model's answer. Not one the line says left the software untouched.
const ADVISORY_ID = /\b(?:CVE-\d{4}-\d{4,}|GHSA(?:-[0-9a-z]{4}){3})\b/i
const NOT_EXPOSED =
  /\b(?:(?:is|was|are|were) not|isn't|wasn't|aren't|weren't|never been) (?:affected|impacted|vulnerable|exploitable)\b|\b(?:does|did) not affect\b|\b(?:doesn't|didn't) affect\b|\bunaffected\b/i

/** Whether a line names a security advisory the release addresses: by its identifier, not internal work or negated. */
function namesAdvisory(ue: UnitEvidence): boolean {
  return ADVISORY_ID.test(ue.unit.text) && !internal(ue) && !NOT_EXPOSED.test(ue.unit.text)
}

/** The line's security fix, if it announces one: in its words or by its heading, not internal work or negated. */
function securityCue(ue: UnitEvidence): Cue | null {
  if (internal(ue)) return null
  const kinds = ue.unit.section?.kinds ?? 0
  const hit =
    ue.hits.find((h) => h.detector.name === 'securityWord' || (h.detector.name === 'accessControl' && accessFix(ue))) ??
    null
  return hit || kinds & S.security ? { ue, hit, heading: hit ? null : 'security' } : null
}

const CHANGED_HEADINGS: readonly HeadingKind[] = ['deprecated', 'changed', 'config']
// The same announced by the line itself: "Changed: …", "[Change] …", "Deprecated: …".
const CHANGED_PREFIX = new RegExp(String.raw`${LINE_START}\[?(changed?|deprecated?|deprecation)\]?\s*[:\]]`, 'i')

// A default that changed ("Raised the default page size from 20 to 50", "X now defaults to false",
// "The default of Y changed to 1"): the rubric counts changed defaults as caution.
const CHANGED_DEFAULT = new RegExp(
  [
    nearPattern(
      [
        'change',
        'changed',
        'changes',
        'raise',
        'raised',
        'lower',
        'lowered',
        'increase*',
        'decrease*',
        'reduce*',
        'switch*',
        'update',
        'updated',
        'updates'
      ],
      ['default', 'defaults'],
      30
    ).source,
    nearPattern(
      ['default', 'defaults'],
      ['changed', 'raised', 'lowered', 'increased', 'decreased', 'reduced', 'switched'],
      40
    ).source,
    wordsPattern(['now defaults', 'now default to', 'default is now', 'defaults are now', 'default value is now'])
      .source
  ].join('|'),
  'i'
)

// Something deprecated ("X is deprecated", "Deprecate the v1 API", "Add a deprecation warning to ./configure"), not
// code that used something deprecated ("using deprecated API"); a fixed deprecation warning is softened as a fix.
const DEPRECATION_WARNING = /\bdeprecation (?:warning|notice)s?\b/i
const DEPRECATES = new RegExp(
  String.raw`\b(?:is|are|was|were|been|now|be)\s+deprecated\b|\bdeprecat(?:e|es|ing)\b|${DEPRECATION_WARNING.source}`,
  'i'
)
// Deprecation warnings the release fixes, removes or silences ("Fixed Qt 6 deprecation warnings", "Resolve PHP 8.1
// deprecation warnings" under "Fixed"): the project's own warnings gone, nothing an admin uses deprecated.
const WARNINGS_ONLY = /^(?:(?!\bdeprecat(?:e|es|ed|ing)\b(?! (?:warning|notice)s?\b)).)*$/i
const QUIETS =
  /\b(?:fix(?:es|ed)?|remov(?:e|es|ed)|resolv(?:e|es|ed)|silenc(?:e|es|ed)|suppress(?:es|ed)?|deduplicat(?:e|es|ed)|avoid(?:s|ed)?)\b/i

/** The line's only deprecation is of warnings it fixes or removes, in its words or by its heading. */
function quietsWarnings(ue: UnitEvidence): boolean {
  const text = ue.unit.text
  if (!DEPRECATION_WARNING.test(text) || !WARNINGS_ONLY.test(text)) return false
  return QUIETS.test(text) || (!adds(text) && routineHeading(ue.unit.section?.kinds ?? 0))
}
const NEW_BEHAVIOUR =
  /\b(?:stricter|more strict(?:ly)?|new behaviou?r|format (?:has |have )?changed|(?:configuration|config|settings?) (?:file )?format)\b/i
const PRECAUTIONS: ReadonlySet<string> = new Set(['backupFirst', 'afterUpgrade', 'oneWay', 'incompatible'])
/** Precautions said of what comes ("will stop working"): being for later does not soften them either. */
const SAID_OF_LATER: ReadonlySet<string> = new Set(['incompatible'])
/** What the rubric calls breaking now, and a deprecation when announced for later. */
const ANNOUNCEABLE: ReadonlySet<string> = new Set([...RAISES, ...REMOVALS])
/** Steps a hedge leaves standing as caution ("may require a migration"); unhedged, a step is the action rule's. */
const HEDGEABLE_STEPS: ReadonlySet<string> = new Set(['manualStep', 'manualAfter', 'migration', 'guide'])
// Not "No changes." after a line about the image: that says nothing moved.
const MOVES = new RegExp(
  `(?<!\\bno )(?:${wordsPattern(['upgrad*', 'updat*', 'switch*', 'move*', 'moving', 'migrat*', 'rebase*', 'chang*']).source})`,
  'i'
)
const ROUTINE_BUMP = new Set(['depsWord', 'versionBump', 'choreLine'])
/** Translations, docs or a dependency bump (internal work is out before this is asked). */
const ROUTINE_WORK = new Set([...ROUTINE_BUMP, 'docsWord'])
/** What softens a deprecation: not a removal it announces for later ("deprecated; Demo 3 will drop it"). */
const SOFTENS_NOW = new Set([...SOFTENED].filter((m) => m !== 'future'))

/** A line that is translations, docs or dependencies in its own words, and nothing beyond the routine. */
function routineWork(ue: UnitEvidence): boolean {
  return ue.hits.some((h) => ROUTINE_WORK.has(h.detector.name)) && routineOnly(ue)
}

/** The line's `detector` finding when the line's text also says `words`; undefined when either is missing. */
function findingWhere(ue: UnitEvidence, detector: string, words: RegExp): Hit | undefined {
  // The finding first: looking through a line's few hits is cheaper than running the words over its text.
  const hit = ue.hits.find((h) => h.detector.name === detector)
  return hit && words.test(ue.unit.text) ? hit : undefined
}

/**
 * The line's heading, prefix or own words, if they announce a deprecation, a change of behaviour, of a
 * default, of configuration or of the base image.
 */
function changedCue(ue: UnitEvidence): Cue | null {
  if (internal(ue)) return precautionCue(ue)
  const kinds = ue.unit.section?.kinds ?? 0
  const heading = CHANGED_HEADINGS.find((h) => kinds & S[h])
  // Keep a Changelog's "Changed" holds any change, translations and dependency bumps too: those the rubric calls safe.
  // An entry that says there is none ("Nothing" under "Changed") announces no change.
  if (heading && !(heading === 'changed' && routineWork(ue)) && !saysNone(ue)) return { ue, hit: null, heading }
  const m = CHANGED_PREFIX.exec(ue.unit.text)
  if (m) return { ue, hit: null, heading: /^depr/i.test(m[1]!) ? 'deprecated' : 'changed' }
  // A changed default, in the line's own words: not an addition ("Add an option to change the default"), not softened.
  const byDefault = findingWhere(ue, 'defaultChange', CHANGED_DEFAULT)
  if (byDefault && !adds(ue.unit.text) && !softened(ue.hits)) return { ue, hit: byDefault, heading: null }
  // Stricter checking ("Use stricter parsing for Peer Address inputs", "validated more strictly") may refuse what was
  // accepted, and a line that warns of "the new behavior" or a changed (configuration) format names one: a change of
  // behaviour, whatever the heading.
  const behaviour = findingWhere(ue, 'behaviourChange', NEW_BEHAVIOUR)
  if (behaviour) return { ue, hit: behaviour, heading: null }
  // A deprecation the line announces, whatever the heading: the rubric counts one as caution.
  const deprecation = findingWhere(ue, 'deprecation', DEPRECATES)
  if (deprecation && !ue.hits.some((h) => SOFTENS_NOW.has(h.detector.name)) && !quietsWarnings(ue))
    return { ue, hit: deprecation, heading: null }
  // A removal or raised requirement announced for a later release ("The v1 API will be removed in 3.0") deprecates
  // it now: the rubric's caution, whatever the heading. Not one negated, a fix, optional or harmless.
  const announced = ue.hits.find(
    (h) => ANNOUNCEABLE.has(h.detector.name) && softenedAt(ue, h) && !softenedAt(ue, h, NOW_SOFTENERS)
  )
  if (announced && !adds(ue.unit.text) && !harmless(ue)) return { ue, hit: announced, heading: null, later: true }
  // A move to another base image or system ("Upgrade underlying Docker image to Trixie"), not a bump of its tag.
  const image = findingWhere(ue, 'platformImage', MOVES)
  if (image && !ue.hits.some((h) => ROUTINE_BUMP.has(h.detector.name)) && !softened(ue.hits))
    return { ue, hit: image, heading: null }
  return precautionCue(ue)
}

/**
 * A precaution before updating (a backup, hedged or not: unhedged it is a required step too), an update that cannot
 * be undone, or a step the line hedges ("You may need to chown your volumes"): asked of some admins only, so no
 * breaking change, but never safe to install unread. A hedge does not soften these; a negation, a fix or something
 * optional in the same sentence does ("Migrations run automatically. Back up your database first." still asks for
 * the backup).
 */
function precautionCue(ue: UnitEvidence): Cue | null {
  // Negation is asked sentence by sentence below, not of the whole line as `internal` asks it.
  if (internalWork(ue) || adds(ue.unit.text)) return null
  for (const hit of ue.hits) {
    const name = hit.detector.name
    if (!PRECAUTIONS.has(name) && !HEDGEABLE_STEPS.has(name)) continue
    if (softenedAt(ue, hit, SAID_OF_LATER.has(name) ? NOW_SOFTENERS : FIRM_SOFTENERS)) continue
    if (PRECAUTIONS.has(name) || softenedAt(ue, hit)) return { ue, hit, heading: null }
  }
  return null
}

// A Conventional Commits type of the project's own work ("ci:", "docs(api):", "chore/"): the chore types but
// "build:", which changes how the software is built and so may ask something of those who build it, and those that
// may touch what runs ("deps:", "perf:", "cleanup:", "minor:").
const MAY_CHANGE_WHAT_RUNS: ReadonlySet<string> = new Set(['build', 'deps', 'perf', 'cleanup', 'minor'])
const OWN_WORK = typeOpening(CHORES.filter((t) => !MAY_CHANGE_WHAT_RUNS.has(t)))

/**
 * The first cue by which a line asks the admin to act: its heading, else a finding that asks for a step or urgency.
 * With `all`, every such cue of the line is pushed onto it too.
 */
function actionCue(ue: UnitEvidence, kinds: number, all?: Cue[]): Cue | null {
  // Under a "Removed" or upgrade-steps heading, the line itself is what the admin must act on; a heading's force is
  // the line's, so a softened line is not what the admin must act on, nor an entry that says there is none.
  if (kinds & (S.removed | S.upgrade) && !softened(ue.hits)) {
    if (saysNone(ue)) return null
    const cue: Cue = { ue, hit: null, heading: kinds & S.removed ? 'removed' : 'upgrade' }
    all?.push(cue)
    return cue
  }
  let first: Cue | null = null
  for (const hit of ue.hits) {
    if ((hit.detector.why !== 'required' && hit.detector.why !== 'urgent') || softenedAt(ue, hit)) continue
    // A line that adds something asks nothing of the admin, whatever its words go on to say; nor does one under a
    // docs, tests, chores or dependencies heading (the project's own work, as for the required rule), unless it
    // raises what the software runs on; nor one a prefix ("ci:", "docs:") marks as such work.
    if (first === null) {
      const ownWork = kinds & S.housekeeping || OWN_WORK.test(ue.unit.text)
      if ((ownWork && !RAISES.has(hit.detector.name)) || adds(ue.unit.text)) return null
      first = { ue, hit, heading: null }
      if (!all) return first
      all.push(first)
    } else all?.push({ ue, hit, heading: null })
  }
  return first
}

/** The first cue by which a line states a breaking change: a finding of REQUIRED, else a "Removed" heading (`all`: as above). */
function requiredCue(ue: UnitEvidence, kinds: number, all?: Cue[]): Cue | null {
  let first: Cue | null = null
  for (const hit of ue.hits) {
    if (!REQUIRED.has(hit.detector.name) || softenedAt(ue, hit)) continue
    if (first === null) {
      // Whether the line is harmless is asked only of a line that would count: most lines do not.
      if (harmless(ue)) return null
      first = { ue, hit, heading: null }
      if (!all) return first
      all.push(first)
    } else all?.push({ ue, hit, heading: null })
  }
  if (first || !(kinds & S.removed) || softened(ue.hits) || saysNone(ue) || harmless(ue)) return first
  const cue: Cue = { ue, hit: null, heading: 'removed' }
  all?.push(cue)
  return cue
}

/** The first cue by which the notes call a line breaking: its heading, else a marker or breaking word (`all`: as above). */
function calledCue(ue: UnitEvidence, kinds: number, all?: Cue[]): Cue | null {
  let first: Cue | null = null
  // A line under a breaking-changes heading is called breaking by the notes, whatever its own wording ("X will no
  // longer be included"), unless it says there is none; its own words count only when not softened.
  if (kinds & S.breaking && !saysNone(ue)) {
    first = { ue, hit: null, heading: 'breaking' }
    if (!all) return first
    all.push(first)
  }
  for (const hit of ue.hits) {
    if (
      !(MARKERS.has(hit.detector.name) || (hit.detector.name === 'breakingWord' && CALLED_WORDS.test(ue.unit.text))) ||
      softenedAt(ue, hit)
    )
      continue
    const cue: Cue = { ue, hit, heading: null }
    first ??= cue
    if (!all) return first
    all.push(cue)
  }
  return first
}

/**
 * Every kind floorKindsOf can give: the detectors the three rules read, the headings that decide a line, and
 * `advisory`. A kind none of the training apps' releases showed is judged by its group alone (floor.ts).
 */
export const FLOOR_KIND_NAMES: readonly string[] = [
  ...new Set([
    ...MARKERS,
    'breakingWord',
    ...REQUIRED,
    ...DETECTORS.filter((d) => d.why === 'required' || d.why === 'urgent').map((d) => d.name),
    'heading:breaking',
    'heading:removed',
    'heading:upgrade',
    'advisory'
  ])
].sort()

/**
 * The group of a floor kind: `fix` for the evidence of a fix to apply (a security advisory, or words that say to
 * update now: the detectors whose `why` is urgent), the grouping by which the judge calls a breaking release an urgent
 * fix rather than a required step; `change` for all else, a change that asks the admin to act.
 */
export function floorGroupOf(kind: string): 'fix' | 'change' {
  if (kind === 'advisory') return 'fix'
  return DETECTOR[kind]?.why === 'urgent' ? 'fix' : 'change'
}

/** A cue's kind, for the floor: the detector that found it, or `heading:<kind>`. */
export function kindOf(cue: Cue): string {
  return cue.hit ? cue.hit.detector.name : `heading:${cue.heading ?? 'none'}`
}

/**
 * Every kind of evidence by which some line of the notes calls a change breaking, states one or asks the admin to
 * act (the three rules above), or names a security advisory (`advisory`), sorted: what the floor under a model's
 * answer may read (see ./floor.ts).
 */
export function floorKindsOf(units: readonly UnitEvidence[]): string[] {
  const kinds = new Set<string>()
  for (const ue of units) {
    const k = ue.unit.section?.kinds ?? 0
    const cues: Cue[] = []
    calledCue(ue, k, cues)
    actionCue(ue, k, cues)
    requiredCue(ue, k, cues)
    for (const cue of cues) kinds.add(kindOf(cue))
    if (namesAdvisory(ue)) kinds.add('advisory')
  }
  return [...kinds].sort()
}

/** What the decision rule needs of the cues. */
export function cueFlags(c: Cues): CueFlags {
  return {
    action: c.action !== null,
    called: c.called !== null,
    described: c.described,
    pointsElsewhere: c.pointsElsewhere,
    required: c.required !== null,
    caution: c.security !== null || c.changed !== null
  }
}

/**
 * The cue a rule keeps: the first offered, or when `ranked` the first of those that stand highest by
 * quoteStanding. Once one stands as high as any can, nothing later can replace it.
 */
function keeper(ranked: boolean) {
  let held: Cue | null = null
  let standing = -1
  return {
    get: (): Cue | null => held,
    /** Whether offering more can change what is held. */
    open: (): boolean => held === null || (ranked && standing < STATES),
    offer(cue: Cue): void {
      if (held !== null && !ranked) return
      const r = ranked ? quoteStanding(cue) : 0
      if (held === null || r > standing) [held, standing] = [cue, r]
    }
  }
}

/**
 * The cues of a release's lines. When `ranked`, the action, called and required cues are the lines
 * that stand highest (quoteStanding) among those each rule finds, the first of equals, not merely the
 * first: whether a rule holds does not depend on it, only which line the rationale quotes.
 */
export function cuesOf(units: readonly UnitEvidence[], ranked = false): Cues {
  const action = keeper(ranked)
  const called = keeper(ranked)
  const required = keeper(ranked)
  let described = false
  let pointsElsewhere = units.length > 0
  let security: Cues['security'] = null
  let changed: Cues['changed'] = null
  for (const ue of units) {
    // Once a line says what changed, pointers no longer matter to either rule.
    const points: boolean = !described && pointer(ue)
    if (!described)
      described =
        !points &&
        (ue.hits.some((h) => !MODIFIERS.has(h.detector.name) && !SAYS_NOTHING.has(h.detector.name)) || prose(ue))
    if (pointsElsewhere) pointsElsewhere = points
    const kinds = ue.unit.section?.kinds ?? 0
    if (action.open()) {
      const cue = actionCue(ue, kinds)
      if (cue) action.offer(cue)
    }
    if (required.open()) {
      const cue = requiredCue(ue, kinds)
      if (cue) required.offer(cue)
    }
    if (called.open()) {
      const cue = calledCue(ue, kinds)
      if (cue) called.offer(cue)
    }
    if (security === null) security = securityCue(ue)
    if (changed === null) changed = changedCue(ue)
    if (!action.open() && !called.open() && !required.open() && security && changed && described) break
  }
  return {
    action: action.get(),
    called: called.get(),
    described,
    pointsElsewhere,
    required: required.get(),
    security,
    changed
  }
}
