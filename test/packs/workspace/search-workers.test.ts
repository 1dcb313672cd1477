import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchRequest } from '../../../src/packs/workspace/search-files.js';
import { searchRunner } from '../../../src/packs/workspace/search-in-worker.js';
import { tempDir } from '../../helpers.js';

/** Threads of this process (Linux): a worker is one (two under vitest: tsx's loader thread). */
const threads = () => readdirSync('/proc/self/task').length;

async function settle(expected: number): Promise<number> {
  // A terminated worker's thread is joined shortly after terminate() resolves.
  for (let wait = 0; wait < 50 && threads() !== expected; wait++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return threads();
}

describe('the kept search workers', () => {
  it.skipIf(process.platform !== 'linux')(
    'are reused while they answer, and a search stopped at its deadline ends the worker and its helper',
    async () => {
      const root = tempDir('tally-search-workers-');
      // Over the split threshold; every line backtracks catastrophically under (\w+\s?)+$.
      for (let folder = 0; folder < 25; folder++) {
        mkdirSync(join(root, `d-${folder}`));
        for (let file = 0; file < 100; file++)
          writeFileSync(join(root, `d-${folder}`, `f-${file}.txt`), `${'word '.repeat(12)}!\nneedle\n`);
      }
      const request = (pattern: string): SearchRequest => ({
        base: root,
        baseRelative: '.',
        pattern,
        literal: false,
        caseInsensitive: false,
        maxResults: 10,
      });
      const search = searchRunner();
      const before = threads();
      expect((await search(request('needle'))).threads).toBe(1);
      const withWorker = threads();
      // The same worker again, now with its helper; a third search starts no more threads.
      expect(await search(request('needle'))).toMatchObject({ threads: 2, count: 2500 });
      const withHelper = threads();
      expect(withHelper).toBeGreaterThan(withWorker);
      expect(withWorker).toBeGreaterThan(before);
      await search(request('needle'));
      expect(threads()).toBe(withHelper);
      await expect(search(request('(\\w+\\s?)+$'), { timeoutMs: 1000 })).rejects.toMatchObject({
        code: 'SEARCH_TIMEOUT',
      });
      expect(await settle(before)).toBe(before);
      // A fresh worker answers the next search.
      expect(await search(request('needle'))).toMatchObject({ count: 2500, threads: 1 });
    },
  );
});
