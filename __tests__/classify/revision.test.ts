// Verdicts found in the previous snapshot are reused while the classifier's digest holds (the model and
// JUDGING_REVISION). So any change to what a judgement says must come with a new digest, or yesterday's
// words stay published. Recorded here: the digest of every real note's judgement, per classifier digest.
// A change of output under the same digest fails; renew the recording (UPDATE_GOLDEN=1 npm test --
// revision.test) only after bumping JUDGING_REVISION (or retraining the model), which it checks.
import { expect, it } from '@jest/globals'
import { describe } from '../support/needs-shared-data.js'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { CLASSIFIER_DIGEST, classifyReleases, JUDGING_REVISION } from '../../src/classify/index.js'
import { NOTES } from './fixtures.js'

const RECORDED = new URL('../fixtures/judgements.json', import.meta.url)

describe('the classifier digest names what its judgements say', () => {
  it('the real notes judge as recorded for this digest', () => {
    const hash = createHash('sha256')
    for (const n of NOTES)
      hash.update(`${JSON.stringify(classifyReleases({ releases: [{ version: n.version, notes: n.notes }] }))}\n`)
    const judged = hash.digest('hex')
    const recorded = JSON.parse(readFileSync(RECORDED, 'utf8')) as {
      classifier: string
      revision: number
      judgements: string
    }
    const same = recorded.classifier === CLASSIFIER_DIGEST
    if (process.env.UPDATE_GOLDEN === '1' && !same) {
      writeFileSync(
        RECORDED,
        `${JSON.stringify({ classifier: CLASSIFIER_DIGEST, revision: JUDGING_REVISION, judgements: judged }, null, 2)}\n`
      )
      return
    }
    // Another digest unrecorded: the model or the revision changed; record its judgements.
    expect({ classifier: CLASSIFIER_DIGEST, recorded: same }).toEqual({ classifier: CLASSIFIER_DIGEST, recorded: true })
    // The same digest, other judgements: bump JUDGING_REVISION in src/classify/classifier.ts.
    expect({ revision: JUDGING_REVISION, judgements: judged }).toEqual({
      revision: recorded.revision,
      judgements: recorded.judgements
    })
  })
})
