import { createHash } from 'node:crypto';
import { read, readSync } from 'node:fs';
import { isBinary } from './tools/workspace-context.js';

const CHUNK_BYTES = 1024 * 1024;

/**
 * The first this-many bytes of a file are read with synchronous calls, the rest through the
 * thread pool. A source file is read whole in one or two system calls (~µs each), where every
 * thread-pool round trip costs more than the read itself on a busy machine (the per-call
 * profile in bench/workspace); a large file still streams, so other calls run between chunks.
 */
export const SYNC_READ_BYTES = 256 * 1024;

/**
 * One read at the descriptor's position: synchronous while the file is still small, through
 * the thread pool past SYNC_READ_BYTES.
 */
export function readChunk(fd: number, into: Buffer, readSoFar: number): number | Promise<number> {
  if (readSoFar + into.length <= SYNC_READ_BYTES) return readSync(fd, into, 0, into.length, null);
  return new Promise((resolve, reject) =>
    read(fd, into, 0, into.length, null, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );
}

/**
 * A read buffer for a file of `size` bytes (its fstat): one byte more than the file, so the
 * end shows in the first read when it did not grow, at most CHUNK_BYTES.
 */
export function chunkFor(size: number): Buffer {
  return Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(size + 1, 4096)));
}

/**
 * Whether a read reached the end of a file whose fstat said `size` bytes, so no further read
 * (which would return 0) is needed: it returned less than it asked for, with everything up to
 * that size read. A short read before that size (a signal, an odd file system) reads on; a
 * file that grew since its fstat is read to where the read stopped, as a second read would have.
 */
export function reachedEnd(bytesRead: number, asked: number, readSoFar: number, size: number): boolean {
  return bytesRead < asked && readSoFar >= size;
}

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
  signal?: AbortSignal | undefined;
}

/**
 * Streams a file once from its open descriptor (`size`: its fstat): sha256, byte count and line
 * count of the whole file, and keeps only the requested window in memory. A 50 MB file costs one
 * chunk of memory, not 50 MB plus its decoded string plus an array of its lines; past
 * SYNC_READ_BYTES reads go through the thread pool, so other calls run between chunks.
 */
export async function readFileWindow(fd: number, size: number, request: WindowRequest): Promise<FileWindow> {
  const hash = createHash('sha256');
  const chunk = chunkFor(size);
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
    const pending = readChunk(fd, chunk, bytes);
    // Only a read through the thread pool yields: an abort can arrive only then. (Reading the
    // signal on a small, synchronous read would make the call create it: issue 22.)
    const bytesRead = typeof pending === 'number' ? pending : await pending;
    if (typeof pending !== 'number') request.signal?.throwIfAborted();
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
    if (reachedEnd(bytesRead, chunk.length, bytes, size)) break;
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
