// The app page's "Upgrading from an older version?" table in a real browser: a chain of three
// snapshots (the middle release breaking), served by the preview server, loaded in chromium.
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { createSiteHandler } from '../../src/output/serve.js'
import type { Logger } from '../../src/util/types.js'
import { browserDescribe, inPage, launchChromium, visitor } from '../support/browser.js'
import { buildChain, writeDemoCatalog } from '../support/demo-chain.js'
import { tempDir } from '../support/tmp.js'

const log: Logger = { info: () => {}, warning: () => {}, error: () => {} }

browserDescribe('the upgrade table')('the upgrade table in chromium', () => {
  let browser: Browser
  let server: http.Server
  let origin: string
  let cleanup: () => Promise<void>

  beforeAll(async () => {
    const t = await tempDir('updatesafe-upgrade-')
    cleanup = t.cleanup
    server = http.createServer(createSiteHandler(path.join(t.dir, 's3')))
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    await writeDemoCatalog(t.dir)
    await buildChain(t.dir, origin, log)
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((ok) => server.close(ok))
    await cleanup()
  })

  test('names its two class columns on a phone, where the header row is hidden', async () => {
    const v = await visitor(browser, origin)('/apps/demo/', { viewport: { width: 375, height: 740 } })
    const labels = await inPage<string[]>(
      v.page,
      `[...document.querySelectorAll('table.upgrade tbody tr:nth-child(2) td')].map((td) => getComputedStyle(td, '::before').content)`
    )
    expect(labels).toEqual(['"That release"', '"Updating from it to the latest"'])
    // Each cell takes the row's width: the two classes are not side by side, unlabelled.
    const widths = await inPage<number[]>(
      v.page,
      `[...document.querySelectorAll('table.upgrade tbody tr:nth-child(2) td')].map((td) => Math.round(td.getBoundingClientRect().width))`
    )
    expect(widths[0]).toBe(widths[1])
    // On a wide screen the header row names them, and the cells carry no label of their own.
    const wide = await visitor(browser, origin)('/apps/demo/', {})
    const none = await inPage<string[]>(
      wide.page,
      `[...document.querySelectorAll('table.upgrade tbody tr:nth-child(2) td')].map((td) => getComputedStyle(td, '::before').content)`
    )
    expect(none).toEqual(['none', 'none'])
  })

  test('lists each judged release with its class, its words and the verdict from it, without console errors', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const v = await visitor(browser, origin)('/apps/demo/', { javaScriptEnabled })
      const rows = await inPage<string[][]>(
        v.page,
        `[...document.querySelectorAll('table.upgrade tbody tr')].map((tr) => [...tr.children].map((c) => c.innerText.replace(/\\s+/g, ' ').trim()))`
      )
      expect(rows.map((r) => r[0]!.split(' ')[0])).toEqual(['v1.2.0', 'v1.1.0', 'v1.0.0'])
      // The latest release's row says you run the latest, not the verdict of a release (issue 50).
      expect(rows[0]![2]).toBe('You run the latest release: nothing to update.')
      expect(rows[1]![1]).toMatch(/^Breaking required step/)
      expect(rows[1]![1]).toContain('LEGACY_AUTH')
      expect(rows[2]![2]).toMatch(/^Breaking decided by v1\.1\.0/)
      const heading = await inPage<string>(v.page, `document.getElementById('upgrade-h').textContent`)
      expect(heading).toBe('Upgrading from an older version?')
      // The table has a caption-like label and header cells a screen reader can name.
      const headers = await inPage<number>(
        v.page,
        `document.querySelectorAll('table.upgrade thead th[scope=col]').length`
      )
      expect(headers).toBe(3)
      // With a script, a picker of the version you run narrows the table to that row; without, all rows stay.
      const picker = await inPage<boolean>(v.page, `document.getElementById('from-version') !== null`)
      expect(picker).toBe(javaScriptEnabled)
      if (javaScriptEnabled) {
        await v.page.selectOption('#from-version', 'v1.0.0')
        const visible = await inPage<string[]>(
          v.page,
          `[...document.querySelectorAll('table.upgrade tbody tr')].filter((tr) => !tr.hidden).map((tr) => tr.dataset.v)`
        )
        expect(visible).toEqual(['v1.0.0'])
        // Picking the latest release shows its row alone, which says so.
        await v.page.selectOption('#from-version', 'v1.2.0')
        const shown = await inPage<string[]>(
          v.page,
          `[...document.querySelectorAll('table.upgrade tbody tr')].filter((tr) => !tr.hidden).map((tr) => tr.children[2].innerText.trim())`
        )
        expect(shown).toEqual(['You run the latest release: nothing to update.'])
      }
      expect(v.problems).toEqual([])
      await v.close()
    }
  }, 60_000)
})
