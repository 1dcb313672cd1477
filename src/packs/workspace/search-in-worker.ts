import type { Worker } from 'node:worker_threads';
import { TallyError, type TallyErrorCode } from '../../core/errors.js';

// The worker posts the code of what it caught: the pack's own (a TallyError's) or a system one
// (EACCES), kept as it is so the caller sees what failed; only the worker's own codes are typed.
const workerCode = (code: string | undefined): TallyErrorCode => (code ?? 'SEARCH_FAILED') as TallyErrorCode;

import type { SearchRequest, SearchResult } from './search-files.js';
import { startSearchWorker } from './search-worker-start.js';

/** Long enough for a real search of a large project; short of the 10 s a client will wait. */
export const SEARCH_TIMEOUT_MS = 8_000;
/** An idle kept worker ends after this long without a search (a test's tools, a finished chat). */
export const SEARCH_WORKER_IDLE_MS = 60_000;

export type SearchRunner = (
  request: SearchRequest,
  options?: { timeoutMs?: number; signal?: AbortSignal },
) => Promise<SearchResult>;

/**
 * A search runner that keeps one worker that answered, idle and unref'd (it never holds the
 * process open), for its next search: a fresh worker costs its start and, worse, walks and
 * reads with cold JIT — on a 20,000-file tree more than half of a call's CPU. A worker is
 * reused only after it answered; one stopped at its deadline or by an abort is terminated.
 * One runner per fs_grep tool, so a tool's worker ends with the tool's use, not the process.
 */
export function searchRunner(): SearchRunner {
  let idle: { worker: Worker; timer: NodeJS.Timeout } | undefined;
  const forgetIdle = (worker: Worker) => {
    if (idle?.worker === worker) {
      clearTimeout(idle.timer);
      idle = undefined;
    }
  };
  const take = (): Worker => {
    const kept = idle;
    idle = undefined;
    if (!kept) return startSearchWorker();
    clearTimeout(kept.timer);
    kept.worker.removeAllListeners('exit');
    kept.worker.ref();
    return kept.worker;
  };
  const keep = (worker: Worker) => {
    if (idle) {
      // Two searches ran at once: one idle worker is enough.
      void worker.terminate();
      return;
    }
    worker.unref();
    worker.once('exit', () => forgetIdle(worker));
    const timer = setTimeout(() => {
      forgetIdle(worker);
      void worker.terminate();
    }, SEARCH_WORKER_IDLE_MS);
    timer.unref();
    idle = { worker, timer };
  };
  return (request, options = {}) => searchInWorker(request, options, take, keep);
}

/**
 * Runs a search in a worker thread with a deadline. Why a worker and not a linear-time engine
 * (re2): a JavaScript regex cannot be interrupted on the main thread, and `(a+)+$` on 40 `a`s
 * backtracks for minutes; terminating a worker stops it within milliseconds, keeps the full
 * JavaScript regex syntax (lookarounds, backreferences), needs no native module, and moves the
 * walk and the file reads off the main thread too. The price: ~40 ms to start a worker, paid
 * by a runner's first search only (see searchRunner).
 */
function searchInWorker(
  request: SearchRequest,
  options: { timeoutMs?: number; signal?: AbortSignal },
  take: () => Worker,
  keep: (worker: Worker) => void,
): Promise<SearchResult> {
  const timeoutMs = options.timeoutMs ?? SEARCH_TIMEOUT_MS;
  if (options.signal?.aborted)
    return Promise.reject(new TallyError('ABORTED', 'The search was abandoned: the call was aborted.'));
  const worker = take();
  return new Promise<SearchResult>((resolve, reject) => {
    const finish = (settle: () => void, answered = false) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      // A worker that answered is idle and kept; one still matching is stopped here.
      if (answered) keep(worker);
      else void worker.terminate();
      settle();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new TallyError(
              'SEARCH_TIMEOUT',
              `The search for /${request.pattern}/ did not finish within ${timeoutMs} ms and was stopped. The pattern may backtrack catastrophically (nested quantifiers such as (a+)+): simplify it, pass literal: true, or narrow path or glob.`,
              { pattern: request.pattern, timeoutMs },
            ),
          ),
        ),
      timeoutMs,
    );
    const onAbort = () =>
      finish(() => reject(new TallyError('ABORTED', 'The search was abandoned: the call was aborted.')));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const onMessage = (message: { result?: SearchResult; failure?: { code: string; message: string } }) =>
      finish(() => {
        if (message.result) resolve(message.result);
        else
          reject(
            new TallyError(
              workerCode(message.failure?.code),
              `The search failed: ${message.failure?.message}. Check that the directory is readable, or narrow path or glob.`,
            ),
          );
      }, true);
    const onError = (error: Error) =>
      finish(() =>
        reject(
          new TallyError(
            workerCode((error as { code?: string }).code),
            `The search failed: ${error.message}. Narrow path or glob and try again.`,
          ),
        ),
      );
    const onExit = (code: number) =>
      finish(() =>
        reject(
          new TallyError(
            'SEARCH_FAILED',
            `The search worker exited (code ${code}) without an answer. Try again.`,
          ),
        ),
      );
    worker.once('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage({ request });
  });
}
