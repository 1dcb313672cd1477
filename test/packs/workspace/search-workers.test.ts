import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchRequest } from '../../../src/packs/workspace/search-files.js';
import { searchRunner } from '../../../src/packs/workspace/search-in-worker.js';
import { tempDir } from '../../helpers.js';

/**
 * The OS threads of this process (Linux), by id. Sets, not counts: the worker boots its helper
 * right after its first large answer, racing the test's look, and Node may end a thread of its
 * own meanwhile; what is asserted is which threads appeared and whether those same ones ended.
 */
const threadIds = () => new Set(readdirSync('/proc/self/task'));
const added = (now: Set<string>, then: Set<string>) => [...now].filter((id) => !then.has(id));

async function gone(ids: string[]): Promise<string[]> {
  // A terminated worker's thread is joined shortly after terminate() resolves.
  const alive = () => ids.filter((id) => threadIds().has(id));
  for (let wait = 0; wait < 100 && alive().length > 0; wait++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return alive();
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
      // libuv's pool starts on a first async call; started now, it is not taken for a worker.
      await stat(root);
      const before = threadIds();
      expect((await search(request('needle'))).threads).toBe(1);
      // The same worker again, now with its helper: two threads of its own at least.
      expect(await search(request('needle'))).toMatchObject({ threads: 2, count: 2500 });
      const withHelper = threadIds();
      const searchThreads = added(withHelper, before);
      expect(searchThreads.length).toBeGreaterThanOrEqual(2);
      // A third search starts no thread and keeps the same ones.
      expect(await search(request('needle'))).toMatchObject({ threads: 2, count: 2500 });
      const third = threadIds();
      expect(added(third, withHelper)).toEqual([]);
      expect(searchThreads.filter((id) => !third.has(id))).toEqual([]);
      await expect(search(request('(\\w+\\s?)+$'), { timeoutMs: 1000 })).rejects.toMatchObject({
        code: 'SEARCH_TIMEOUT',
      });
      // The worker and its helper (with their loader threads) are gone.
      expect(await gone(searchThreads)).toEqual([]);
      // A fresh worker answers the next search.
      expect(await search(request('needle'))).toMatchObject({ count: 2500, threads: 1 });
    },
  );
});
