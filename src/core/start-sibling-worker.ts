import { createRequire } from 'node:module';
import type { Worker, WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on the module `name` beside the caller (`callerUrl`: its
 * `import.meta.url`). It runs the compiled `name.js`; under vitest (TypeScript sources, no
 * dist/) it first registers the tsx loader and imports `name.ts`. Production never takes the
 * second branch. One place for it: the search and the records sweep start their workers here.
 */
export function startSiblingWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  // Required here, not imported: node:worker_threads is ~2.5 ms to load, and the CLI bundles
  // that hold a caller (a records query: its build reads in a worker only past 8,000 files)
  // would pay it on every start otherwise.
  const { Worker } = createRequire(import.meta.url)(
    'node:worker_threads',
  ) as typeof import('node:worker_threads');
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  const entry = JSON.stringify(new URL(`./${name}.ts`, callerUrl).href);
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`,
    {
      ...options,
      eval: true,
    },
  );
}
