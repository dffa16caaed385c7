// The one digest the project takes of what it builds from and writes: SHA-256, in one call (a Hash object per
// digest cost a third more on the daily run's 30,000 small digests).
import { hash } from 'node:crypto'

export function sha256(data: string | Uint8Array, encoding: 'hex' | 'base64' = 'hex'): string {
  return hash('sha256', data, encoding)
}
