// The worker side of the pool: answers each task message with its result or error.
import { parentPort } from 'node:worker_threads'
import type { Task } from './tasks.js'

export interface TaskMessage {
  id: number
  task: Task
}

export type ReplyMessage =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { name: string; message: string; stack?: string } }

/** Answer the parent's task messages with `run` (the entry bundle chooses which tasks it can run, and so what it loads). */
export function serveTasks(run: (task: Task) => unknown): void {
  const port = parentPort
  if (!port) throw new Error('serveTasks runs only in a worker thread')
  port.on('message', ({ id, task }: TaskMessage) => {
    let reply: ReplyMessage
    try {
      reply = { id, ok: true, result: run(task) }
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e))
      reply = {
        id,
        ok: false,
        error: { name: err.name, message: err.message, ...(err.stack ? { stack: err.stack } : {}) }
      }
    }
    port.postMessage(reply)
  })
}
