/**
 * A model that stops after part of the work: the run is `partial`, and its summary, unmet list
 * and `tally verify` say what of the request is left, not only that the run stopped.
 */
import { describe, expect, it } from 'vitest';
import { recomputeVerdict } from '../../../src/core/agent/recompute-verdict.js';
import { verifierFor } from '../../../src/surfaces/cli/verify-rules.js';
import { callTool } from '../../../src/testing/scripted-model.js';
import { withBag } from '../../truth/scenario.js';
import { post, runFish } from '../../truth/scenarios/fisherman-support.js';

const SUITES = '/api/alpha-shop/suites';

describe('a run that stops after part of the work', () => {
  it('names what is left in its summary and unmet list, and tally verify agrees', async () => {
    await withBag(async (bag) => {
      const run = await runFish(bag, {
        request: '3 suites',
        expect: { scope: 'alpha-shop', parent: { collection: 'suites', count: 3 } },
        har: 'model-only',
        steps: () => [
          post(SUITES, { title: 'A' }, 'Creating.'),
          callTool('stop', { reason: 'That is enough for now.' }),
        ],
      });
      if (run.result instanceof Error) throw run.result;
      expect(run.result.status).toBe('partial');
      expect(run.result.unmet).toEqual([
        'the run ended without a verified finish (stopped)',
        'asked for 3 suites, this run created 1',
      ]);
      expect(run.result.summary).toContain('Left undone: asked for 3 suites, this run created 1.');
      const record = run.ledger.getRun(run.result.runId);
      if (!record) throw new Error('the run is not in the ledger');
      const verifier = await verifierFor(record.run.agent);
      const again = await recomputeVerdict(record, verifier ? { verifier } : {});
      expect(again.mismatches).toEqual([]);
      expect(again.matches).toBe(true);
      expect(again.recomputed?.unmet).toEqual(run.result.unmet);
    });
  });
});
