import type { StoreInfo } from './stores.js';

/** What the main thread asks the sweep's worker (sweep-worker.ts). */
export interface SweepRequest {
  root: string;
  stores: StoreInfo[];
  /** The index file, opened read-only by the worker for the snapshot. */
  indexPath: string;
  /** The snapshot's signature (root and store set) this source's index was checked with. */
  signature: string;
  /** Bumped by every full check on the main thread: the worker loads the snapshot again. */
  generation: number;
  /** Changed paths above which the worker answers `full` (RECORDS_DELTA_MAX). */
  max: number;
}

/** The changed paths, or `full` with why; `costMs`: the worker's CPU (or wall) for it. */
export type SweepReply = ({ paths: string[] } | { full: string }) & { costMs: number };

/** The reply's shape as the main thread takes it (the worker is ours, but a message is a boundary). */
export function isSweepReply(message: unknown): message is SweepReply {
  if (typeof message !== 'object' || message === null) return false;
  const reply = message as Record<string, unknown>;
  if (typeof reply.costMs !== 'number') return false;
  if (typeof reply.full === 'string') return true;
  return Array.isArray(reply.paths) && reply.paths.every((path) => typeof path === 'string');
}
