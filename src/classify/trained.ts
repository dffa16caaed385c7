// The committed model (`npm run train` writes ./model.json; the bundler inlines it).
import { createHash } from 'node:crypto'
import model from './model.json' with { type: 'json' }
import type { Model } from './model.js'

export const MODEL: Model = model as unknown as Model

/** The model's identity: a digest of all of it (header, weights, thresholds), computed once. */
export const MODEL_ID = createHash('sha256').update(JSON.stringify(model)).digest('hex').slice(0, 8)
