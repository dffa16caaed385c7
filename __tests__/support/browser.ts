// Shared helpers for the tests that drive a real browser: Debian's chromium via
// playwright-core. Without chromium the suites skip with a message, except in
// CI (CI=true), where a missing browser is a failing test.
import { describe, expect, test } from '@jest/globals'
import { existsSync } from 'node:fs'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { CHROMIUM } from './chromium.js'

export { CHROMIUM, launchChromium } from './chromium.js'

/**
 * `describe` when chromium is installed; otherwise `describe.skip`, after
 * registering a failing test in CI or printing why the suite is skipped.
 */
export function browserDescribe(what: string): typeof describe | typeof describe.skip {
  if (existsSync(CHROMIUM)) return describe
  if (process.env.CI === 'true') {
    test(`chromium is installed (required in CI for ${what})`, () => {
      throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium`)
    })
  } else {
    console.warn(
      `SKIPPED ${what}: ${CHROMIUM} not found (apt-get install -y --no-install-recommends chromium). They never skip when CI=true.`
    )
  }
  return describe.skip
}

/** Evaluate an expression in the page. Written as a string: the project's TypeScript has no DOM types. */
export async function inPage<T = unknown>(page: Page, expression: string): Promise<T> {
  return (await page.evaluate(expression)) as T
}

export interface Visit {
  page: Page
  /** Console errors and warnings, page errors, failed or off-site requests, HTTP errors of subresources. */
  problems: string[]
  close(): Promise<void>
}

export type VisitFn = (path: string, opts?: BrowserContextOptions, expectStatus?: number) => Promise<Visit>

/**
 * Returns `visit(path)`: open `origin + path` in a fresh context, check the
 * document's status and record every problem the page runs into.
 */
export function visitor(browser: Browser, origin: string): VisitFn {
  return async function visit(path: string, opts: BrowserContextOptions = {}, expectStatus = 200): Promise<Visit> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`))
    page.on('request', (r) => {
      if (!r.url().startsWith(origin + '/')) problems.push(`off-site request: ${r.url()}`)
    })
    page.on('response', (r) => {
      if (r.status() >= 400 && r.request().isNavigationRequest() === false)
        problems.push(`HTTP ${r.status()}: ${r.url()}`)
    })
    const res = await page.goto(origin + path, { waitUntil: 'load' })
    expect(res?.status()).toBe(expectStatus)
    return { page, problems, close: () => context.close() }
  }
}
