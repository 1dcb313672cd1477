import { readRecord, type ScannedFile } from './scan-stores.js';
import { type PreparedRecord, preparedRecordOf } from './write-records.js';

/**
 * The shared counters of a parallel build read (read-records-parallel.ts and its worker),
 * indexes into one Int32Array over a SharedArrayBuffer. Chunks are claimed with Atomics.add
 * on CLAIMED, so the answering thread and the worker never read the same chunk; WRITTEN
 * bounds how far ahead of the inserts anyone reads (memory: a build holds a few chunks, not
 * the corpus); POSTED wakes the answering thread when the worker posted a chunk.
 */
export const CLAIMED = 0;
export const WRITTEN = 1;
export const POSTED = 2;
export const COUNTERS = 3;

/** What the answering thread hands the worker once, with a port it reads synchronously. */
export interface ReadRecordsWork {
  files: ScannedFile[];
  chunk: number;
  lookahead: number;
  counters: SharedArrayBuffer;
}

/**
 * One chunk as the worker read it: each file's prepared record, or null when it is gone or no
 * longer a regular file. `failed`: something threw (EACCES, …): the answering thread reads
 * that chunk again itself, so the error is thrown where it always was.
 */
export type ReadRecordsChunk =
  | { index: number; records: (PreparedRecord | null)[] }
  | { index: number; failed: true };

/** Chunk `index` of `files`, `size` files to a chunk: the unit both threads claim and read. */
export const chunkOf = (files: ScannedFile[], index: number, size: number): ScannedFile[] =>
  files.slice(index * size, (index + 1) * size);

/**
 * Reads and prepares a chunk's files, on either thread: each file's prepared record, or null
 * when it is gone or no longer a regular file. Throws what readRecord throws.
 */
export const readPreparedChunk = (files: ScannedFile[]): (PreparedRecord | null)[] =>
  files.map((file) => {
    const entry = readRecord(file);
    return entry ? preparedRecordOf(entry) : null;
  });
