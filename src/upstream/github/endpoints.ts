// Where GitHub is, from the runner's variables: needed to describe a build's
// settings, so kept apart from the refresh client that only --refresh loads.

/**
 * GitHub endpoints from the runner's variables. Without GITHUB_GRAPHQL_URL the
 * GraphQL URL is derived like Octokit does: `/api/v3` → `/api/graphql` (GHES),
 * otherwise `<api>/graphql`.
 */
export function githubEndpoints(env: Record<string, string | undefined>): { apiUrl: string; graphqlUrl: string } {
  const apiUrl = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '')
  const graphqlUrl =
    env.GITHUB_GRAPHQL_URL ||
    (/\/api\/v3$/.test(apiUrl) ? apiUrl.replace(/\/api\/v3$/, '/api/graphql') : `${apiUrl}/graphql`)
  return { apiUrl, graphqlUrl }
}
