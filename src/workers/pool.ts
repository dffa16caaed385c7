// A few worker threads running one thread bundle (src/worker.ts or src/writer.ts),
// started on first use. Node gives no pool of its own; this one only spreads tasks over
// threads and hands back results or errors.
import { Worker } from 'node:worker_threads'
import type { ReplyMessage, TaskMessage } from './serve.js'
import type { Task, TaskResults } from './tasks.js'

export interface WorkerPool {
  readonly size: number
  /** Whether any thread has been started (the first task starts them all). */
  readonly started: boolean
  run<T extends Task>(task: T): Promise<TaskResults[T['kind']]>
  /** Stop every thread; tasks still running are rejected. */
  close(): Promise<void>
  /**
   * Stop the threads, rejecting tasks still running; the next task starts fresh
   * ones. An idle thread keeps the heap its past tasks grew, garbage included
   * (V8 does not shrink it), so a new phase of work costs less memory on new threads.
   */
  recycle(): Promise<void>
}

interface Slot {
  worker: Worker
  waiting: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>
}

/** `script` is the worker entry: a file that calls serveTasks(). */
export function workerPool(script: string | URL, size: number): WorkerPool {
  let slots: Slot[] = []
  let broken: Error | null = null
  let nextId = 1

  function fail(slot: Slot, error: Error): void {
    broken ??= error
    for (const w of slot.waiting.values()) w.reject(error)
    slot.waiting.clear()
  }

  function start(): void {
    slots = Array.from({ length: size }, () => {
      // A small young generation: a thread's garbage is short-lived (notes, write batches),
      // and at 10,000 apps this cut the build's peak RSS by about 25 MB at no cost in time.
      const worker = new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: 4 } })
      const slot: Slot = { worker, waiting: new Map() }
      worker.unref()
      worker.on('message', (reply: ReplyMessage) => {
        const w = slot.waiting.get(reply.id)
        if (!w) return
        slot.waiting.delete(reply.id)
        if (slot.waiting.size === 0) worker.unref()
        if (reply.ok) w.resolve(reply.result)
        else
          w.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name, stack: reply.error.stack }))
      })
      worker.on('error', (e) => fail(slot, e))
      worker.on('exit', (code) => fail(slot, new Error(`a worker thread exited (code ${code})`)))
      return slot
    })
  }

  /** Take every thread out of the pool and stop it, after `each` has run on its slot. */
  async function stopAll(each: (slot: Slot) => void = () => {}): Promise<void> {
    const all = slots
    slots = []
    all.forEach(each)
    await Promise.all(all.map((s) => s.worker.terminate()))
  }

  return {
    size,
    get started() {
      return slots.length > 0
    },
    run<T extends Task>(task: T): Promise<TaskResults[T['kind']]> {
      if (broken) return Promise.reject(broken)
      if (slots.length === 0) start()
      // The least busy thread; ties go to the first.
      const slot = slots.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a))
      const id = nextId++
      return new Promise((resolve, reject) => {
        slot.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
        // A thread with work keeps the process alive; an idle one does not.
        slot.worker.ref()
        slot.worker.postMessage({ id, task } satisfies TaskMessage)
      })
    },
    recycle: () =>
      stopAll((slot) => {
        // Its exit is ours, not a failure of the pool.
        slot.worker.removeAllListeners()
        for (const w of slot.waiting.values()) w.reject(new Error('the worker thread was recycled'))
      }),
    close() {
      broken ??= new Error('the worker pool was closed')
      return stopAll()
    }
  }
}
