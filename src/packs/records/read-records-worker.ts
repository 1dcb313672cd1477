/**
 * The worker thread of a parallel index build (read-records-parallel.ts): claims chunks of the
 * listed files, reads and parses them (the same readPreparedChunk as the answering thread),
 * and posts each chunk's prepared records. It never opens the index.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import {
  CLAIMED,
  chunkOf,
  POSTED,
  type ReadRecordsChunk,
  type ReadRecordsWork,
  readPreparedChunk,
  WRITTEN,
} from './read-records-protocol.js';

function run(work: ReadRecordsWork, port: MessagePort): void {
  const counters = new Int32Array(work.counters);
  const chunks = Math.ceil(work.files.length / work.chunk);
  for (;;) {
    const index = Atomics.add(counters, CLAIMED, 1);
    if (index >= chunks) return;
    // Never more than `lookahead` chunks ahead of the inserts: wait for the writer.
    for (let written = Atomics.load(counters, WRITTEN); index >= written + work.lookahead; ) {
      Atomics.wait(counters, WRITTEN, written, 1_000);
      written = Atomics.load(counters, WRITTEN);
    }
    let message: ReadRecordsChunk;
    try {
      message = { index, records: readPreparedChunk(chunkOf(work.files, index, work.chunk)) };
    } catch {
      // Read again by the answering thread, which throws the error as a one-thread build would.
      message = { index, failed: true };
    }
    port.postMessage(message);
    Atomics.add(counters, POSTED, 1);
    Atomics.notify(counters, POSTED);
  }
}

const { work, port } = workerData as { work: ReadRecordsWork; port: MessagePort };
run(work, port);
port.close();
parentPort?.close();
