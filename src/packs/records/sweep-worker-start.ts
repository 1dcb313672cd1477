import { Worker } from 'node:worker_threads';

/**
 * Starts the records sweep's worker (sweep-worker). It runs the compiled module; under vitest
 * (TypeScript sources, no dist/) it first registers the tsx loader. Production never takes the
 * second branch.
 */
export function startSweepWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./sweep-worker.js', import.meta.url));
  const entry = JSON.stringify(new URL('./sweep-worker.ts', import.meta.url).href);
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`,
    {
      eval: true,
    },
  );
}
