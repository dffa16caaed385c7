// The rules: general facts about how release notes announce work for an admin.
// Each rule has a name, a class and a test over one unit (its text, the headings it
// sits under, its lead-in and admonition). No rule names an app, a version or an entry.
import type { Unit } from './blocks.js'
import { groupScanner } from './keywords.js'
import { S } from './sections.js'
import { NOTES_CAP } from './text.js'

export type Severity = 'breaking' | 'caution'

export interface Rule {
  name: string
  severity: Severity
  /** What the rule means, for the rationale. */
  describes: string
}

export interface Finding {
  rule: Rule
  unit: Unit
  /** Where in the unit's text the deciding words start (for the quote). */
  at: number
  /** The unit's own words matched (not only the heading it sits under). */
  direct: boolean
  /** Breaking-level findings in the same unit: more evidence makes a better quote. */
  weight: number
}

const rule = (name: string, severity: Severity, describes: string): Rule => ({ name, severity, describes })

// Order matters: within one class, the earlier rule is the more specific evidence.
export const RULES = {
  breakingSection: rule('breaking-section', 'breaking', 'listed under a breaking-changes heading'),
  breakingMarker: rule('breaking-marker', 'breaking', 'marked as a breaking change'),
  upgradeSection: rule('upgrade-section', 'breaking', 'listed under an upgrade/migration heading'),
  runtimeRequirement: rule('runtime-requirement', 'breaking', 'raises a runtime or database requirement'),
  manualStep: rule('manual-step', 'breaking', 'asks for a manual step'),
  urgentUpdate: rule('urgent-update', 'breaking', 'says to update urgently'),
  removedSetting: rule('removed-setting', 'breaking', 'removes or renames a setting'),
  removedSupport: rule('removed-support', 'breaking', 'removes a feature, platform or interface'),
  migrationGuide: rule('migration-guide', 'breaking', 'points to a migration/upgrade guide'),
  removedSection: rule('removed-section', 'breaking', 'listed under a "Removed" heading'),
  breakingProse: rule('breaking-prose', 'breaking', 'says the release has breaking changes'),
  hedgedBreaking: rule('hedged-breaking', 'caution', 'mentions a possibly breaking change'),
  securityFix: rule('security-fix', 'caution', 'fixes a security issue'),
  deprecation: rule('deprecation', 'caution', 'deprecates something or announces a future requirement'),
  configChange: rule('config-change', 'caution', 'changes the configuration format'),
  defaultChange: rule('default-change', 'caution', 'changes a default'),
  behaviourChange: rule('behaviour-change', 'caution', 'changes existing behaviour'),
  admonition: rule('admonition', 'caution', 'carries a warning or "important" note'),
  advice: rule('advice', 'caution', 'advises the admin to check something'),
  platformChange: rule('platform-change', 'caution', 'changes the base image or platform'),
  truncatedNotes: rule(
    'truncated-notes',
    'caution',
    `the notes exceed the ${NOTES_CAP / 1024} KiB read limit and nothing in the part read decides`
  )
} as const

const RULE_ORDER: Rule[] = Object.values(RULES)
export const rulePriority = (r: Rule): number => RULE_ORDER.indexOf(r)

// ---------------------------------------------------------------------------
// Word lists, each over the plain text of one unit.

/** "no breaking changes", "non-breaking", "no action required", "fully backwards compatible". */
const NEGATION =
  /\b(?:no|zero|without(?: any)?|not any|none of the)\s+(?:known\s+|new\s+|other\s+)?(?:breaking|backwards?[- ]incompatible|incompatible)\b|\bnon[- ]breaking\b|\bno (?:manual|additional|further|special|extra) (?:steps?|actions?|changes?|intervention|migration|work)\b|\bno (?:user )?(?:action|migration|changes?|intervention) (?:is |are )?(?:required|needed|necessary)\b|\bnothing (?:to do|is required|needs to be done)\b|\b(?:is|are|remains?|stays?) (?:fully |still )?backwards?[- ]compatible\b|\bnot (?:a )?breaking\b|\bdoes(?:n't| not) break\b/i
const HEDGE =
  /\bnot (?:really|strictly|technically|necessarily|entirely) (?:a )?breaking\b|\b(?:technically|potentially|possibly|might be|may be|could be|slightly|minor) (?:a )?breaking\b|\bshould(?:n't| not) (?:be )?break/i

/** "BREAKING", "[breaking]", "BREAKING CHANGE:", conventional commits `feat(x)!:`. */
const BREAKING_MARKER =
  /\bBREAKING(?: CHANGES?)?\b|\[breaking(?: changes?)?\]|^\s*(?:\[[^\]]{0,40}\]\s*)?[a-z]+(?:\([^)]{0,60}\))?!:/
const BREAKING_PROSE =
  /\b(?:breaking|backwards?[- ]incompatible|incompatible) changes?\b|\bbreaks? (?:backwards? )?compatibility\b|\b(?:is|are) (?:a )?breaking\b/i
/** Breaking changes announced for later are a heads-up, not a step for this update. */
const LATER =
  /\b(?:will|before we (?:start|begin)|upcoming|future|next (?:major )?(?:release|version)|planned|going to|plan to|later)\b/i
const FIX_OR_REVERT = /^(?:fix(?:e[sd])?|revert(?:s|ed)?|bug ?fix)\b/i

const RUNTIME =
  '(?:python|php|node(?:\\.?js)?|go(?:lang)?|postgres(?:ql)?|mysql|mariadb|redis|valkey|java|jdk|jre|ruby|rust|elasticsearch|opensearch|mongodb|sqlite|debian|ubuntu|alpine|docker(?: engine)?|kubernetes|k8s|\\.net|dotnet|django|perl|nginx|apache|erlang|elixir|openssl|glibc|kernel|tls|npm|yarn|pnpm|helm)'
const RUNTIME_VERSION = new RegExp(`\\b${RUNTIME}\\s*v?\\d+(?:\\.\\d+|\\.x)*\\b`, 'i')
const REQUIREMENT =
  /\brequire[sd]?\b|\brequirements?\b|\bminimum\b|\bat least\b|\bor (?:later|newer|higher|above|greater)\b|>=|\bno longer (?:supported|support|compatible)\b|\b(?:not|un)supported\b|\bdrop(?:s|ped|ping)? (?:support|compatibility)\b|\bsupport (?:for )?[^.;]{0,60}\b(?:has been |is |was )?(?:removed|dropped|ended)\b|\bend of support\b|\bneeds?\b/i
const FUTURE =
  /\bwill (?:be|become|now be)? ?(?:required|removed|dropped|deprecated|unsupported)\b|\b(?:in|with) (?:a |the )?(?:future|upcoming|next|later|coming)\b|\bto be (?:removed|dropped)\b|\bdeprecat|\bplanned\b|\beventually\b/i

/** Obligation + action: "you need to reinstall", "must be migrated manually", "run ... manually". */
const OBLIGATION =
  /\b(?:must|need(?:s)? to|have to|has to|(?:is|are) required to|(?:is|are) required|required to|requires? (?:a |an )?(?:manual|careful|clean|fresh)|manually|manual (?:steps?|actions?|intervention|migration|upgrade|update|changes?|work)|action (?:is )?required|make sure (?:to|that|you)|ensure (?:that |you )|(?:it is|it's) (?:mandatory|necessary))\b/i
const ACTION =
  /\b(?:migrat\w*|reinstall\w*|re-install\w*|re-?creat\w*|rebuild\w*|reconfigur\w*|re-?run\w*|run\w*|execut\w*|set(?:ting)?|update your|change your|adjust\w*|replac\w*|convert\w*|back ?up|backup|purge|delete|remov\w*|renam\w*|mov(?:e|ing)|edit\w*|add\w*|regenerat\w*|reindex\w*|re-?index\w*|restart\w*|upgrade your|switch\w*|uninstall\w*|install\w*|accept\w*|updat\w*|chang\w*|configur\w*)\b/i
/** "To secure your instance, set X": an instruction to the admin. */
const INSTRUCTION =
  /\bto (?:secure|protect|fix|mitigate|keep|continue|restore|avoid|prevent)\b[^.;]{0,60},\s*(?:you (?:must|need to|should) )?(?:set|add|change|update|remove|run|enable|disable|configure|edit|replace|upgrade)\b/i
const ROLLBACK =
  /\broll(?:ing)?[ -]?back\b|\bdowngrad\w*|\brevert(?:ing)? to (?:an? )?(?:older|previous|earlier)\b|\bunable to (?:upgrade|update)\b|\bif you (?:cannot|can't|can not) (?:upgrade|update)\b/i

const URGENT =
  /\b(?:upgrad|updat|patch)\w*\b[^.;]{0,50}\b(?:as soon as possible|immediately|asap|urgently|right away|without delay|at once)\b|\b(?:strongly|highly) (?:recommend|advise|encourage|urge)\w*\b[^.;]{0,40}\b(?:upgrad|updat)|\burge[sd]? (?:all )?(?:users|admins|administrators|you)\b|\bcritical (?:security )?(?:vulnerabilit|fix|issue|update|patch)|\bmust (?:update|upgrade)\b/i

// Bare "parameter", "key" or "property" is too often a URL or code term; they count with a config/env qualifier.
const SETTING =
  '(?:(?:config(?:uration)?|env(?:ironment)?|cli|command[- ]line|startup) (?:options?|settings?|parameters?|keys?|values?|variables?|vars?|files?|directives?|propert(?:y|ies)|flags?|arguments?)|config(?:uration)?|settings?|options?|env(?:ironment)? var(?:iable)?s?|environment|flags?|directives?)'
const REMOVED_SETTING = new RegExp(
  `\\b(?:remov(?:e|ed|es|ing)|drop(?:s|ped|ping)?|delet(?:e|ed|es))\\b[^.;]{0,60}\\b${SETTING}\\b|\\b${SETTING}\\b[^.;]{0,80}\\b(?:(?:has|have|was|were|is|are) (?:been )?|got )(?:removed|renamed|dropped|deleted)\\b|\\b${SETTING}\\b[^.;]{0,60}\\b(?:is|are) no longer (?:supported|used|read|recogni[sz]ed|available|valid|honou?red)\\b`,
  'i'
)
/** A rename of an identifier an admin writes: ENV_VARS or a named setting. */
const RENAMED_ID =
  /\b[Rr]enam(?:e|ed|es|ing)\b[^.;]{0,80}?\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b[^.;]{0,40}\bto\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b[^.;]{0,40}\b(?:has been |was |is )?renamed\b/
const RENAMED_SETTING = new RegExp(
  `\\brenam(?:e|ed|es|ing)\\b[^.;]{0,60}\\b${SETTING}\\b|\\b${SETTING}\\b[^.;]{0,60}\\brenamed\\b`,
  'i'
)
const AUTO_MIGRATED =
  /\bmigrated\b|\bautomatic(?:ally)?\b|\bwill be (?:converted|migrated|adjusted|updated)\b|\bstill (?:work|supported|accepted|honou?red)|\balias\b|\bfall ?back\b|\bbackwards? compat/i

const REMOVED_SUPPORT =
  /\bsupport (?:for|of) [^.;]{1,60}\b(?:has been |have been |was |were |is |are )?(?:removed|dropped|discontinued|ended)\b|\b(?:remov(?:e|ed|es|ing)|drop(?:s|ped|ping)?|discontinu\w+)\b (?:the )?(?:support|compatibility) (?:for|of|with)\b|^(?:[\w-]+(?:\([^)]{0,60}\))?!?:\s*)?(?:remov(?:e|ed|es|ing)|drop(?:s|ped)?)\b [^.;]{0,50}\b(?:integration|backend|provider|feature|api(?: v?\d+)?|endpoints?|routes?|plugin|driver|module)s?\b|\b(?:api|endpoints?|routes?|integration|backend|feature|platform|architecture)\b[^.;]{0,60}\b(?:(?:has|have) been |was |were |is |are )?(?:removed|dropped|discontinued)\b|\b(?:no longer|not) (?:be(?:ing)? )?(?:supported|distributed|provided|published|shipped|built|available)\b|\bis now (?:read-only|required)\b|\bnow (?:must|has to)\b/i
const PLATFORM =
  /\b(?:arm\w*|i?[3-6]86|32[- ]?bit|x86\w*|amd64|arm64|aarch64|windows|macos|freebsd|platforms?|architectures?|binar(?:y|ies)|packages?|images?|api|endpoints?|routes?)\b/i
/** Things whose removal an admin never notices. */
const INTERNAL =
  /\b(?:unused|dead code|obsolete code|test(?:s|ing)?|lint\w*|ci|workflow|debug log|log message|typo|duplicate[sd]?|redundant|unnecessary|warning message|dependency|dependencies|deps)\b/i

const MIGRATION_GUIDE =
  /\b(?:read|see|follow|consult|check|review|refer to|look at)\b[^.;]{0,50}\b(?:migration|upgrade|upgrading|update) (?:guide|notes?|instructions|docs|documentation|section|steps)\b/i

const SECURITY =
  /\bCVE-\d{4}-\d+|\bGHSA(?:-[0-9a-z]{4}){3}\b|\[security\]|\bsecurity\b|\bvulnerab\w*|\bXSS\b|\bSSRF\b|\bCSRF\b|\bIDOR\b|\bpath traversal\b|\bzip ?slip\b|\b(?:sql |command |code |header |path |template )?injection\b|\bprivilege escalation\b|\bspoof\w*|\benumeration\b|\bdenial[- ]of[- ]service\b|\bdecompression bombs?\b|\b(?:enforce|require|check)s? (?:\w+ )?permissions?\b|\brequire[sd]? (?:\w+ )?(?:access|authentication|auth|admin(?:istrator)? (?:access|rights|privileges))\b|\bunauthori[sz]ed\b|\bbrute[- ]?force\b|\bharden\w*|\bexploit\w*|\bsmuggling\b|\bremote code execution\b|\bRCE\b|\bopen redirect\b/i
const DEPRECATION = /\bdeprecat\w*/i
const DEFAULT_CHANGE =
  /\b(?:change[sd]?|changing|new|updated?|different) (?:the )?defaults?\b|\bdefaults? (?:to|is now|now|value (?:is|of|has|changed)|(?:has |have )?changed)\b|\bby default\b|\bnow default|\bopt[- ](?:in|out)\b/i
const BEHAVIOUR =
  /^\s*\[change[sd]?\]|\bno longer\b|\bnow (?:requires?|rejects?|returns?|enforces?|applies|only|always|fails?|blocks?|refuses?|validates?|treats?|restricts?|denies|ignores?|limits?|strips?|escapes?)\b|\b(?:is|are) now (?:restricted|required|read-only|mandatory|enforced|applied|rejected|disabled|enabled|ignored|limited)\b|\breject(?:s|ed|ing)?\b|^(?:[\w-]+(?:\([^)]{0,60}\))?:\s*)?(?:\[[^\]]{0,40}\]\s*)?disabl(?:e|es|ed|ing)\b|\b(?:is|are|now|be) (?:now )?disabled\b|\breplaced (?:by|with)\b|\bmoved (?:to|from)\b|\bchange[sd]? (?:the )?behaviou?r\b|\bbehaviou?r (?:change|has changed)\b|\b(?:is|are) limited\b|\brestrict(?:s|ed)?\b|\brenam(?:e|ed|es)\b|\bremov(?:e|ed|es)\b[^.;]{0,40}\b(?:by default|fallback|from the (?:image|container|package))\b|\bchange[sd]? (?:the )?(?:format|content[- ]type|path|location|order|permissions?|port|schema|layout)\b|\bchange[sd]? \w+ (?:to|from)\b/i
const CONFIG_FORMAT =
  /\bschema version (?:has )?changed\b|\bconfig(?:uration)? (?:file )?(?:format|schema|structure) (?:has )?chang/i
const ADVICE =
  /\b(?:make sure to|please (?:check|review|read|verify|update|note|be aware)|we (?:recommend|advise|suggest)|(?:it is|it's) recommended|you (?:should|may want to|might want to)|be aware|take care|check (?:the|your) (?:documentation|docs|config\w*|settings))\b/i
const PLATFORM_CHANGE =
  /\b(?:base|docker|container|underlying|runtime) ?image\b[^.;]{0,60}\b(?:debian|alpine|ubuntu|trixie|bookworm|bullseye|buster|noble|jammy|\d+(?:\.\d+)?)\b|\b(?:upgrad|updat|switch|mov|bump)\w* (?:the )?(?:base|docker|container|underlying) ?image\b/i

/** Conventional-commit or scope prefixes that mark internal work. */
const HOUSEKEEPING_ITEM =
  /^(?:\[[^\]]{0,40}\]\s*)?(?:test|tests|ci|docs?|chore|build|style|refactor|perf|lint|i18n|l10n|deps)(?:\([^)]{0,60}\))?:|^(?:chore|build|ci|docs|test)\(deps\)|^(?:bump|update|upgrade) (?:dependency|module|github\.com|golang\.org|go\.mod|[\w@./-]+ (?:from|to) v?\d)/i
const NONE = /^(?:none|n\/a|nothing|-|—|no changes?)\.?$/i

// ---------------------------------------------------------------------------

function find(re: RegExp, text: string): number {
  const m = re.exec(text)
  return m ? m.index : -1
}

/**
 * Cheap guards before the costly patterns: does the lower-cased text contain a key of the
 * group? One scan answers for every group (./keywords.ts).
 */
const K = {
  negation: ['break', 'compatib', 'no ', 'nothing'],
  marker: ['breaking', '!:'],
  prose: ['break', 'incompatib'],
  obligation: [
    'must',
    'need',
    'have to',
    'has to',
    'required',
    'requires',
    'manual',
    'action',
    'make sure',
    'ensure',
    'mandatory',
    'necessary'
  ],
  rollback: ['roll', 'downgrad', 'revert', 'unable', 'cannot', "can't", 'can not'],
  urgent: [
    'immediately',
    'as soon',
    'asap',
    'urgent',
    'right away',
    'delay',
    'at once',
    'strongly',
    'highly',
    'urge',
    'critical',
    'must'
  ],
  removal: [
    'remov',
    'drop',
    'delet',
    'renam',
    'no longer',
    'discontinu',
    'not ',
    'read-only',
    'now must',
    'now has to',
    'now required'
  ],
  guide: ['guide', 'notes', 'instructions', 'docs', 'documentation', 'section', 'steps'],
  defaults: ['default', 'opt-', 'opt '],
  behaviour: [
    '[change',
    'no longer',
    'now',
    'reject',
    'disabl',
    'replaced',
    'moved',
    'behavio',
    'limited',
    'restrict',
    'renam',
    'remov',
    'chang'
  ],
  configFormat: ['schema', 'format', 'structure'],
  advice: ['make sure', 'please', 'recommend', 'advise', 'suggest', 'should', 'want to', 'aware', 'take care', 'check'],
  image: ['image'],
  deprecation: ['deprecat'],
  renamed: ['renam'],
  comma: [','],
  to: ['to '],
  /** One word of each alternative of REQUIREMENT. */
  requirement: [
    'require',
    'minimum',
    'at least',
    'or later',
    'or newer',
    'or higher',
    'or above',
    'or greater',
    '>=',
    'no longer',
    'support',
    'drop',
    'need'
  ],
  /** The words SETTING starts with (REMOVED_SETTING and RENAMED_SETTING need one). */
  setting: ['config', 'env', 'cli', 'command', 'startup', 'setting', 'option', 'flag', 'directive'],
  /** One word of each alternative of SECURITY. */
  security: [
    'cve-',
    'ghsa',
    'security',
    'vulnerab',
    'xss',
    'ssrf',
    'csrf',
    'idor',
    'traversal',
    'slip',
    'injection',
    'escalation',
    'spoof',
    'enumeration',
    'denial',
    'bomb',
    'permission',
    'require',
    'unauthori',
    'brute',
    'harden',
    'exploit',
    'smuggling',
    'remote code',
    'rce',
    'redirect'
  ]
} as const

type KeyGroup = keyof typeof K
const GROUPS = Object.keys(K) as KeyGroup[]
/** The bit of each group in the set `keyGroups` returns. */
const G = Object.fromEntries(GROUPS.map((g, i) => [g, 1 << i])) as Record<KeyGroup, number>

/** The groups of K with a key in the lower-cased text, as a bit set of G. */
const keyGroups = groupScanner(GROUPS.map((g) => K[g]))

/** Record a finding of `rule` in `unit` at `at` (clamped to the text). Not a closure: one per unit cost time. */
function add(out: Finding[], unit: Unit, rule: Rule, at: number, direct = true): void {
  out.push({ rule, unit, at: Math.max(0, at), direct, weight: 0 })
}

/** Every finding for one unit (at most a few per rule); the caller keeps the strongest. */
export function judgeUnit(u: Unit): Finding[] {
  const out: Finding[] = []
  if (u.kind === 'heading' || u.kind === 'code') return out
  const text = u.text
  const k = u.section?.kinds ?? 0
  if (NONE.test(text)) return out
  const g = keyGroups(text.toLowerCase())
  const hedged = g & G.prose ? find(HEDGE, text) : -1
  const negated = hedged < 0 && (g & G.negation) !== 0 && NEGATION.test(text)
  const rollback = (g & G.rollback) !== 0 && ROLLBACK.test(text)
  const housekeepingItem = HOUSEKEEPING_ITEM.test(text)
  const housekeeping =
    (k & S.housekeeping) !== 0 && (k & (S.breaking | S.upgrade | S.security | S.removed | S.deprecated)) === 0
  const removal = (g & G.removal) !== 0
  const defaults = g & G.defaults ? find(DEFAULT_CHANGE, text) : -1

  if (hedged >= 0) add(out, u, RULES.hedgedBreaking, hedged)

  if (!negated && hedged < 0) {
    if (k & S.breaking) add(out, u, RULES.breakingSection, 0, false)
    const marker = g & G.marker ? find(BREAKING_MARKER, text) : -1
    if (marker >= 0 || /^breaking/i.test(u.lead)) add(out, u, RULES.breakingMarker, Math.max(0, marker))
    if (k & S.upgrade && !housekeeping) add(out, u, RULES.upgradeSection, 0, false)

    // A runtime version counts only with a REQUIREMENT match, which needs a word of its group: skip the search without one.
    const rt = g & G.requirement && /\d/.test(text) ? find(RUNTIME_VERSION, text) : -1
    if (rt >= 0 && REQUIREMENT.test(text)) {
      if (FUTURE.test(text) || k & S.deprecated) add(out, u, RULES.deprecation, rt)
      else if (!housekeepingItem) add(out, u, RULES.runtimeRequirement, rt)
    }

    if (!rollback && !housekeeping) {
      const ob = g & G.obligation ? find(OBLIGATION, text) : -1
      if (ob >= 0) {
        const rest = text.slice(ob)
        if (/^(?:make sure|ensure)/i.test(rest)) add(out, u, RULES.advice, ob)
        else if (ACTION.test(rest)) add(out, u, RULES.manualStep, ob)
      }
      const ins = g & G.comma && g & G.to ? find(INSTRUCTION, text) : -1
      if (ins >= 0) add(out, u, RULES.manualStep, ins)
    }

    const urg = g & G.urgent ? find(URGENT, text) : -1
    if (urg >= 0) add(out, u, RULES.urgentUpdate, urg)

    if (removal && !housekeeping && !housekeepingItem && !rollback) {
      const auto = AUTO_MIGRATED.test(text)
      const rs = g & G.setting ? find(REMOVED_SETTING, text) : -1
      if (rs >= 0 && !INTERNAL.test(text)) add(out, u, auto ? RULES.configChange : RULES.removedSetting, rs)
      if (g & G.renamed) {
        const rn = find(RENAMED_ID, text)
        if (rn >= 0) add(out, u, auto ? RULES.configChange : RULES.removedSetting, rn)
        const rns = g & G.setting ? find(RENAMED_SETTING, text) : -1
        if (rns >= 0) add(out, u, auto ? RULES.configChange : RULES.removedSetting, rns)
      }
      const sup = find(REMOVED_SUPPORT, text)
      if (sup >= 0 && !INTERNAL.test(text)) {
        // "no longer supported" alone is a behaviour change; for a platform, API or interface it is a removal.
        const strong = !/^(?:no longer|not) /i.test(text.slice(sup)) || PLATFORM.test(text)
        add(out, u, strong && !(k & S.deprecated) ? RULES.removedSupport : RULES.behaviourChange, sup)
      }
    }

    const mg = g & G.guide ? find(MIGRATION_GUIDE, text) : -1
    if (mg >= 0) add(out, u, housekeeping ? RULES.behaviourChange : RULES.migrationGuide, mg)

    // "Removed X by default" under a Removed heading changes a default; it removes nothing an admin relies on.
    if (k & S.removed && !housekeeping && defaults < 0 && !INTERNAL.test(text))
      add(out, u, RULES.removedSection, 0, false)

    const bp = g & G.prose ? find(BREAKING_PROSE, text) : -1
    if (bp >= 0 && !FIX_OR_REVERT.test(text) && !housekeeping)
      add(out, u, LATER.test(text) ? RULES.hedgedBreaking : RULES.breakingProse, bp)
  }

  // Caution-level evidence.
  const sec = g & G.security ? find(SECURITY, text) : -1
  if (sec >= 0 && !(housekeeping && !/\[security\]|\bCVE-|\bGHSA-/i.test(text))) add(out, u, RULES.securityFix, sec)
  else if (k & S.security && !negated) add(out, u, RULES.securityFix, 0, false)
  const dep = g & G.deprecation ? find(DEPRECATION, text) : -1
  if (dep >= 0 && !housekeepingItem && !housekeeping) add(out, u, RULES.deprecation, dep)
  else if (k & S.deprecated) add(out, u, RULES.deprecation, 0, false)
  if (!housekeeping && !housekeepingItem) {
    if (defaults >= 0) add(out, u, RULES.defaultChange, defaults)
    const bc = g & G.behaviour ? find(BEHAVIOUR, text) : -1
    if (bc >= 0) add(out, u, RULES.behaviourChange, bc)
    const pc = g & G.image ? find(PLATFORM_CHANGE, text) : -1
    if (pc >= 0) add(out, u, RULES.platformChange, pc)
  }
  const cf = g & G.configFormat ? find(CONFIG_FORMAT, text) : -1
  if (cf >= 0 || (k & S.config && !housekeeping)) add(out, u, RULES.configChange, Math.max(0, cf), cf >= 0)
  if (k & S.changed && !housekeeping) add(out, u, RULES.behaviourChange, 0, false)
  if (
    /^(?:WARNING|IMPORTANT|CAUTION|DANGER|ATTENTION)$/.test(u.alert) ||
    /^(?:important|warning|attention|caution|danger|heads up)\b/i.test(u.lead) ||
    text.includes('⚠') ||
    (k & S.important && !housekeeping)
  ) {
    add(out, u, RULES.admonition, 0, false)
  }
  if (!housekeeping && !rollback && g & G.advice) {
    const adv = find(ADVICE, text)
    if (adv >= 0) add(out, u, RULES.advice, adv)
  }
  let weight = 0
  for (const f of out) if (f.rule.severity === 'breaking') weight++
  for (const f of out) f.weight = weight
  return out
}
