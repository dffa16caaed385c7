// A community build's tag read as the upstream version it names, by its publisher's tag rule
// (../shared/data/images/COMMUNITY.md, "Tag rules a matcher needs"): `4.0.15.2941-ls301` is Sonarr
// 4.0.15.2941, `develop-4.0.15.2941-ls12` the same on the develop channel, `release-4.0.16.2944` a
// hotio stable build. A tag the rule cannot read (`latest`, `rolling`, a commit, the publisher's own
// numbering) stays unknown with its reason: a guess here would let `check` call an update safe.
import { LIMITS, type ImageChannel, type TagRule } from '../schema/index.js'

export type TagReading =
  | {
      /** The upstream version (or tag) the image tag names. */
      version: string
      /** The upstream channel of the build: the tag's branch where it names one, else the image's. */
      channel: ImageChannel
      /**
       * The publisher also pushes tags of this shape as moving aliases (`1.6` for the newest 1.6.x): placement.ts
       * reads it as a floating tag, the newest release of its line.
       */
      alias?: true
    }
  | { unknown: string }

/** Docker's tag grammar; anything else is not a tag at all. */
const TAG = /^[\w][\w.-]{0,127}$/
const SHA = /^[0-9a-f]{7,40}$/
/** `git describe` of a commit after a release (`2.7.4-2479-g86a32237`): a build between releases. */
const DESCRIBE = /-\d+-g[0-9a-f]{7,40}$/
const DOTTED = /^\d+(?:\.\d+)*$/

/** Branches whose builds follow another channel than the image's stable one (linuxserver and hotio prefixes). */
const BRANCH_CHANNEL: Record<string, ImageChannel> = {
  develop: 'develop',
  development: 'develop',
  dev: 'develop',
  unstable: 'develop',
  next: 'develop',
  insiders: 'develop',
  nightly: 'nightly',
  beta: 'beta',
  testing: 'beta'
}

/** linuxserver variants that build the same upstream release (another library, GPU, an older major). */
const LSIO_VARIANTS = new Set(['libtorrentv1', 'gpu', 'gpu-legacy', 'legacy', 'previous', 'mongoless'])
/** linuxserver variants that carry another project's version (glitch-soc for mastodon, netboot.xyz menus). */
const LSIO_OTHER = new Set(['glitch', 'tftp'])
const LSIO_ARCH = /^(?:amd64|arm64v8|arm32v7)-/
const LSIO_BRANCH =
  /^(develop|development|dev|unstable|next|insiders|nightly|beta|testing|gpu-legacy|gpu|libtorrentv1|legacy|previous|mongoless|glitch|tftp|v\d{1,3})-(.+)$/

/** `"…"` of a tag for a reason: cut, since a tag is upstream text. */
const shown = (tag: string) => JSON.stringify(tag.length > 60 ? `${tag.slice(0, 60)}…` : tag)

const unknown = (reason: string): TagReading => ({ unknown: reason })

/** The checks every rule's result passes: a version has a number in it, reads as one word, and is no commit. */
function finish(tag: string, version: string, channel: ImageChannel, alias = false): TagReading {
  if (version === '' || !/\d/.test(version)) return unknown(`the tag ${shown(tag)} names no version`)
  if (SHA.test(version) && /[a-f]/.test(version))
    return unknown(`the tag ${shown(tag)} names a commit (${version.slice(0, 12)}), not a release`)
  if (DESCRIBE.test(version)) return unknown(`the tag ${shown(tag)} names a build between releases, not a release`)
  if (version.includes('..')) return unknown(`the tag ${shown(tag)} does not read as a version`)
  if (version.length > LIMITS.version) return unknown(`the tag ${shown(tag)} is too long to be a version`)
  return alias ? { version, channel, alias: true } : { version, channel }
}

const dropV = (s: string) => s.replace(/^[vV](?=\d)/, '')
const parts = (s: string) => (DOTTED.test(s) ? s.split('.').length : Infinity)

/**
 * The upstream version a tag names under `rule`, with the channel it follows (`channel` is the image's, from the
 * catalog; a tag's own branch prefix wins), or why it names none.
 */
export function readTag(rule: TagRule, channel: ImageChannel | undefined, tag: string): TagReading {
  if (!TAG.test(tag)) return unknown(`${shown(tag)} is not an image tag`)
  const base: ImageChannel = channel ?? 'stable'
  switch (rule) {
    case 'own':
      return unknown(`the tag ${shown(tag)} is the publisher's own numbering, not the upstream version`)
    case 'as-is':
      return finish(tag, tag, base)
    case 'revision': {
      // `3.7.5.0`: the upstream version, then the image's revision.
      const v = dropV(tag)
      if (parts(v) < 3 || parts(v) === Infinity)
        return unknown(`the tag ${shown(tag)} is not an upstream version followed by an image revision`)
      return finish(tag, v.slice(0, v.lastIndexOf('.')), base)
    }
    case 'k8s-at-home':
      return finish(tag, dropV(tag), base)
    case 'home-operations':
    case 'bjw-s':
    case 'onedr0p': {
      const v = rule === 'onedr0p' ? dropV(tag.replace(/^release-/, '')) : dropV(tag)
      // home-operations pushes X.Y.Z, X.Y and X beside the full version; onedr0p and old bjw-s X.Y and X.
      const aliasParts = rule === 'onedr0p' ? 2 : 3
      return finish(tag, v, base, parts(v) <= aliasParts)
    }
    case 'binhex': {
      // `<version>-<pkgrel>-<NN>`; a tag without them is one of the X / X.Y aliases.
      const m = /^(.+)-\d+-\d\d$/.exec(tag)
      if (!m) return unknown(`the tag ${shown(tag)} is not one of binhex's release tags (<version>-<pkgrel>-<NN>)`)
      return finish(tag, dropV(m[1]!), base)
    }
    case 'hotio':
      return hotio(tag, base)
    case 'linuxserver':
      return linuxserver(tag, base)
  }
}

/** `<branch>-<version>`, `<branch>-<sha7>`, `<branch>-vX[.Y[.Z]]` (an alias), `<branch>`, `latest`. */
function hotio(tag: string, base: ImageChannel): TagReading {
  const m = /^(release|nightly|testing|develop|beta|v\d{1,3})-(.+)$/.exec(tag)
  if (!m) return unknown(`the tag ${shown(tag)} names no hotio build of a version (<branch>-<version>)`)
  const [, branch, rest] = m as unknown as [string, string, string]
  const channel = branch === 'release' || /^v\d/.test(branch) ? base : BRANCH_CHANNEL[branch]!
  if (/^v\d+(?:\.\d+){0,2}$/.test(rest)) return finish(tag, rest.slice(1), channel, true)
  return finish(tag, rest, channel)
}

/**
 * `[arch-][<branch>-]<EXT_RELEASE_CLEAN>-ls<N>` or `version-<EXT_RELEASE_CLEAN>`; the release string keeps
 * upstream's leading `v`. Alpine packages add `-r<N>`, qbittorrent `_v<libtorrent>`, jellyfin `ubu<N>`.
 */
function linuxserver(tag: string, base: ImageChannel): TagReading {
  let t = tag.replace(/-ls\d+$/, '').replace(LSIO_ARCH, '')
  if (t.startsWith('version-')) t = t.slice('version-'.length)
  let channel = base
  const m = LSIO_BRANCH.exec(t)
  if (m) {
    const branch = m[1]!
    if (LSIO_OTHER.has(branch))
      return unknown(`the tag ${shown(tag)} is linuxserver's ${branch} build, which carries another project's version`)
    if (!LSIO_VARIANTS.has(branch) && !/^v\d/.test(branch)) channel = BRANCH_CHANNEL[branch]!
    t = m[2]!
  }
  t = t
    .replace(/ubu\d+$/, '')
    .replace(/_v\d+(?:\.\d+)*$/, '')
    .replace(/-r\d+$/, '')
  return finish(tag, t, channel)
}
