// `describe` for tests that read the shared data set (./shared-data.ts): where it is absent they are skipped, the
// path in their name. Under CI=true its absence is an error, unless the run says it has no data set
// (UPDATESAFE_SHARED_DATA_ABSENT=true: GitHub's CI on a public clone), where .ci/run lets exactly these skips pass.
import { describe as jestDescribe, it as jestIt } from '@jest/globals'
import { HAS_SHARED_DATA, RELEASE_NOTES } from './shared-data.js'

if (!HAS_SHARED_DATA) {
  const message = `the shared data set is missing: ${RELEASE_NOTES} (tests that read real release notes need it)`
  if (process.env.CI === 'true' && process.env.UPDATESAFE_SHARED_DATA_ABSENT !== 'true') throw new Error(message)
  console.warn(`${message}; those tests are skipped`)
}

export const describe: typeof jestDescribe = HAS_SHARED_DATA
  ? jestDescribe
  : (Object.assign(
      // The body is not run: it may read the data set while collecting its tests. One skipped test stands for it.
      (name: string) =>
        jestDescribe.skip(`${name} (skipped: needs ${RELEASE_NOTES})`, () => {
          jestIt.skip('reads the shared data set', () => undefined)
        }),
      jestDescribe
    ) as typeof jestDescribe)

/** `it` for one test that reads the data set, in a file whose other tests do not. */
export const it: typeof jestIt = HAS_SHARED_DATA
  ? jestIt
  : (Object.assign(
      (name: string, fn?: () => unknown, timeout?: number) =>
        jestIt.skip(`${name} (skipped: needs ${RELEASE_NOTES})`, fn as () => void, timeout),
      jestIt
    ) as typeof jestIt)
