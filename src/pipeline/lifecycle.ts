// End-of-life data for the build: one endoflife.date product document per product
// and run (refreshed when asked, else the stored copy), and each app's lifecycle from it.
import path from 'node:path'
import { buildLifecycle } from '../lifecycle/index.js'
import type { Lifecycle } from '../schema/index.js'
import { readStoredProduct, writeStoredProduct, type EndoflifeProduct } from '../upstream/endoflife.js'
import type { Logger } from '../util/types.js'
import type { AppFacts } from './facts.js'

export type ProductDocs = Map<string, EndoflifeProduct | null>

/** One product document per product and run: refreshed when asked, else the stored copy. */
export async function productDocs(
  apps: AppFacts[],
  catalogDir: string,
  fetchProduct: ((product: string) => Promise<EndoflifeProduct>) | undefined,
  log: Logger
): Promise<ProductDocs> {
  const dir = path.join(catalogDir, 'endoflife')
  const docs: ProductDocs = new Map()
  for (const product of new Set(apps.flatMap((a) => (a.entry.lifecycle ? [a.entry.lifecycle.product] : [])))) {
    let doc: EndoflifeProduct | null = null
    if (fetchProduct) {
      try {
        doc = await fetchProduct(product)
      } catch (e) {
        log.warning(`endoflife.date product "${product}": ${(e as Error).message}; using the stored copy`)
      }
      // Keep the fresh data for this build even if storing it for the next offline build fails.
      if (doc)
        await writeStoredProduct(dir, product, doc).catch((e: Error) =>
          log.warning(`could not store endoflife.date data for "${product}": ${e.message}`)
        )
    }
    doc ??= await readStoredProduct(dir, product).catch((e: Error) => {
      log.warning(`stored endoflife.date data for "${product}" is unreadable: ${e.message}`)
      return null
    })
    docs.set(product, doc)
  }
  return docs
}

/** The lifecycle of `version` of an app, or what was published before when there is no data at all. */
export function lifecycleFor(
  app: AppFacts,
  version: string,
  docs: ProductDocs,
  now: Date,
  log: Logger
): Lifecycle | null {
  const product = app.entry.lifecycle?.product
  if (!product) return null
  const doc = docs.get(product)
  if (!doc) {
    // No data at all: keep what was published before rather than drop it.
    if (app.kept?.lifecycle) return app.kept.lifecycle
    log.warning(`${app.slug}: no endoflife.date data for product "${product}"`, { file: app.file })
    return null
  }
  const { lifecycle, warning } = buildLifecycle(
    product,
    doc,
    version,
    now,
    app.entry.tagPrefix ? { tagPrefix: app.entry.tagPrefix } : {}
  )
  if (warning) log.warning(`${app.slug}: ${warning}`, { file: app.file })
  return lifecycle
}
