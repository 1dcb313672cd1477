import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { startSiblingWorker } from '../../core/start-sibling-worker.js';
import {
  CLAIMED,
  COUNTERS,
  chunkOf,
  POSTED,
  type ReadRecordsChunk,
  type ReadRecordsWork,
  readPreparedChunk,
  WRITTEN,
} from './read-records-protocol.js';
import type { ScannedFile } from './scan-stores.js';
import type { PreparedRecord } from './write-records.js';

/**
 * From this many files to read, a build reads with a worker thread beside the answering one:
 * starting a thread costs ~30–100 ms here, more than it saves on a few thousand records.
 */
export const PARALLEL_READ_MIN_FILES = 8_000;
/** Files per chunk: the unit claimed, posted and inserted. */
const CHUNK = 250;
/** How many chunks either thread may read ahead of the inserts (what a build holds in memory). */
const LOOKAHEAD = 8;
/**
 * How long the answering thread waits for a chunk the worker claimed before reading it itself:
 * a worker that died (its error event cannot arrive while this thread waits) costs this once.
 */
const STALLED_MS = 2_000;

export interface ParallelReadOptions {
  /** Read with a worker from this many files (PARALLEL_READ_MIN_FILES); tests lower it. */
  minFiles?: number;
  /**
   * False: with a worker, this thread reads only the chunks the worker failed or stalled on
   * (tests, so that they see the worker's reads); true by default.
   */
  readHere?: boolean;
}

/** Who read the chunks: `worker` counts those the worker's records were inserted from. */
export interface ParallelReadCounts {
  chunks: number;
  worker: number;
}

/**
 * Reads and prepares `files` a chunk at a time and hands each chunk to `insert`, in order,
 * on this thread (the index's connection is this thread's). With many files a worker thread
 * reads chunks too, so reading and parsing (about half of a large build) run beside the
 * inserts: both threads claim chunks from a shared counter, so if the worker cannot start or
 * is slow, this thread reads the rest itself; a chunk the worker failed on is read again here
 * (its error thrown as before). Each prepared record is null where the file is gone or no
 * longer a regular file. Synchronous: this thread waits with Atomics.wait, never the event loop.
 */
export function readRecordsInChunks(
  files: ScannedFile[],
  insert: (chunk: { files: ScannedFile[]; records: (PreparedRecord | null)[] }) => void,
  options: ParallelReadOptions = {},
): ParallelReadCounts {
  const chunkFiles = (index: number) => chunkOf(files, index, CHUNK);
  const chunks = Math.ceil(files.length / CHUNK);
  if (files.length < (options.minFiles ?? PARALLEL_READ_MIN_FILES)) {
    for (let index = 0; index < chunks; index++) {
      const part = chunkFiles(index);
      insert({ files: part, records: readPreparedChunk(part) });
    }
    return { chunks, worker: 0 };
  }
  // Required here: a build under the threshold (every warm query too) never loads it (~2.5 ms).
  const { MessageChannel, receiveMessageOnPort } = createRequire(import.meta.url)(
    'node:worker_threads',
  ) as typeof import('node:worker_threads');
  const counters = new Int32Array(new SharedArrayBuffer(COUNTERS * Int32Array.BYTES_PER_ELEMENT));
  const { port1, port2 } = new MessageChannel();
  const work: ReadRecordsWork = {
    files,
    chunk: CHUNK,
    lookahead: LOOKAHEAD,
    counters: counters.buffer as SharedArrayBuffer,
  };
  let worker: Worker | undefined;
  try {
    worker = startSiblingWorker(workerUrlBase(), 'read-records-worker', {
      workerData: { work, port: port2 },
      transferList: [port2],
    });
    worker.unref();
    // Errors surface as a stalled or failed chunk, read again here; the event is only observed.
    worker.on('error', () => undefined);
  } catch {
    // No worker (a thread limit, a missing file): every chunk is claimed by this thread.
    worker = undefined;
  }
  const ready = new Map<number, (PreparedRecord | null)[]>();
  const failed = new Set<number>();
  const mine = new Set<number>();
  let fromWorker = 0;
  const drain = () => {
    for (let message = receiveMessageOnPort(port1); message; message = receiveMessageOnPort(port1)) {
      const chunk = message.message as ReadRecordsChunk;
      if ('failed' in chunk) failed.add(chunk.index);
      else ready.set(chunk.index, chunk.records);
    }
  };
  try {
    for (let next = 0; next < chunks; next++) {
      let waitedSince: number | undefined;
      for (;;) {
        drain();
        if (ready.has(next) || failed.has(next)) break;
        const claimed = Atomics.load(counters, CLAIMED);
        if (options.readHere !== false && claimed < chunks && claimed < next + LOOKAHEAD) {
          // The next chunk nobody holds yet: read it here rather than wait.
          const index = Atomics.add(counters, CLAIMED, 1);
          if (index < chunks) {
            ready.set(index, readPreparedChunk(chunkFiles(index)));
            mine.add(index);
          }
          continue;
        }
        // The worker holds `next`: wait for its post, or read it here if it stalled.
        waitedSince ??= Date.now();
        if (Date.now() - waitedSince > STALLED_MS) {
          failed.add(next);
          break;
        }
        Atomics.wait(counters, POSTED, Atomics.load(counters, POSTED), 50);
      }
      const part = chunkFiles(next);
      const records = failed.has(next)
        ? readPreparedChunk(part)
        : (ready.get(next) as (PreparedRecord | null)[]);
      if (!failed.has(next) && !mine.has(next)) fromWorker++;
      ready.delete(next);
      failed.delete(next);
      mine.delete(next);
      insert({ files: part, records });
      Atomics.add(counters, WRITTEN, 1);
      Atomics.notify(counters, WRITTEN);
    }
    return { chunks, worker: fromWorker };
  } finally {
    // Nothing left to claim: a worker still waiting wakes and ends.
    Atomics.store(counters, CLAIMED, chunks);
    Atomics.store(counters, WRITTEN, chunks);
    Atomics.notify(counters, WRITTEN);
    port1.close();
    void worker?.terminate();
  }
}

/**
 * The worker module's folder as a caller URL for startSiblingWorker: `../../packs/records/`
 * from here is this folder in dist/ and src/, and from the CLI bundle (dist/fast/cli/) too.
 */
function workerUrlBase(): string {
  const self = import.meta.url.endsWith('.ts') ? 'read-records-parallel.ts' : 'read-records-parallel.js';
  return new URL(`../../packs/records/${self}`, import.meta.url).href;
}
