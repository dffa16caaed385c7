// REST fallback for ONE repository, used only where GraphQL cannot answer: the
// repository's GraphQL answer still fails when it is asked alone (GitHub times out
// or errors on that repository, e.g. very large release bodies). Costs 2 requests
// (3 when the repository has no stable release and tags are needed), and one more per
// page of older releases when the version published before is not on the first.
import { wantsOlder, type FactsTarget, type RepoRelease, type RepoSnapshot, type RepoTag } from './facts.js'
import { answerData, type GitHubClient } from './client.js'
import {
  MONOREPO_RELEASES_WINDOW,
  MONOREPO_TAGS_WINDOW,
  MAX_RELEASES_READ,
  RELEASES_WINDOW,
  TAGS_WINDOW
} from './query.js'
import { REPO_PATTERN } from '../../schema/index.js'
import { isStableVersion } from '../../util/versions.js'

interface RestRepo {
  full_name?: unknown
  html_url?: unknown
  archived?: unknown
  disabled?: unknown
}

interface RestRelease {
  tag_name?: unknown
  html_url?: unknown
  draft?: unknown
  prerelease?: unknown
  created_at?: unknown
  published_at?: unknown
  body?: unknown
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** Read one repository over REST. Throws the request error when a call fails (404 included). */
export async function snapshotFromRest(
  client: GitHubClient,
  target: FactsTarget,
  /** Most releases read when paging back (default MAX_RELEASES_READ). */
  maxRead?: number
): Promise<RepoSnapshot> {
  const [owner = '', repo = ''] = target.repo.split('/')
  const mono = Boolean(target.tagPrefix || target.tagPattern)
  // A renamed repository answers 301; fetch follows it and we read the new full_name.
  const { data: info } = await client.octokit.request('GET /repos/{owner}/{repo}', { owner, repo })
  const r = (answerData(info) ?? {}) as RestRepo
  const fullName = str(r.full_name)
  if (!fullName || !REPO_PATTERN.test(fullName)) throw new Error('malformed repository answer')
  const [newOwner = owner, newRepo = repo] = fullName.split('/')
  const perPage = mono ? MONOREPO_RELEASES_WINDOW : RELEASES_WINDOW
  const releases: RepoRelease[] = []
  // Pages back like the GraphQL refresh (query.ts): on while the version published before is not met, a page came
  // back full (more may lie beyond) and the cap is not reached.
  let full = false
  for (let page = 1; ; page++) {
    const { data: listData } = await client.octokit.request('GET /repos/{owner}/{repo}/releases', {
      owner: newOwner,
      repo: newRepo,
      per_page: perPage,
      ...(page > 1 ? { page } : {})
    })
    const list = answerData(listData)
    // An answer that is not a list (cut off, unparsable) is no answer: never read it as "no releases".
    if (!Array.isArray(list)) throw new Error(`unreadable releases answer for ${fullName}`)
    releases.push(...releasesOf(list as RestRelease[]))
    full = list.length >= perPage
    const snapshot = { nameWithOwner: fullName, url: '', archived: false, releases, tags: [], releasesAfter: null }
    if (!full || !wantsOlder(snapshot, target) || releases.length + perPage > (maxRead ?? MAX_RELEASES_READ)) break
  }
  let tags: RepoTag[] = []
  const filter = { tagPrefix: target.tagPrefix, tagPattern: target.tagPattern }
  if (!releases.some((x) => !x.draft && !x.prerelease && isStableVersion(x.tag, filter))) {
    const { data: tagData } = await client.octokit.request('GET /repos/{owner}/{repo}/tags', {
      owner: newOwner,
      repo: newRepo,
      per_page: mono ? MONOREPO_TAGS_WINDOW : TAGS_WINDOW
    })
    // REST tags carry no date; the facts then say date: null.
    const tagList = answerData(tagData)
    if (!Array.isArray(tagList)) throw new Error(`unreadable tags answer for ${fullName}`)
    tags = tagList
      .map((t) => str((t as { name?: unknown })?.name))
      .filter((n): n is string => n !== null)
      .map((name) => ({ name, date: null }))
  }
  return {
    nameWithOwner: fullName,
    url: str(r.html_url) ?? `https://github.com/${fullName}`,
    archived: r.archived === true || r.disabled === true,
    releases,
    tags,
    // A full last page may have more beyond it; REST pages by number, so there is no cursor to hand on.
    ...(full ? { releasesAfter: null } : {})
  }
}

function releasesOf(list: RestRelease[]): RepoRelease[] {
  return list
    .filter((x) => typeof x?.tag_name === 'string')
    .map((x) => ({
      tag: x.tag_name as string,
      url: str(x.html_url),
      draft: x.draft === true,
      prerelease: x.prerelease === true,
      createdAt: str(x.created_at),
      publishedAt: str(x.published_at),
      notes: str(x.body)
    }))
}
