import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { isBinary } from './tools/workspace-context.js';

const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

export interface FileWindow {
  bytes: number;
  sha256: string;
  /** Lines as an editor counts them: a trailing newline does not start another line. */
  totalLines: number;
  endsWithNewline: boolean;
  /** A NUL byte in the first 8000 bytes; no window is kept then. */
  binary: boolean;
  /** Raw bytes from the start of `startLine` through the end of `endLine` (its newline included), at most `maxBytes`. */
  window: Buffer;
  /** The window stopped at `maxBytes` before reaching the end of `endLine`. */
  windowCapped: boolean;
}

export interface WindowRequest {
  startLine: number;
  /** Inclusive; undefined: to the end of the file. */
  endLine?: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * Streams a file once: sha256, byte count and line count of the whole file, and keeps only
 * the requested window in memory. A 50 MB file costs one chunk of memory, not 50 MB plus
 * its decoded string plus an array of its lines; reads go through the thread pool, so other
 * calls run between chunks.
 */
export async function readFileWindow(handle: FileHandle, request: WindowRequest): Promise<FileWindow> {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let windowCapped = false;
  let bytes = 0;
  let newlines = 0;
  let lastByte = -1;
  let binary = false;
  // The line the next byte belongs to (1-based).
  let line = 1;
  const endLine = request.endLine ?? Number.POSITIVE_INFINITY;
  const keep = (piece: Buffer) => {
    if (windowCapped || piece.length === 0) return;
    const room = request.maxBytes - keptBytes;
    if (piece.length > room) windowCapped = true;
    const taken = Buffer.from(piece.subarray(0, Math.min(room, piece.length)));
    kept.push(taken);
    keptBytes += taken.length;
  };
  for (;;) {
    request.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    const data = chunk.subarray(0, bytesRead);
    if (bytes === 0 && isBinary(data)) binary = true;
    hash.update(data);
    bytes += bytesRead;
    lastByte = data[bytesRead - 1] as number;
    // One indexOf per line, one copy per chunk: the window is a contiguous run of bytes.
    const inWindow = !binary && line >= request.startLine && line <= endLine;
    let from = inWindow ? 0 : -1;
    let at = 0;
    for (let newline = data.indexOf(NEWLINE); newline !== -1; newline = data.indexOf(NEWLINE, at)) {
      newlines += 1;
      line += 1;
      at = newline + 1;
      if (!binary && line === request.startLine) from = at;
      if (line === endLine + 1 && from !== -1) {
        keep(data.subarray(from, at));
        from = -1;
      }
    }
    if (from !== -1) keep(data.subarray(from, bytesRead));
  }
  return {
    bytes,
    sha256: hash.digest('hex'),
    totalLines: newlines + (bytes > 0 && lastByte !== NEWLINE ? 1 : 0),
    endsWithNewline: lastByte === NEWLINE,
    binary,
    window: binary ? Buffer.alloc(0) : Buffer.concat(kept, keptBytes),
    windowCapped,
  };
}
