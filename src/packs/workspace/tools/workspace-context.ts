import type { AtomicWriteHooks } from '../atomic-write.js';
import type { ProjectRoot } from '../project-root.js';

/** What the workspace tools of one run share. */
export interface WorkspaceContext {
  root: ProjectRoot;
  /** Test seam for the check-then-write race. */
  writeHooks?: AtomicWriteHooks;
  /** Deadline of one fs_grep search (default SEARCH_TIMEOUT_MS, 8 s). */
  searchTimeoutMs?: number;
}

export const MAX_READ_BYTES = 256 * 1024;

export function isBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0);
}
