// `--resolve-images` reads a registry a Compose file names, so its answers are hostile input: a
// manifest larger than the cap is cut off while it streams, not read whole first.
import { describe, expect, it } from '@jest/globals'
import { imageSourceLabel } from '../../src/check/oci.js'

const MiB = 1024 * 1024

/** A body of `total` bytes in 64 KiB chunks, no Content-Length; `pulled()` says how much was read. */
function streamed(total: number): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0
  const chunk = new Uint8Array(64 * 1024).fill(0x20)
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close()
      sent += chunk.byteLength
      controller.enqueue(chunk)
    }
  })
  return { body, pulled: () => sent }
}

describe('imageSourceLabel', () => {
  it('cuts a manifest off at the cap while it streams, and says so', async () => {
    const huge = streamed(256 * MiB)
    const fakeFetch = (async () =>
      new Response(huge.body, { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch
    const r = await imageSourceLabel(
      { name: 'registry.demo.test/demo/app', tag: '1.0', digest: null },
      { fetch: fakeFetch }
    )
    expect(r).toEqual({
      why: expect.stringMatching(/registry could not be read: .*manifests\/1\.0 is larger than the 4 MiB allowed/)
    })
    expect(huge.pulled()).toBeLessThan(8 * MiB)
  })

  it('refuses a manifest whose Content-Length is past the cap without reading it', async () => {
    const huge = streamed(256 * MiB)
    const fakeFetch = (async () =>
      new Response(huge.body, {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-length': String(100 * MiB) }
      })) as typeof fetch
    const r = await imageSourceLabel(
      { name: 'registry.demo.test/demo/app', tag: '1.0', digest: null },
      { fetch: fakeFetch }
    )
    expect(r).toEqual({ why: expect.stringMatching(/is \d+ bytes \(Content-Length\), larger than the 4 MiB/) })
    expect(huge.pulled()).toBeLessThan(MiB)
  })
})
