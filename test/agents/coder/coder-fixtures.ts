import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runTurn } from '../../../src/agents/coder/run-turn.js';
import { recomputeVerdict } from '../../../src/core/agent/recompute-verdict.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { formatCodeTurn } from '../../../src/surfaces/cli/format-code-turn.js';
import { verifierFor } from '../../../src/surfaces/cli/verify-rules.js';
import { type ScriptStep, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempDir, tempLedger } from '../../helpers.js';

/** A small real project: src/a.ts, src/b.ts, README.md. */
export function sampleProject(): string {
  const root = tempDir('tally-coder-');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'README.md'), '# Sample\n');
  return root;
}

/** The text of every message a model call was sent, by role (system, user, assistant, tool). */
export function promptTexts(
  prompt: readonly { role: string; content: unknown }[],
): { role: string; text: string }[] {
  return prompt.map((message) => ({
    role: message.role,
    text:
      typeof message.content === 'string'
        ? message.content
        : (message.content as { type: string; text?: string }[])
            .map((part) => (part.type === 'text' ? part.text : `<${part.type}>`))
            .join(''),
  }));
}

/** One turn over a scripted model; the result, what the terminal shows, and the run's end entry. */
export async function judgedTurn(
  root: string,
  steps: ScriptStep[],
  { message = 'do the work', signal }: { message?: string; signal?: AbortSignal } = {},
) {
  const ledger: Ledger = tempLedger();
  const model = scriptedModel(steps);
  const result = await runTurn({
    message,
    root,
    ledger,
    model,
    browser: false,
    decisions: false,
    ...(signal ? { signal } : {}),
  });
  model.assertComplete();
  const end = ledger.entries(result.runId).find((entry) => entry.kind === 'end');
  // `tally verify`: the verdict recomputed from the ledger with the Coder's own verifier.
  const verifier = await verifierFor('coder');
  const again = await recomputeVerdict(await ledger.getRun(result.runId), verifier ? { verifier } : {});
  expect(again.mismatches).toEqual([]);
  return { result, printed: formatCodeTurn(result), end: end?.data as Record<string, unknown> };
}
