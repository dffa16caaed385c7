// Debian's chromium, launched headless the one way the browser tests and the README screenshots
// (scripts/screenshots.mjs) both use. No Jest import here, so the script can use it too.
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
]

/** `extra`: more switches, e.g. `--host-resolver-rules` to reach the test server by a name that is not loopback. */
export function launchChromium(extra: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extra] })
}
