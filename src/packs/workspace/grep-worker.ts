// Worker-thread entry of fs_grep: answers each search it is sent with its result (or its
// failure). The worker is kept between searches (see searchInWorker), one search at a time.
import { parentPort } from 'node:worker_threads';
import { type SearchRequest, searchFiles } from './search-files.js';

parentPort?.on('message', (request: SearchRequest) => {
  try {
    parentPort?.postMessage({ result: searchFiles(request) });
  } catch (error) {
    parentPort?.postMessage({
      failure: {
        code: (error as { code?: string }).code ?? 'SEARCH_FAILED',
        message: (error as Error).message,
      },
    });
  }
});
