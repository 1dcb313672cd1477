// Worker-thread entry of fs_grep: runs one search and posts its result (or its failure).
import { parentPort, workerData } from 'node:worker_threads';
import { type SearchRequest, searchFiles } from './search-files.js';

try {
  parentPort?.postMessage({ result: searchFiles(workerData as SearchRequest) });
} catch (error) {
  parentPort?.postMessage({
    failure: {
      code: (error as { code?: string }).code ?? 'SEARCH_FAILED',
      message: (error as Error).message,
    },
  });
}
