import type { Worker } from 'node:worker_threads';
import { startSiblingWorker } from '../../core/start-sibling-worker.js';

/** Starts the records sweep's worker (sweep-worker.ts). */
export function startSweepWorker(): Worker {
  return startSiblingWorker(import.meta.url, 'sweep-worker');
}
