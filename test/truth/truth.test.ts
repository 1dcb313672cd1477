/**
 * The adversarial truth suite (issue 8, acceptance 1), run by `npm test`: every scenario ends
 * with exactly one `end` entry, and its status is `success` exactly when the report is true in
 * the world. `npm run bench:truth` runs the same scenarios and prints the figure line.
 */
import { describe, expect, it } from 'vitest';
import { startDemoApp } from '../../src/demo-app/server.js';
import { startFaultProxy } from './fault-proxy.js';
import { canonicalPath, DemoWorld, diffWorlds, RestWorld } from './ground-truth.js';
import { startRestApp } from './rest-app.js';
import { Bag, explain, GROUPS, runScenario } from './scenario.js';
import { allScenarios } from './scenarios/index.js';

describe('the truth suite itself', () => {
  it('has at least 100 scenarios, in every group, with unique names', () => {
    expect(allScenarios.length).toBeGreaterThanOrEqual(100);
    for (const group of GROUPS) expect(allScenarios.some((scenario) => scenario.group === group)).toBe(true);
    const names = allScenarios.map((scenario) => `${scenario.group}/${scenario.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('the fault proxy forwards, then loses the answer: the server did the work', async () => {
    const app = await startDemoApp();
    const proxy = await startFaultProxy(app.url, [
      { method: 'POST', path: /^\/api\/alpha-shop\/suites$/, fault: { kind: 'status' } },
      { method: 'POST', path: /^\/api\/alpha-shop\/suites$/, nth: 2, fault: { kind: 'reset' } },
      {
        method: 'POST',
        path: /^\/api\/alpha-shop\/suites$/,
        nth: 3,
        fault: { kind: 'status' },
        forward: false,
      },
    ]);
    try {
      const direct = await DemoWorld.login(app.url);
      const viaProxy = await DemoWorld.login(proxy.url);
      const before = await direct.snapshot();
      expect((await viaProxy.call('POST', '/api/alpha-shop/suites', { title: 'A' })).status).toBe(502);
      await expect(viaProxy.call('POST', '/api/alpha-shop/suites', { title: 'B' })).rejects.toThrow();
      expect((await viaProxy.call('POST', '/api/alpha-shop/suites', { title: 'C' })).status).toBe(502);
      expect((await viaProxy.call('POST', '/api/alpha-shop/suites', { title: 'D' })).status).toBe(201);
      const made = diffWorlds(before, await direct.snapshot()).created.map(
        (resource) => resource.record.title,
      );
      expect(made.sort()).toEqual(['A', 'B', 'D']);
      expect(proxy.hits.filter((hit) => hit.fault).map((hit) => [hit.fault, hit.upstreamStatus])).toEqual([
        ['status', 201],
        ['reset', 201],
        ['status', undefined],
      ]);
    } finally {
      await proxy.close();
      await app.close();
    }
  });

  it('the small REST app numbers each collection from 1 and can answer 403 for missing items', async () => {
    const app = await startRestApp({ missingStatus: 403 });
    try {
      const world = new RestWorld(app.url);
      expect(await world.create('posts', { title: 'P' })).toBe('1');
      expect(await world.create('comments', { postId: 1, body: 'c' })).toBe('1');
      expect((await world.call('GET', '/posts/9')).status).toBe(403);
      expect([...(await world.snapshot()).keys()].sort()).toEqual(['|comments|1', '|posts|1']);
    } finally {
      await app.close();
    }
  });

  it('resolves a path’s spellings the way the OS does', async () => {
    const bag = new Bag();
    try {
      const { mkdirSync, symlinkSync } = await import('node:fs');
      const { join } = await import('node:path');
      const root = join(bag.tempDir(), 'proj');
      mkdirSync(join(root, 'docs'), { recursive: true });
      symlinkSync('docs', join(root, 'linked'));
      for (const spelling of ['docs/a.md', './docs/a.md', join(root, 'docs/a.md'), 'linked/a.md'])
        expect(canonicalPath(root, spelling)).toBe('docs/a.md');
      expect(canonicalPath(root, '../outside.md')).toBeUndefined();
    } finally {
      await bag.close();
    }
  });
});

for (const group of GROUPS) {
  describe(`truth: ${group}`, () => {
    for (const scenario of allScenarios.filter((candidate) => candidate.group === group)) {
      it(scenario.name, async () => {
        const result = await runScenario(scenario);
        const why = explain(result);
        expect(result.outcome.endEntries, why).toBe(result.outcome.refusedUpFront ? 0 : 1);
        expect(result.outcome.status === 'success', why).toBe(result.outcome.truth);
        // `tally verify`: the same verdict, recomputed from the run's ledger alone.
        const again = await result.outcome.reproduced?.();
        if (again) expect(again.mismatches, why).toEqual([]);
      });
    }
  });
}
