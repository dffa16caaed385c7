// Every published address is derived from the base URL and the slug in one place,
// so records, pages and checks can never disagree about them.

/** Normalise a base URL: absolute http(s), no query or fragment, no trailing slash. */
export function normaliseBaseUrl(raw: string): string {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new Error(`base URL "${raw}" is not an absolute URL`)
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`base URL "${raw}" must use http or https`)
  if (u.search || u.hash) throw new Error(`base URL "${raw}" must not carry a query or fragment`)
  return u.href.replace(/\/+$/, '')
}

/**
 * Where GitHub Pages serves a repository: `<owner>.github.io` for the
 * `<owner>.github.io` repository itself, `<owner>.github.io/<repo>` otherwise.
 */
export function pagesUrlFor(githubRepository: string): string {
  const [owner, repo] = githubRepository.split('/')
  if (!owner || !repo) throw new Error(`GITHUB_REPOSITORY "${githubRepository}" is not <owner>/<repo>`)
  const host = `${owner.toLowerCase()}.github.io`
  return repo.toLowerCase() === host ? `https://${host}` : `https://${host}/${repo}`
}

/** The default base URL: the repository's Pages address in GitHub Actions, else the local preview. */
export function defaultBaseUrl(env: NodeJS.ProcessEnv): string {
  if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_REPOSITORY) return pagesUrlFor(env.GITHUB_REPOSITORY)
  return 'http://localhost:8080'
}

export const paths = {
  catalog: 'api/v1/apps.json',
  app: (slug: string) => `api/v1/apps/${slug}.json`,
  badge: (slug: string) => `badge/${slug}.svg`,
  page: (slug: string) => `apps/${slug}/index.html`,
  appsSchema: 'api/v1/schema/apps.v1.json',
  appSchema: 'api/v1/schema/app.v1.json'
}

export function appUrls(baseUrl: string, slug: string): { url: string; badge: string } {
  return { url: `${baseUrl}/apps/${slug}/`, badge: `${baseUrl}/${paths.badge(slug)}` }
}
