import { Worker } from 'node:worker_threads';

/** A search holds at most one file (32 MiB) and its decoded text at a time. */
const WORKER_HEAP_MB = 512;

/**
 * Starts a search worker (grep-worker). It runs the compiled module; under vitest (TypeScript
 * sources, no dist/) it first registers the tsx loader. Production never takes the second branch.
 */
export function startSearchWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./grep-worker.js', import.meta.url), { resourceLimits });
  const entry = JSON.stringify(new URL('./grep-worker.ts', import.meta.url).href);
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`,
    { eval: true, resourceLimits },
  );
}
