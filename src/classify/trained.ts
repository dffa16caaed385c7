// The committed model (`npm run train` writes ./model.json; the bundler inlines it).
import model from './model.json' with { type: 'json' }
import type { Model } from './model.js'

export const MODEL: Model = model as unknown as Model
