// 404.html is served for unknown paths at any depth, so relative links would
// resolve against the wrong directory. It links root-relative through the base
// path of the published site (e.g. "/repo/" on a GitHub project site, "/" locally).
import { paths } from '../paths.js'
import { layout } from './layout.js'

/** Only plain path characters: a base path lands in href attributes verbatim. */
const SAFE_PATH = /^\/(?:[A-Za-z0-9._~%-]+\/)*$/

/**
 * The path of the site root, from the base URL or from a record's page URL
 * ("https://o.github.io/repo/apps/x/" → "/repo/"). Falls back to "/".
 */
export function basePathOf(url: string | null | undefined, slug?: string): string {
  if (!url) return '/'
  let path: string
  try {
    path = new URL(url).pathname
  } catch {
    return '/'
  }
  if (slug !== undefined) {
    const tail = paths.pageDir(slug)
    if (!path.endsWith(tail)) return '/'
    path = path.slice(0, -tail.length)
  }
  if (!path.endsWith('/')) path += '/'
  return SAFE_PATH.test(path) ? path : '/'
}

export function renderNotFound(input: { basePath: string; generatedAt: string }): string {
  const root = SAFE_PATH.test(input.basePath) ? input.basePath : '/'
  return layout({
    title: 'Page not found – updatesafe',
    description: 'This page does not exist.',
    root,
    main: `<h1>Page not found</h1>
<p>Nothing is published at this address. App pages live at <code>apps/&lt;slug&gt;/</code>.</p>
<ul>
<li><a href="${root}">See every app</a></li>
<li><a href="${root}${paths.catalog}">The whole catalog as JSON</a></li>
</ul>\n`,
    generatedAt: input.generatedAt
  })
}
