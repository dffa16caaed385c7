// The page shell shared by every HTML page: strict CSP, external CSS/JS only.
import { paths } from '../paths.js'
import { escapeMarkup, formatTimestamp } from './text.js'

/**
 * No inline script or style anywhere, no third-party origin. `meta` cannot carry
 * frame-ancestors; everything else a static site needs is here.
 */
export const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'"

export interface LayoutInput {
  /** Already plain text (cleaned); escaped here. */
  title: string
  description: string
  /** Prefix that reaches the site root from this page: '', '../../' or an absolute path like '/repo/'. */
  root: string
  /** Escaped HTML of <main>'s content. */
  main: string
  /**
   * When the snapshot last changed, for pages about the whole catalog. App pages leave it out: their own
   * "Last checked" says how fresh they are, and a page that did not change keeps its bytes from run to run.
   */
  generatedAt?: string
  /** Extra escaped HTML for <head> (e.g. feed links). */
  head?: string
  /** Show the feed link in the footer. */
  feeds?: boolean
}

export function layout(p: LayoutInput): string {
  const r = escapeMarkup(p.root)
  const home = r === '' ? './' : r
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${escapeMarkup(p.title)}</title>
<meta name="description" content="${escapeMarkup(p.description)}">
<link rel="icon" href="${r}${paths.asset('icon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${r}${paths.asset('site.css')}">
<script src="${r}${paths.asset('site.js')}" defer></script>
${p.head ?? ''}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="wrap"><a class="brand" href="${home}">updatesafe</a><span class="muted">Is the newest release safe to install?</span></div></header>
<main id="main" class="wrap">
${p.main}</main>
<footer><div class="wrap"><p>${p.generatedAt === undefined ? 'Data' : `Data last changed ${escapeMarkup(formatTimestamp(p.generatedAt))},`} from upstream release notes. Classes are advice, not a guarantee: read the notes.</p><p><a href="${r}${paths.catalog}">JSON API</a>${p.feeds ? ` · <a href="${r}${paths.feed}">Atom feed</a>` : ''}</p></div></footer>
</body>
</html>
`
}
