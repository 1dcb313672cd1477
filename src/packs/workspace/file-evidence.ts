import { createHash } from 'node:crypto';
import { closeSync, type Stats } from 'node:fs';
import { openRegularFileSync } from './open-regular-file.js';
import { chunkFor, reachedEnd, readChunk } from './read-file-window.js';

export interface FileEvidence {
  bytes: number;
  sha256: string;
}

/**
 * Bytes and sha256 of what is on disk now — read back, never computed from the input.
 * Streamed, and only from a regular file (what was renamed into place could have been swapped):
 * lstat, a no-follow non-blocking open and the descriptor's fstat, synchronous like the reads
 * of a small file (see SYNC_READ_BYTES); a large file streams through the thread pool.
 */
export async function readBackEvidence(absolute: string, relative = absolute): Promise<FileEvidence> {
  const { fd, stats } = openRegularFileSync(absolute, relative);
  try {
    return await hashDescriptor(fd, stats);
  } finally {
    closeSync(fd);
  }
}

/** Bytes and sha256 of an open regular file, read from its start to its end (the caller closes it). */
export async function hashDescriptor(fd: number, stats: Stats): Promise<FileEvidence> {
  const hash = createHash('sha256');
  const chunk = chunkFor(stats.size);
  let bytes = 0;
  for (;;) {
    const pending = readChunk(fd, chunk, bytes);
    const bytesRead = typeof pending === 'number' ? pending : await pending;
    if (bytesRead === 0) break;
    hash.update(chunk.subarray(0, bytesRead));
    bytes += bytesRead;
    if (reachedEnd(bytesRead, chunk.length, bytes, stats.size)) break;
  }
  return { bytes, sha256: hash.digest('hex') };
}

export function evidenceVia(tool: string, relative: string, evidence: FileEvidence): string {
  return `${tool} ${relative} sha256=${evidence.sha256.slice(0, 12)} (${evidence.bytes} bytes)`;
}
