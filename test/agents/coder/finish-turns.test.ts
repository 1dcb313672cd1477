import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../src/agents/coder/run-turn.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { formatCodeTurn } from '../../../src/surfaces/cli/format-code-turn.js';
import { callTool, type ScriptStep, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { sampleProject } from './coder-fixtures.js';

/** One turn over a scripted model; the result, what the terminal shows, and the run's end entry. */
async function turn(root: string, steps: ScriptStep[], message = 'do the work') {
  const ledger: Ledger = tempLedger();
  const model = scriptedModel(steps);
  const result = await runTurn({ message, root, ledger, model, browser: false, decisions: false });
  model.assertComplete();
  const end = ledger.entries(result.runId).find((entry) => entry.kind === 'end');
  return { result, printed: formatCodeTurn(result), end: end?.data as Record<string, unknown> };
}

const finish = (summary: string, claims: unknown[]) => callTool('finish', { summary, claims });

describe('a Coder turn that ends with finish', () => {
  it('checks the finish summary like the reply: a file it names but never touched is flagged', async () => {
    const root = sampleProject();
    const { result, printed, end } = await turn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      finish('I created src/c.ts and src/d.ts, and deleted src/b.ts. All tests pass.', [
        { target: 'src/c.ts', effect: 'created' },
      ]),
    ]);
    expect(result.status).toBe('partial');
    expect(result.flags.map((flag) => `${flag.path}: ${flag.said}`)).toEqual([
      'src/d.ts: created',
      'src/b.ts: deleted',
    ]);
    expect(printed).toContain(
      'FLAGGED: the finish summary says src/d.ts was created; the ledger shows: not touched this turn.',
    );
    expect(printed).toContain('Status: partial');
    expect(end).toMatchObject({ status: 'partial', flags: [{ path: 'src/d.ts' }, { path: 'src/b.ts' }] });
    expect(String(end.summary)).toMatch(/^Partly done/);
  });

  it('a true finish summary raises no flag', async () => {
    const root = sampleProject();
    const { result, end } = await turn(root, [
      callTool('fs_write', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
      finish('I read src/a.ts, then created src/c.ts.', [{ target: 'src/c.ts', effect: 'created' }]),
    ]);
    expect(result).toMatchObject({ status: 'success', flags: [] });
    expect(end).toMatchObject({ status: 'success' });
  });
});
