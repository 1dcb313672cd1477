import { Worker } from 'node:worker_threads';
import { TallyError, type TallyErrorCode } from '../../core/errors.js';

// The worker posts the code of what it caught: the pack's own (a TallyError's) or a system one
// (EACCES), kept as it is so the caller sees what failed; only the worker's own codes are typed.
const workerCode = (code: string | undefined): TallyErrorCode => (code ?? 'SEARCH_FAILED') as TallyErrorCode;

import type { SearchRequest, SearchResult } from './search-files.js';

/** Long enough for a real search of a large project; short of the 10 s a client will wait. */
export const SEARCH_TIMEOUT_MS = 8_000;
/** A search holds at most one file (32 MiB) and its decoded text at a time. */
const WORKER_HEAP_MB = 512;

/**
 * The worker runs the compiled module; under vitest (TypeScript sources, no dist/) it first
 * registers the tsx loader. Production never takes the second branch.
 */
function startWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./grep-worker.js', import.meta.url), { resourceLimits });
  const entry = JSON.stringify(new URL('./grep-worker.ts', import.meta.url).href);
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`,
    { eval: true, resourceLimits },
  );
}

/**
 * One worker that answered is kept, idle and unref'd (it never holds the process open), for
 * the next search: a fresh worker costs its start and, worse, runs the walk and the reads
 * with cold JIT — on a 20,000-file tree that was more than half of a call's CPU. A worker is
 * reused only after it answered; one stopped at its deadline or by an abort is terminated.
 */
let idleWorker: Worker | undefined;

function forgetIdle(this: Worker) {
  if (idleWorker === this) idleWorker = undefined;
}

function takeWorker(): Worker {
  const worker = idleWorker ?? startWorker();
  idleWorker = undefined;
  worker.off('exit', forgetIdle);
  worker.ref();
  return worker;
}

function keepWorker(worker: Worker): void {
  if (idleWorker) {
    // Two searches ran at once: one idle worker is enough.
    void worker.terminate();
    return;
  }
  worker.unref();
  worker.on('exit', forgetIdle);
  idleWorker = worker;
}

/**
 * Runs a search in a worker thread with a deadline. Why a worker and not a linear-time engine
 * (re2): a JavaScript regex cannot be interrupted on the main thread, and `(a+)+$` on 40 `a`s
 * backtracks for minutes; terminating a worker stops it within milliseconds, keeps the full
 * JavaScript regex syntax (lookarounds, backreferences), needs no native module, and moves the
 * walk and the file reads off the main thread too. The price: ~40 ms to start a worker, paid
 * by the first search only (see idleWorker).
 */
export function searchInWorker(
  request: SearchRequest,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<SearchResult> {
  const timeoutMs = options.timeoutMs ?? SEARCH_TIMEOUT_MS;
  if (options.signal?.aborted)
    return Promise.reject(new TallyError('ABORTED', 'The search was abandoned: the call was aborted.'));
  const worker = takeWorker();
  return new Promise<SearchResult>((resolve, reject) => {
    const finish = (settle: () => void, answered = false) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      // A worker that answered is idle and kept; one still matching is stopped here.
      if (answered) keepWorker(worker);
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
    worker.postMessage(request);
  });
}
