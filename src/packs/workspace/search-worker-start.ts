import type { Worker } from 'node:worker_threads';
import { startSiblingWorker } from '../../core/start-sibling-worker.js';

/** A search holds at most one file (32 MiB) and its decoded text at a time. */
const WORKER_HEAP_MB = 512;

/** Starts a search worker (grep-worker.ts). */
export function startSearchWorker(): Worker {
  return startSiblingWorker(import.meta.url, 'grep-worker', {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
}
