// The detectors: general facts about how release notes announce work for an admin.
// Each detector is defined here and only here: its name, what it means in plain words (the
// rationale quotes this), the reason it can make an update breaking ('required' for a step
// the admin must take, 'urgent' for a fix to apply now), and its pattern, built from a word list.
// A detector only finds; the trained model (./model.json) decides how much each finding weighs,
// alone and in context (the heading a line sits under, negation, hedging, tense, build context).
// No detector names an app, a version or an entry.
import { groupScanner, GROUPS_PER_WORD } from './keywords.js'

/** Why a detector's finding can make an update breaking. */
export type Why = 'required' | 'urgent' | 'security' | 'note' | 'routine'

export interface Detector {
  name: string
  /** Plain words for the rationale: "<line> <means>". */
  means: string
  why: Why
  re: RegExp
  /** Lower-case ASCII strings one of which any match contains; [] when no guard is possible. */
  keys: string[]
  /** A second such list that any match also needs one of ([] for none): the other side of a `near` pattern. */
  also: string[]
  /** The pattern reads lower-cased text (word lists); false for patterns that need the case. */
  lower: boolean
}

/**
 * A word list entry: a word or phrase matched at word boundaries, case-insensitively (it is
 * matched in lower-cased text).
 * `*` stands for the rest of a word (`remov*`), `#` for a version number (`python #`),
 * a space for any run of spaces; every other character is literal.
 */
function entry(w: string): string {
  let out = ''
  for (const ch of w) {
    if (ch === '*') out += '[\\w-]*'
    // Not an issue number (`#5576`) nor the tail of a name (`UTF-8`, `sha256`).
    else if (ch === '#') out += '(?<![#\\w-])v?\\d+(?:\\.(?:\\d+|x))*'
    else if (ch === ' ') out += '\\s+'
    else out += ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
  }
  const start = /^\w/.test(w) ? '\\b' : ''
  const end = /[\w#]$/.test(w) ? '\\b' : ''
  return `${start}${out}${end}`
}

/** The pattern of a trailing ` #` (a space and a version number). */
const VERSION_TAIL = entry(' #')

function alt(ws: readonly string[]): string {
  // Names followed by a version ("python #"): the version pattern once, after the names.
  if (ws.length > 1 && ws.every((w) => w.endsWith(' #'))) return `${alt(ws.map((w) => w.slice(0, -2)))}${VERSION_TAIL}`
  const es = ws.map((w) => entry(w.toLowerCase()))
  // One word boundary before the group (when every entry has one) lets the engine skip ahead faster.
  if (es.every((e) => e.startsWith('\\b'))) return `\\b(?:${es.map((e) => e.slice(2)).join('|')})`
  return `(?:${es.join('|')})`
}

/**
 * The longest literal text every match of the entry contains, lower-cased, if it is a usable
 * ASCII guard: the entry up to its first wildcard, or a word of it without wildcards, or the part
 * of one before its wildcard.
 */
function keyOf(w: string): string | null {
  const lower = w.toLowerCase()
  // A phrase up to its first wildcard ("db upgrade", "migration script*"): far rarer than its longest word. Its
  // spaces are single ones because units' texts are squashed (see detect).
  let k = /^[^*#]*/.exec(lower)![0].trimEnd()
  for (const word of lower.split(' ')) {
    const lit = /^[^*#]*/.exec(word)![0]
    if (lit.length > k.length) k = lit
  }
  return k.length >= 2 && /^[\x20-\x7e]+$/.test(k) ? k : null
}

function keysOf(ws: readonly string[]): string[] {
  const keys: string[] = []
  for (const w of ws) {
    const k = keyOf(w)
    if (k === null) return []
    if (!keys.includes(k)) keys.push(k)
  }
  return keys
}

interface Spec {
  means: string
  why: Why
  /** Any of these words. */
  words?: readonly string[]
  /**
   * Or (with `words` too: or else): a word of the first list, then within `gap` characters of the same
   * sentence a word of the second.
   */
  near?: readonly [readonly string[], readonly string[], number?]
  /** With `near`: the second list's word may also come first ("update immediately", "urged to update"). */
  eitherOrder?: boolean
  /** Or a pattern for what word lists cannot say (case-sensitive identifiers); then `keys` guard it, if any. */
  pattern?: RegExp
  keys?: string[]
  /** With `words`: not the tail of a hyphenated word ("non-breaking spaces", "To-Dos"). */
  notAfterHyphen?: boolean
}

/** Any entry of a word list, in lower-cased text (or with the `i` flag). */
export function wordsPattern(ws: readonly string[], flags = ''): RegExp {
  return new RegExp(alt(ws), flags)
}

/** A word of the first list, then within `gap` characters of the same sentence a word of the second. */
export function nearPattern(a: readonly string[], b: readonly string[], gap = 60, flags = ''): RegExp {
  // Within one sentence: a full stop ends it, but not the dot inside a version or a name (`3.8`, `node.js`).
  return new RegExp(`${alt(a)}(?:[^.;!?\\n]|\\.(?=\\w)){0,${gap}}${alt(b)}`, flags)
}

function build(name: string, s: Spec): Detector {
  if (s.pattern) return { name, means: s.means, why: s.why, re: s.pattern, keys: s.keys ?? [], also: [], lower: false }
  if (s.near) {
    const [a, b, gap = 60] = s.near
    const near = s.eitherOrder ? [nearPattern(a, b, gap), nearPattern(b, a, gap)] : [nearPattern(a, b, gap)]
    const parts = s.words ? [wordsPattern(s.words), ...near] : near
    // Either list guards; the shorter key list is the cheaper and the rarer.
    const ka = keysOf(a)
    const kb = keysOf(b)
    const [shorter, longer] = ka.length <= kb.length ? [ka, kb] : [kb, ka]
    const nearKeys = shorter.length === 0 ? longer : shorter
    // With words as well, a line needs a key of either alternative; none guards when one cannot be guarded.
    const wordKeys = s.words ? keysOf(s.words) : null
    const keys =
      wordKeys === null ? nearKeys : wordKeys.length === 0 || nearKeys.length === 0 ? [] : [...wordKeys, ...nearKeys]
    // A `near` match alone holds a word of each list: a line needs a key of both, when both can be guarded.
    const also = wordKeys === null && shorter.length > 0 ? longer : []
    const re = parts.length === 1 ? parts[0]! : new RegExp(parts.map((r) => r.source).join('|'))
    return { name, means: s.means, why: s.why, re, keys, also, lower: true }
  }
  const ws = s.words ?? []
  const re = wordsPattern(ws)
  return {
    name,
    means: s.means,
    why: s.why,
    re: s.notAfterHyphen ? new RegExp(`(?<!-)${re.source}`) : re,
    keys: keysOf(ws),
    also: [],
    lower: true
  }
}

/**
 * The start of a line, and what may open it before its first word: an issue reference, author or commit
 * (`#1234:`, `GH-12 `, `@user:`, `1a2b3c4 `) or a tag (`[core]`), up to three of them in any order (a tool's
 * reference before the project's own). The words after them open the line as much as without them.
 */
export const LINE_START = String.raw`^\s*(?:(?:#|[Gg][Hh]-)\d{1,7}:?\s+|@[\w-]{1,39}:\s*|(?=[0-9a-f]*\d)[0-9a-f]{7,40}:?\s+|\[[^\]]{0,30}\]\s*){0,3}`

/**
 * A line that opens (case-insensitive), after LINE_START and an optional scope (`[web]`, `api:`), with one of
 * `words`; or, after LINE_START only, with `bare` (a pattern).
 */
function lineOpening(words: readonly string[], bare = ''): RegExp {
  const scoped = String.raw`${LINE_START}(?:\[[^\]]{0,30}\]\s*)?(?:[\w/-]{1,30}:\s*)?${alt(words)}`
  return new RegExp(bare ? `${scoped}|${LINE_START}(?:${bare})` : scoped, 'i')
}

/** A line that opens with a Conventional Commits type of `types`, its scope optional: "docs:", "chore(deps):", "test/". */
export function typeOpening(types: readonly string[]): RegExp {
  return new RegExp(String.raw`${LINE_START}(?:\[[^\]]{0,40}\]\s*)?${alt(types)}(?:\([^)]{0,60}\))?[:/]`, 'i')
}

/** The words that open a line which removes, disables or refuses something (`removalLine`). */
const REMOVING = [
  ...['remove', 'removes', 'removed', 'removing', 'drop', 'drops', 'dropped', 'delete', 'deletes', 'deleted'],
  ...['disable', 'disables', 'disabled', 'discontinue', 'discontinues', 'discontinued', 'retire', 'retires'],
  ...['retired', 'forbid', 'disallow', 'disallows', 'disallowed', 'reject', 'rejects', 'rejected', 'unsupport'],
  ...['unsupports', 'unsupported']
]
/** The words that open a line which fixes a bug (`fixLine`). */
const FIXING = [
  ...['fix', 'fixes', 'fixed', 'bugfix', 'bugfixes', 'bug fix', 'bug fixes', 'resolve', 'resolves', 'resolved'],
  ...['revert', 'reverts', 'reverted', 'correct', 'corrects', 'corrected']
]
/** Conventional Commits types (and the like) of internal work: `docs:`, `chore(deps):`, `test/` (`choreLine`). */
export const CHORES = [
  ...['test', 'tests', 'ci', 'doc', 'docs', 'chore', 'build', 'style', 'refactor', 'perf', 'lint', 'i18n', 'l10n'],
  ...['deps', 'cleanup', 'minor']
]

// ---------------------------------------------------------------------------
// Word lists shared by several detectors.

/** Saying that something must happen soon (see `urgent`). */
const URGENCY = [
  'as soon as possible',
  'immediately',
  'asap',
  'urgent*',
  'right away',
  'without delay',
  'strongly recommend*',
  'highly recommend*',
  'strongly advise*',
  'strongly encourage*',
  'strongly urge*',
  'urge*'
]
const UPDATING = ['updat*', 'upgrad*', 'patch*', 'apply', 'install*']

/** Saying that something is refused, or makes the software fail (see `forbidden`, `refusedConfig`). */
const REFUSING = [
  'forbid*',
  'disallow*',
  'refuse*',
  'fail to start',
  'fails to start',
  'will not start',
  "won't start",
  'error out',
  'errors out',
  'now error*',
  'now fail*'
]

const RUNTIMES = [
  'python #',
  'php #',
  'node #',
  'nodejs #',
  'node.js #',
  'go #',
  'golang #',
  'postgres #',
  'postgresql #',
  'mysql #',
  'mariadb #',
  'redis #',
  'valkey #',
  'java #',
  'jdk #',
  'jre #',
  'ruby #',
  'rust #',
  'rustc #',
  'elasticsearch #',
  'opensearch #',
  'mongodb #',
  'sqlite #',
  'debian #',
  'ubuntu #',
  'alpine #',
  'docker #',
  'kubernetes #',
  'k8s #',
  '.net #',
  'dotnet #',
  'django #',
  'perl #',
  'nginx #',
  'apache #',
  'erlang #',
  'elixir #',
  'openssl #',
  'glibc #',
  'kernel #',
  'tls #',
  'npm #',
  'helm #',
  'qt #',
  'gcc #',
  'clang #',
  'cmake #',
  'c++ #',
  'c #',
  'windows #',
  'macos #',
  'freebsd #',
  'centos #',
  'rhel #',
  'libressl #',
  'boost #',
  'meson #',
  'autoconf #',
  'systemd #',
  'curl #',
  'libcurl #',
  'gnutls #',
  'mbedtls #',
  'pcre #',
  'lua #',
  'icu #',
  'zlib #'
]
const REQUIRE = [
  'require',
  'requires',
  'required',
  'requirement*',
  'minimum',
  'at least',
  'or later',
  'or newer',
  'or higher',
  'or above',
  'or greater',
  'needs',
  'now needs',
  'need'
]
const REMOVE = [
  'remove',
  'removed',
  'removes',
  'removing',
  'removal',
  'drop',
  'drops',
  'dropped',
  'dropping',
  'delete',
  'deleted',
  'discontinue*',
  'no longer',
  'eliminate*',
  'get rid of',
  'got rid of'
]
const SETTING = [
  'config*',
  'setting*',
  'option*',
  'env var*',
  'environment variable*',
  'variable*',
  'flag*',
  'parameter*',
  'directive*',
  'argument*',
  'switch',
  'key',
  'keys',
  'propert*',
  'field*'
]
const INTERFACE = [
  'api',
  'apis',
  'endpoint*',
  'route*',
  'command*',
  'cli',
  'plugin*',
  'helper*',
  'extension*',
  'module*',
  'integration*',
  'backend*',
  'driver*',
  'provider*',
  'feature*',
  'platform*',
  'architecture*',
  'binar*',
  'package*',
  'image*',
  'arm*',
  'i386',
  'i686',
  '32-bit',
  '32 bit',
  'windows',
  'macos',
  'protocol*',
  'format*',
  'syntax',
  'function*',
  'method*',
  'library',
  'header*'
]

// ---------------------------------------------------------------------------
// The detectors of one line (unit) of notes. Order is the order of the rationale's
// tie-breaks: the earlier detector is the more specific evidence.

// What an admin's migration migrates: their data, database, configuration or stored state.
const MIGRATED_STATE = [
  'database*',
  'db',
  'schema*',
  'data',
  'table',
  'tables',
  'index*',
  'config*',
  'setting*',
  'volume*',
  'storage',
  'existing',
  'your',
  'you',
  'must',
  'manual*',
  'run',
  'one-time'
]

const SPECS: Record<string, Spec> = {
  breakingWord: {
    means: 'is called a breaking change',
    why: 'required',
    notAfterHyphen: true,
    words: [
      'breaking',
      'backward incompatible',
      'backwards incompatible',
      'backward-incompatible',
      'backwards-incompatible',
      'incompatible change*',
      'not backward compatible',
      'not backwards compatible',
      'breaks compatibility',
      'break compatibility',
      'breaks backward*',
      'break backward*',
      'compatibility break*',
      'api breakage',
      'abi break*',
      'abi change*'
    ]
  },
  breakingMarker: {
    means: 'is marked as a breaking change',
    why: 'required',
    pattern: new RegExp(
      String.raw`\bBREAKING\b|\[[Bb]reaking(?: [Cc]hanges?)?\]|${LINE_START}\**[Bb]reaking(?: [Cc]hanges?)?\**\s*:`
    ),
    keys: ['breaking']
  },
  bangMarker: {
    means: 'is marked breaking with an exclamation mark',
    why: 'required',
    // A type in lower case or capitalised ("Feat(api)!:"): Conventional Commits reads types in any case.
    pattern: new RegExp(String.raw`${LINE_START}(?:\[[^\]]{0,40}\]\s*)?[A-Za-z][a-z]*(?:\([^)]{0,60}\))?!:`),
    keys: ['!:']
  },
  raisedRequirement: {
    means: 'raises a required version of a runtime, database, system or tool',
    why: 'required',
    near: [REQUIRE, RUNTIMES, 80]
  },
  requirementAfter: {
    means: 'raises a required version of a runtime, database, system or tool',
    why: 'required',
    near: [RUNTIMES, REQUIRE, 40]
  },
  // Not "at least" alone: it bounds a number ("at least 1000 groups", "imports at least back to 0.99").
  requiredVersion: {
    means: 'requires a version of something',
    why: 'required',
    near: [['require', 'requires', 'required', 'minimum'], ['#'], 25]
  },
  // A raised minimum said the other way round: "The minimum supported PostgreSQL version is now 14". A minimum
  // of a version only, not of a setting ("the minimum password length is now 12").
  minimumRaised: {
    means: 'raises a required version of a runtime, database, system or tool',
    why: 'required',
    near: [
      [
        'minimum supported',
        'minimum required',
        'minimum version',
        'minimal supported',
        'minimal required',
        'oldest supported',
        'lowest supported'
      ],
      [
        'is now #',
        'now #',
        'raised to',
        'bumped to',
        'increased to',
        'has been raised',
        'was raised',
        'has been bumped',
        'was bumped',
        'has been increased',
        'was increased'
      ],
      60
    ]
  },
  // An upgrade path the admin must follow: only from some versions, or through an earlier release first.
  upgradePath: {
    means: 'requires upgrading through an earlier release first',
    why: 'required',
    words: [
      'only upgrades from',
      'only supports upgrades from',
      'upgrades are only supported from',
      'upgrading is only supported from',
      'upgrading from versions older',
      'upgrading from versions before',
      'upgrading from versions prior',
      'upgrades from versions older',
      'upgrades from versions before',
      'upgrades from versions prior',
      'cannot upgrade directly',
      'not possible to upgrade directly'
    ],
    near: [
      ['upgrade to', 'update to', 'upgrading to', 'updating to'],
      [
        'before upgrading',
        'before updating',
        'before you upgrade',
        'before you update',
        'before moving',
        'prior to upgrading',
        'prior to updating'
      ],
      40
    ]
  },
  // The same as "Upgrade to 1.5 first": a version, then "first" (not "Update to the first-party API").
  upgradeFirst: {
    means: 'requires upgrading through an earlier release first',
    why: 'required',
    pattern: /\b(?:upgrade|update) to (?:version )?v?\d+(?:\.(?:\d+|x))*(?: or later)? first\b(?!-)/i,
    keys: ['first']
  },
  removedSupport: {
    means: 'removes support for something',
    why: 'required',
    near: [REMOVE, ['support*', 'compatib*'], 30]
  },
  supportRemoved: {
    means: 'removes support for something',
    why: 'required',
    near: [['support', 'compatibility with'], ['removed', 'dropped', 'discontinued', 'ended'], 80]
  },
  removedSetting: {
    means: 'removes a setting or option',
    why: 'required',
    near: [REMOVE, SETTING, 60]
  },
  settingRemoved: {
    means: 'removes a setting or option',
    why: 'required',
    // 'renaming' as a noun: "Connection TX buffer setting renaming."
    near: [SETTING, ['removed', 'dropped', 'deleted', 'no longer', 'renamed', 'replaced', 'replaces', 'renaming'], 60]
  },
  removedInterface: {
    means: 'removes an interface, feature or platform',
    why: 'required',
    near: [REMOVE, INTERFACE, 60]
  },
  interfaceRemoved: {
    means: 'removes an interface, feature or platform',
    why: 'required',
    near: [INTERFACE, ['removed', 'dropped', 'discontinued', 'no longer'], 60]
  },
  removalLine: {
    // Not "removes something" alone: the rationale quoted it for "Reject excessively large FTP control replies".
    means: 'removes, disables or refuses something',
    why: 'required',
    pattern: lineOpening(REMOVING),
    keys: ['remov', 'drop', 'delet', 'disabl', 'discontinu', 'retire', 'forbid', 'disallow', 'reject', 'unsupport']
  },
  forbidden: {
    means: 'refuses something that used to be accepted',
    why: 'note',
    words: [...REFUSING, 'prohibit*', 'not allowed', 'no longer allowed', 'no longer accept*', 'reject*']
  },
  // A configuration that used to run is now refused: the admin must change it before upgrading.
  refusedConfig: {
    means: 'refuses a configuration that used to be accepted',
    why: 'required',
    near: [
      [...REFUSING, 'now abort*', 'now exit*', 'no longer start*'],
      [
        'configured',
        'config*',
        'running with',
        'run with',
        'started with',
        'start with',
        'startup',
        'setting*',
        'option*'
      ],
      50
    ]
  },
  // A function or structure of the interface that gained or lost an argument or member breaks its callers.
  signatureChanged: {
    means: 'changes the arguments or members of an interface',
    why: 'required',
    near: [
      ['lost', 'loses', 'gained', 'gains', 'no longer takes', 'now takes'],
      ['argument*', 'member*', 'parameter*'],
      40
    ]
  },
  renamed: {
    means: 'renames something',
    why: 'required',
    // A rename of something ("renamed X to Y", "X has been renamed"), not renaming as a feature.
    near: [['rename', 'renamed', 'renames'], ['to', 'into', 'as', '→', '->'], 80]
  },
  // Routine: naming an identifier is not what the rubric counts, so it never stands as the reason for caution.
  envName: {
    means: 'names an environment variable or setting',
    why: 'routine',
    pattern: /\b[A-Z][A-Z0-9]*_[A-Z0-9_]{2,}\b/,
    keys: ['_']
  },
  manualStep: {
    means: 'asks the admin to take a step',
    why: 'required',
    near: [
      [
        'must',
        'need to',
        'needs to',
        'have to',
        'has to',
        'required to',
        'is required',
        'are required',
        'manually',
        'action required',
        'action needed',
        'mandatory',
        'necessary',
        // "Ensure X" alone is how commit subjects describe a fix; an instruction names the reader.
        'make sure you*',
        'make sure that you*',
        'ensure you*',
        'ensure that you*',
        'please',
        'you should',
        'you will need',
        'to repair',
        'to secure'
      ],
      [
        'migrat*',
        'reinstall*',
        're-install*',
        'recreat*',
        're-creat*',
        'rebuild*',
        'reconfigur*',
        'rerun*',
        're-run*',
        'run',
        'execut*',
        'set',
        'update your',
        'change your',
        'adjust*',
        'replac*',
        'convert*',
        'back up',
        'backup',
        'chown*',
        'chmod*',
        'purge',
        'delete',
        'remov*',
        'renam*',
        'move',
        'edit*',
        'add',
        'regenerat*',
        'reindex*',
        're-index*',
        'restart*',
        'upgrade your',
        'switch*',
        'uninstall*',
        'install*',
        'update*',
        'chang*',
        'configur*',
        'enabl*',
        'disabl*'
      ],
      50
    ]
  },
  // The same instruction with the adverb last: "Set the permissions of the directory manually", "move them manually".
  manualAfter: {
    means: 'asks the admin to take a step',
    why: 'required',
    near: [
      [
        'set',
        'change',
        'edit',
        'run',
        'delete',
        'remove',
        'move',
        'migrate',
        'update',
        'enable',
        'disable',
        'adjust',
        'configure',
        'install',
        'restart',
        'rename',
        'create',
        'recreate'
      ],
      ['manually'],
      80
    ]
  },
  // A migration of the admin's data: their database, schema, configuration or stored state ("database
  // migrations", "migrate your config", "a one-time migration of existing tags"). A migration of the
  // project's own code to another library or language ("Migrate the UI to React 19") or an importer from
  // another product ("(migration) Make migration from Todoist work") is no step of the admin's.
  migration: {
    means: 'involves a migration',
    why: 'required',
    words: [
      'migrations',
      'migration script*',
      'migration step*',
      'schema change*',
      'database upgrade',
      'db upgrade',
      'upgrade script*',
      'reindex*',
      're-index*'
    ],
    near: [['migrat*'], MIGRATED_STATE, 30],
    eitherOrder: true
  },
  guide: {
    means: 'points to upgrade or migration instructions',
    why: 'required',
    near: [
      ['read', 'see', 'follow', 'consult', 'check', 'review', 'refer to', 'look at'],
      [
        'migration guide',
        'migration note*',
        'migration instructions',
        'upgrade guide',
        'upgrade note*',
        'upgrade instructions',
        'upgrading guide',
        'upgrading note*',
        'upgrading section',
        'update guide',
        'update note*',
        'update instructions',
        // Not 'changelog' or 'release notes': "For more details, see the full changelog" points to details, not steps.
        'documentation'
      ],
      50
    ]
  },
  // A step to take once the new version is in ("After upgrading, restart the worker container", "Clear the cache
  // after updating"): asked without "must", so a precaution (caution), not the action rule's step; as a step it
  // also changed what the model learns from releases the rules already call breaking.
  afterUpgrade: {
    means: 'asks the admin to take a step after updating',
    why: 'note',
    near: [
      [
        'after upgrading',
        'after updating',
        'after the upgrade',
        'after the update',
        'after installing this',
        'once upgraded',
        'once updated'
      ],
      [
        'restart',
        'run',
        'rebuild',
        'reindex',
        're-index',
        'recreate',
        're-create',
        'regenerate',
        'reconfigure',
        'clear',
        'delete',
        'update your',
        'change your',
        'log in again',
        'sign in again'
      ],
      40
    ],
    eitherOrder: true
  },
  // Something of the admin's that this release no longer works with ("Plugins built for 2.x are not compatible with
  // this release"): worth reading first.
  incompatible: {
    means: 'says something no longer works with this release',
    why: 'note',
    words: [
      'not compatible with this',
      'not compatible with the new',
      'no longer compatible with',
      'no longer be able to connect',
      'no longer able to connect',
      'will stop working',
      'stop working with this'
    ]
  },
  // A backup the notes ask for before updating ("Back up your database first", "make a backup before upgrading"):
  // a step, as the labels read it (cues.ts: REQUIRED); hedged ("it may be wise to …"), still a precaution.
  backupFirst: {
    means: 'asks for a backup before updating',
    why: 'required',
    near: [
      // The backup of something (the admin's): not a command or feature named "backup" ("backup first checks …").
      [
        'back up your',
        'back up the',
        'back up all',
        'back up any',
        'backup your',
        'backing up your',
        'a backup',
        'a full backup',
        'backup of your',
        'backup of the',
        'backups of your',
        'backups of the'
      ],
      [
        'first',
        'beforehand',
        'before upgrad*',
        'before updat*',
        'before migrat*',
        'before install*',
        'before proceed*',
        'before you',
        'before applying',
        'before running',
        'before starting',
        'prior to'
      ],
      40
    ]
  },
  // An update that cannot be undone ("once upgraded, the database cannot be downgraded"): the rubric's caution,
  // and the admin's last chance to read first.
  oneWay: {
    means: 'says the update cannot be undone',
    why: 'note',
    words: [
      'cannot be downgraded',
      "can't be downgraded",
      'can not be downgraded',
      'cannot downgrade',
      "can't downgrade",
      'unable to downgrade',
      'not be able to downgrade',
      'not possible to downgrade',
      'no longer possible to downgrade',
      'downgrade is not',
      'downgrades are not',
      'downgrading is not',
      'no downgrade',
      'cannot be rolled back',
      "can't be rolled back",
      'cannot roll back',
      "can't roll back",
      'one-way migration',
      'one-way upgrade'
    ]
  },
  // The rubric's urgent fix is one "the notes say must be applied now": urgency words about
  // updating, not urgency alone ("redirect immediately", "thanks to everyone", "all users");
  // "you must update" is a manual step.
  urgent: {
    means: 'says to update urgently',
    why: 'urgent',
    near: [URGENCY, UPDATING, 40],
    eitherOrder: true
  },
  criticalFix: {
    means: 'says to update urgently',
    why: 'urgent',
    near: [['critical'], ['fix*', 'patch*', 'release', 'update', 'upgrade', 'security', 'vulnerab*'], 25]
  },
  // A known-bad release: the notes say not to install this very one ("Don't install this release"). It asks the
  // admin to act (never safe), though it changes nothing of theirs (cues.ts: not REQUIRED).
  notThisRelease: {
    means: 'says not to install this release',
    why: 'required',
    // Not "Don't use this version of the client in new code": that is advice about something else.
    pattern:
      /\b(?:do not|don't|never) (?:use|install|deploy|upgrade to|update to) this (?:version|release)\b(?! of\b)|\bthis (?:version|release) (?:should|must) not be (?:used|installed|deployed)\b/i,
    keys: ['this version', 'this release']
  },
  // An earlier release the notes warn off ("the last release must not be used with SQLite"): the fix that follows
  // is one to apply now, the rubric's urgent fix.
  earlierUnfit: {
    means: 'says an earlier release should not be used',
    why: 'urgent',
    // Not "should not be used to open files written by this one": that says the update cannot be undone.
    pattern: new RegExp(
      `${
        nearPattern(
          ['previous', 'prior', 'earlier', 'last'].flatMap((w) => [`${w} version*`, `${w} release*`]),
          ['should not be used', 'must not be used', 'should no longer be used', 'must no longer be used'],
          40
        ).source
      }(?! to\\b)`,
      'i'
    ),
    keys: ['be used']
  },
  securityWord: {
    means: 'fixes a security issue',
    why: 'security',
    notAfterHyphen: true,
    words: [
      'security',
      'secured',
      'secures',
      'securing',
      'vulnerab*',
      'cve-*',
      'ghsa-*',
      'xss',
      'cross-site',
      'ssrf',
      'csrf',
      'idor',
      'path traversal',
      'directory traversal',
      'zip slip',
      'injection',
      'privilege escalation',
      'spoof*',
      'denial of service',
      'denial-of-service',
      'dos',
      'ddos',
      'unauthori*',
      'unauthenticated',
      'brute force',
      'brute-force',
      'harden*',
      'exploit*',
      'smuggling',
      'remote code execution',
      'rce',
      'open redirect',
      'buffer overflow',
      'heap overflow',
      'integer overflow',
      'stack overflow',
      'use-after-free',
      'use after free',
      'read past the end',
      'reads past the end',
      'reading past the end',
      'over-read*',
      'overread*',
      'out-of-bounds',
      'out of bounds',
      'information disclosure',
      'information leak*',
      'attacker*',
      'malicious',
      'bypass*',
      'cve'
    ]
  },
  // Who may see or do what: a fix here is security-relevant whether or not the notes say "security".
  accessControl: {
    means: 'changes who may access what',
    why: 'security',
    words: [
      'permission*',
      'access control',
      'access check*',
      'acl',
      'acls',
      'authenticat*',
      'authoriz*',
      'authoris*',
      'reauth*',
      '2fa',
      'two-factor',
      'otp',
      'totp',
      'privilege*',
      'csp',
      'saniti*'
    ]
  },
  deprecation: {
    means: 'deprecates something',
    why: 'note',
    words: [
      'deprecat*',
      'obsolete*',
      'discouraged',
      'phased out',
      'phase out',
      'sunset*',
      'end of life',
      'end-of-life',
      'eol'
    ]
  },
  defaultChange: {
    means: 'changes a default',
    why: 'note',
    words: ['default', 'defaults', 'by default', 'opt-in', 'opt-out', 'opt in', 'opt out']
  },
  behaviourChange: {
    means: 'changes existing behaviour',
    why: 'note',
    words: [
      'no longer',
      'now requires',
      'now rejects',
      'now returns',
      'now enforces',
      'now only',
      'now always',
      'now fails',
      'now blocks',
      'now refuses',
      'now validates',
      'now treats',
      'now uses',
      'is now',
      'are now',
      'reject*',
      'refus*',
      'restrict*',
      'replaced by',
      'replaced with',
      'instead of',
      'moved to',
      'moved from',
      'behaviour',
      'behavior',
      'behavioural',
      'behavioral',
      'changed',
      'changes the',
      'change the',
      'stricter',
      'strict',
      'enforce*',
      'limit*',
      'disabl*',
      'switch* to',
      'switched'
    ]
  },
  platformImage: {
    means: 'changes the base image or platform',
    why: 'note',
    words: [
      'base image',
      'docker image',
      'container image',
      'underlying image',
      'dockerfile',
      'debian',
      'alpine',
      'ubuntu',
      'trixie',
      'bookworm',
      'bullseye',
      'noble',
      'jammy'
    ]
  },
  withdrawn: {
    means: 'says the release was withdrawn',
    why: 'routine',
    words: [
      'cancelled',
      'canceled',
      'withdrawn',
      'yanked',
      'retracted',
      'do not use',
      "don't use",
      'not released',
      'skipped'
    ]
  },
  firstRelease: {
    means: 'announces a first release',
    why: 'routine',
    words: ['first release', 'initial release', 'first public release', 'first stable release']
  },
  fixWord: {
    means: 'fixes a bug',
    why: 'routine',
    words: [
      'fix',
      'fixed',
      'fixes',
      'fixing',
      'bug*',
      'bugfix*',
      'crash*',
      'resolv*',
      'correct*',
      'regression*',
      'properly',
      'issue*',
      'error*',
      'panic*',
      'leak*',
      'hang*',
      'typo*'
    ]
  },
  addWord: {
    means: 'adds something new',
    why: 'routine',
    words: [
      'add',
      'added',
      'adds',
      'adding',
      'new',
      'introduc*',
      'implement*',
      'support for',
      'allow*',
      'enable*',
      'now support*',
      'now available'
    ]
  },
  docsWord: {
    means: 'concerns documentation or translations',
    why: 'routine',
    words: [
      'doc',
      'docs',
      'documentation',
      'readme',
      'translation*',
      'translat*',
      'i18n',
      'l10n',
      'locale*',
      'language*',
      'typo*',
      'comment*',
      'spelling'
    ]
  },
  depsWord: {
    means: 'bumps a dependency',
    why: 'routine',
    words: [
      'bump*',
      'dependenc*',
      'deps',
      'vendor*',
      'go.mod',
      'package.json',
      'lockfile',
      'renovate',
      'dependabot',
      'upgrade to',
      'update to',
      'updated to',
      'upgraded to'
    ]
  },
  versionBump: {
    means: 'updates something to a newer version',
    why: 'routine',
    near: [['upgrade*', 'update*', 'bump*', 'move*', 'switch*'], ['to #'], 40]
  },
  testWord: {
    means: 'concerns tests or CI',
    why: 'routine',
    words: ['test*', 'ci', 'github actions', 'workflow*', 'lint*', 'coverage', 'unit test*']
  },
  // Context of a line: these qualify the findings above.
  negated: {
    means: 'says it breaks nothing',
    why: 'routine',
    words: [
      'no breaking',
      'no known breaking',
      'non-breaking',
      'non breaking',
      'not breaking',
      'not a breaking',
      'no action required',
      'no action is required',
      'no action needed',
      'no manual',
      'no migration',
      'no changes are required',
      'no changes required',
      'does not require',
      "doesn't require",
      'do not require',
      "don't require",
      'not required',
      'no longer required',
      'no need to',
      // "Upgrade urgency MODERATE: plan an upgrade, but it is not urgent": no fix to apply now; nor is an urgency
      // the notes rate low or moderate, whatever follows.
      'not urgent',
      'urgency low',
      'urgency: low',
      'low urgency',
      'urgency moderate',
      'urgency: moderate',
      'moderate urgency',
      'nothing to do',
      'backward compatible',
      'backwards compatible',
      'backward-compatible',
      'backwards-compatible',
      'fully compatible',
      'remains compatible',
      'still compatible',
      "doesn't break",
      'does not break',
      'without breaking',
      'no user action',
      'no intervention',
      'automatically',
      'automatic',
      'transparently',
      'still work*',
      'still supported',
      'still accepted',
      'alias',
      'fallback',
      'fall back'
    ]
  },
  hedged: {
    means: 'is hedged',
    why: 'routine',
    words: [
      'potentially',
      'possibly',
      'might',
      'may',
      'could',
      'slightly',
      'minor',
      'technically',
      'not really',
      'not strictly',
      'in rare cases',
      'in some cases',
      'edge case*',
      'unlikely',
      'cosmetic',
      'ui change only',
      'ui only'
    ]
  },
  future: {
    means: 'announces something for a later release',
    why: 'routine',
    words: [
      'will be',
      'will become',
      'will no longer',
      'will require',
      'will remove',
      'will drop',
      'in a future',
      'in the future',
      'in future',
      'upcoming',
      'next major',
      'next release',
      'next version',
      'planned',
      'plan to',
      'going to',
      'eventually',
      'later release',
      'to be removed',
      'to be dropped'
    ]
  },
  optIn: {
    means: 'is about something optional, off unless enabled',
    why: 'routine',
    words: [
      'opt-in',
      'opt in',
      'optional',
      'optionally',
      'must be enabled',
      'needs to be enabled',
      'has to be enabled',
      'can be enabled',
      'disabled by default',
      'off by default',
      'not enabled by default',
      'if enabled',
      'when enabled'
    ]
  },
  buildContext: {
    means: 'concerns building from source',
    why: 'routine',
    words: [
      'build*',
      'compil*',
      'cmake',
      'autoconf',
      'automake',
      'autotools',
      'meson',
      'makefile',
      'configure script',
      './configure',
      'gcc',
      'clang',
      'msvc',
      'toolchain',
      'from source',
      'source code',
      'c api',
      'c++',
      'header file*',
      'linker',
      'link against',
      'pkg-config'
    ]
  },
  fixLine: {
    means: 'is a bug fix',
    why: 'routine',
    pattern: lineOpening(FIXING, String.raw`BUG\/|\[(?:bug ?)?fix(?:e[sd])?\]`),
    keys: ['fix', 'resolv', 'revert', 'correct', 'bug']
  },
  choreLine: {
    means: 'is internal work',
    why: 'routine',
    pattern: typeOpening(CHORES),
    keys: [':', '/']
  },
  versionNumber: {
    means: 'names a version',
    why: 'routine',
    pattern: /\b\d+\.\d+(?:\.\d+)?\b/,
    keys: Array.from({ length: 10 }, (_, d) => `${d}.`) // '0.' to '9.'
  }
}

export const DETECTORS: readonly Detector[] = Object.entries(SPECS).map(([name, s]) => build(name, s))
export const DETECTOR: Readonly<Record<string, Detector>> = Object.fromEntries(DETECTORS.map((d) => [d.name, d]))

/** Detectors that qualify the others rather than find something of their own. */
export const MODIFIERS: ReadonlySet<string> = new Set([
  'negated',
  'hedged',
  'future',
  'optIn',
  'buildContext',
  'fixLine',
  'choreLine'
])

export interface Hit {
  detector: Detector
  /** Index of the first match in the line. */
  at: number
}

// One Aho–Corasick pass over a line tells which detectors can match it at all: a group of keys per
// guarded detector, and a second group for those whose match also needs one of a second list.
const GROUPS: string[][] = []
/** Where the scanner reports a key list: its word and bit, -1 and 0 for an empty list (no guard). */
const groupOf = (keys: string[]) => {
  if (keys.length === 0) return { word: -1, bit: 0 }
  const g = GROUPS.push(keys) - 1
  return { word: Math.floor(g / GROUPS_PER_WORD), bit: 1 << (g % GROUPS_PER_WORD) }
}
const GUARD = DETECTORS.map((d) => groupOf(d.keys))
const ALSO = DETECTORS.map((d) => groupOf(d.also))
const scan = groupScanner(GROUPS)

/**
 * Every detector that matches one line (one unit of notes), in DETECTORS order. `lower` is the line lower-cased.
 * The line's words are one plain space apart, as a unit's are (squashed): a phrase's key holds single spaces.
 */
export function detect(text: string, lower = text.toLowerCase()): Hit[] {
  const found = scan(lower)
  const hits: Hit[] = []
  for (let i = 0; i < DETECTORS.length; i++) {
    const g = GUARD[i]!
    if (g.word >= 0 && (found[g.word]! & g.bit) === 0) continue
    const a = ALSO[i]!
    if (a.word >= 0 && (found[a.word]! & a.bit) === 0) continue
    const d = DETECTORS[i]!
    const m = d.re.exec(d.lower ? lower : text)
    if (m) hits.push({ detector: d, at: m.index })
  }
  return hits
}
