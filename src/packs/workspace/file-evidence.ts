import { createHash } from 'node:crypto';
import { openRegularFile } from './open-regular-file.js';

export interface FileEvidence {
  bytes: number;
  sha256: string;
}

const CHUNK_BYTES = 1024 * 1024;

/**
 * Bytes and sha256 of what is on disk now — read back, never computed from the input.
 * Streamed, and only from a regular file (what was renamed into place could have been swapped).
 */
export async function readBackEvidence(absolute: string, relative = absolute): Promise<FileEvidence> {
  const { handle } = await openRegularFile(absolute, relative);
  try {
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let bytes = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(chunk.subarray(0, bytesRead));
      bytes += bytesRead;
    }
    return { bytes, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}

export function evidenceVia(tool: string, relative: string, evidence: FileEvidence): string {
  return `${tool} ${relative} sha256=${evidence.sha256.slice(0, 12)} (${evidence.bytes} bytes)`;
}
