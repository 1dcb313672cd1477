import { describe, expect, it } from 'vitest';
import { fishermanVerifier } from '../../../src/agents/fisherman/fisherman-verifier.js';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import { recomputeVerdict } from '../../../src/core/agent/recompute-verdict.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { callTool, type ScriptStep, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { BUNDLED_HAR, demoApp } from '../../packs/http/demo-fixtures.js';

const create = (title: string) =>
  callTool('request', { method: 'POST', path: '/api/alpha-shop/suites', body: { title } }, 'Creating.');

/** Model-tier runs (a stated plan, requests, a finish the verifier judges), against the demo app. */
const SCRIPTS: Record<string, { request: string; steps: ScriptStep[]; status: string; maxRounds?: number }> =
  {
    'a substitution dropped': {
      request: 'Please create a milestone for the release',
      steps: [
        callTool('plan', { entities: [{ type: 'milestone', count: 1 }] }),
        create('Release'),
        callTool('request', {
          method: 'POST',
          path: '/api/alpha-shop/tests',
          body: { title: 'Release milestone', suite_id: 101 },
        }),
        callTool('finish', {
          summary: 'Created the milestone.',
          created: [{ type: 'milestone', id: 5001, title: 'Release milestone' }],
        }),
        callTool('stop', { reason: 'no milestone endpoint' }),
      ],
      // The suite it did create is taken from the ledger: partial, not failed.
      status: 'partial',
    },
    'a 409 and a claim of what was never made': {
      request: 'Please create the Checkout suite twice',
      steps: [
        callTool('plan', { entities: [{ type: 'suites', count: 2 }] }),
        create('Same'),
        callTool('request', { method: 'POST', path: '/api/alpha-shop/suites', body: { title: 'Same' } }),
        callTool('finish', {
          summary: 'Created two suites.',
          created: [
            { type: 'suite', id: 101 },
            { type: 'suite', id: 102 },
          ],
        }),
      ],
      status: 'partial',
    },
    'a plan met': {
      request: 'Please create 1 suite called "Smoke"',
      steps: [
        callTool('plan', { entities: [{ type: 'suite', count: 1, titles: ['Smoke'] }] }),
        create('Smoke'),
        callTool('finish', {
          summary: 'Created the Smoke suite.',
          created: [{ type: 'suite', id: 101, title: 'Smoke' }],
        }),
      ],
      status: 'success',
    },
    // "with 5 tests": the app has tests, none was made or claimed — an over-count all the same.
    'a summary counting a type of the app that nothing backs': {
      request: 'Please create a suite for checkout',
      steps: [
        callTool('plan', { entities: [{ type: 'suite', count: 1 }] }),
        create('S1'),
        callTool('finish', {
          summary: 'Created 1 suite with 5 tests.',
          created: [{ type: 'suite', id: 101 }],
        }),
      ],
      status: 'partial',
    },
    'the round cap, items taken from the ledger': {
      request: 'Please create a suite and look around',
      steps: [
        callTool('plan', { entities: [{ type: 'suite', count: 1 }] }),
        create('Kept'),
        ...[1, 2, 3, 4].map((n) =>
          callTool('lookup', { path: '/api/alpha-shop/tests', query: { suite_id: n } }, 'Looking.'),
        ),
      ],
      status: 'partial',
      maxRounds: 6,
    },
  };

describe('tally verify on Fisherman model-tier runs: the recorded verdict is reproduced from the ledger', () => {
  for (const [name, script] of Object.entries(SCRIPTS))
    it(name, async () => {
      const { app } = await demoApp();
      const ledger = tempLedger();
      const result = await prepareData({
        request: script.request,
        captures: [BUNDLED_HAR],
        scope: '/projects/alpha-shop',
        baseUrl: app.url,
        login: DEMO_LOGIN,
        ledger,
        model: scriptedModel(script.steps),
        env: {},
        ...(script.maxRounds ? { maxRounds: script.maxRounds } : {}),
      });
      const again = await recomputeVerdict(ledger.getRun(result.runId), { verifier: fishermanVerifier });
      expect(again.mismatches).toEqual([]);
      expect(again.recomputed).toEqual(again.recorded);
      expect(again.recomputed?.status).toBe(result.status);
      expect(result.status).toBe(script.status);
    });
});
