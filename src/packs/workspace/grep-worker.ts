// Worker-thread entry of fs_grep. Answers each search it is sent with its result (or its
// failure), one search at a time; the worker is kept between searches (see searchInWorker).
// On a large tree it hands every other file to a helper worker of its own, so the reads run
// on two cores; a helper answers a share (`share`) with what it found there.
import { availableParallelism } from 'node:os';
import { type MessagePort, parentPort, type Worker } from 'node:worker_threads';
import {
  mergeSearchParts,
  type SearchCandidate,
  type SearchPart,
  type SearchRequest,
  searchCandidates,
  searchPart,
} from './search-files.js';
import { startSearchWorker } from './search-worker-start.js';

/**
 * Below this many files one thread is done before a second would pay for itself (its start
 * once, then handing over the share). Measured on the bench's tree: ~15 µs of CPU per file.
 */
const SPLIT_AT = 2_000;

type Failure = { code: string; message: string };

const failureOf = (error: unknown): Failure => ({
  code: (error as { code?: string }).code ?? 'SEARCH_FAILED',
  message: (error as Error).message,
});

/** Answers the searches and shares posted to `port`, with a helper of its own kept for the next search. */
function serve(port: MessagePort): void {
  /** Kept for the next search; it ends with this worker (terminating a worker ends its workers). */
  let helper: Worker | undefined;

  function helperPart(request: SearchRequest, share: SearchCandidate[]): Promise<SearchPart> {
    helper ??= startSearchWorker();
    const worker = helper;
    return new Promise<SearchPart>((resolve, reject) => {
      const done = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (message: { part?: SearchPart; failure?: Failure }) => {
        done();
        if (message.part) resolve(message.part);
        else reject(Object.assign(new Error(message.failure?.message), { code: message.failure?.code }));
      };
      const onError = (error: Error) => {
        done();
        helper = undefined;
        reject(error);
      };
      const onExit = (code: number) => {
        done();
        helper = undefined;
        reject(new Error(`the search helper exited (code ${code}) without an answer`));
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage({ request, share });
    });
  }

  /** Whether the last search was large enough to split: the helper is started for the next. */
  let large = false;

  async function search(request: SearchRequest) {
    const candidates = searchCandidates(request);
    large = candidates.length >= SPLIT_AT && availableParallelism() >= 2;
    // The first large search runs alone: a helper started now would boot and then read its
    // share with cold JIT, costing more CPU than it saves; it is started after the answer.
    if (!large || !helper) return mergeSearchParts([searchPart(request, candidates)], request.maxResults);
    // Every other file, not halves: neighbours in the walk are alike in size and in hits.
    const mine: SearchCandidate[] = [];
    const theirs: SearchCandidate[] = [];
    candidates.forEach((candidate, index) => {
      (index % 2 === 0 ? mine : theirs).push(candidate);
    });
    const other = helperPart(request, theirs);
    // Handled below: a helper's failure is only seen after this thread's own share.
    other.catch(() => {});
    const own = searchPart(request, mine);
    return mergeSearchParts([own, await other], request.maxResults);
  }

  port.on('message', (message: { request: SearchRequest; share?: SearchCandidate[] }) => {
    if (message.share) {
      try {
        port.postMessage({ part: searchPart(message.request, message.share) });
      } catch (error) {
        port.postMessage({ failure: failureOf(error) });
      }
      return;
    }
    search(message.request).then(
      (result) => {
        port.postMessage({ result });
        // Booted while this worker waits, ready for the next large search.
        if (large) helper ??= startSearchWorker();
      },
      (error: unknown) => port.postMessage({ failure: failureOf(error) }),
    );
  });
}

if (parentPort) serve(parentPort);
