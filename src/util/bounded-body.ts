// An HTTP body read as a stream, never past a size cap and never past a time bound: an endless
// body, a gzip bomb (the cap counts the bytes after decompression, which is what fetch streams)
// or a body that drips forever is cut off; a body shorter than its Content-Length is cut short.
// Each ends as a reason in words, for a message that names the URL.
import { causeCode } from './network.js'

export type BodyRead = { bytes: Buffer } | { cut: string }

/**
 * The body of `res`, at most `maxBytes` bytes, read while `signal` has not fired. `signal` is the
 * request's own (its timeout), so one bound covers the headers and the body.
 */
export async function readBoundedBody(
  res: Response,
  maxBytes: number,
  signal: AbortSignal,
  timeoutMs: number
): Promise<BodyRead> {
  const mib = `${maxBytes / (1024 * 1024)} MiB`
  const declared = res.headers.get('content-length')
  const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : null
  // A compressed body's Content-Length counts the compressed bytes; only a plain one can be compared.
  const plain = (res.headers.get('content-encoding') ?? 'identity').toLowerCase() === 'identity'
  if (plain && length !== null && length > maxBytes) {
    await res.body?.cancel().catch(() => {})
    return { cut: `is ${length} bytes (Content-Length), larger than the ${mib} allowed` }
  }
  if (!res.body) return { bytes: Buffer.alloc(0) }
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  // The fetch's signal stops the body too, but a reader waiting on a silent socket is also raced
  // against it here, so the bound holds whatever the HTTP stack does with an abort mid-body.
  let onAbort: () => void = () => {}
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted')
    if (signal.aborted) resolve('aborted')
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  const cancel = () => reader.cancel().catch(() => {})
  try {
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>> | 'aborted'
      try {
        step = await Promise.race([reader.read(), aborted])
      } catch (e) {
        if (signal.aborted) step = 'aborted'
        else {
          await cancel()
          const of = plain && length !== null ? ` of the ${length} bytes announced` : ''
          return { cut: `was cut off after ${size} bytes${of} (${describe(e)})` }
        }
      }
      if (step === 'aborted') {
        await cancel()
        return { cut: `did not arrive within ${timeoutMs / 1000} s (${size} bytes read, then cut off)` }
      }
      if (step.done) break
      size += step.value.byteLength
      if (size > maxBytes) {
        await cancel()
        return {
          cut: `is larger than the ${mib} allowed${plain ? '' : ' once decompressed'} (cut off there)`
        }
      }
      chunks.push(step.value)
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
  if (plain && length !== null && size !== length)
    return { cut: `was cut off after ${size} bytes of the ${length} bytes announced` }
  return { bytes: Buffer.concat(chunks, size) }
}

/** An error mid-body in words: the first code along its cause chain, else its message. */
function describe(error: unknown): string {
  return causeCode(error) ?? (error as Error)?.message ?? String(error)
}
