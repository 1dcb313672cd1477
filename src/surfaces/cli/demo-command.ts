import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import pc from 'picocolors';
import { z } from 'zod';
import { defineAgent } from '../../core/agent/agent-definition.js';
import type { RunResult } from '../../core/agent/ending.js';
import { runAgent } from '../../core/agent/run-agent.js';
import { ToolRejectedError } from '../../core/errors.js';
import { defineTool } from '../../core/tool.js';
import { callTool, scriptedModel } from '../../testing/scripted-model.js';
import { EXIT } from './exit-codes.js';
import { openLedgerFor } from './open-ledger.js';

/**
 * A tour of the harness on embedded defaults: a scripted model (no key, no network) drives a
 * small notebook agent through a finish with one fabricated claim, a finish with no
 * evidence at all, and repeated failures — and the ledger tells what really happened.
 */
function notebookAgent(notes: Map<string, string>) {
  const noteWrite = defineTool({
    name: 'note_write',
    description: 'Write a note under a key.',
    inputSchema: z.object({ key: z.string(), text: z.string() }),
    annotations: { idempotent: true },
    target: (input) => input.key,
    execute: async ({ key, text }) => {
      notes.set(key, text);
      const stored = notes.get(key) ?? '';
      const sha256 = createHash('sha256').update(stored).digest('hex');
      return {
        result: { ok: true, key, bytes: Buffer.byteLength(stored) },
        evidence: { targets: [key], via: `note_write ${key} sha256=${sha256.slice(0, 12)}` },
      };
    },
  });
  const noteRead = defineTool({
    name: 'note_read',
    description: 'Read the note under a key.',
    inputSchema: z.object({ key: z.string() }),
    annotations: { readOnly: true },
    target: (input) => input.key,
    execute: async ({ key }) => {
      const text = notes.get(key);
      if (text === undefined)
        throw new ToolRejectedError('NOTE_NOT_FOUND', `No note "${key}". Write it with note_write first.`);
      return { result: { ok: true, key, text } };
    },
  });
  return defineAgent({
    name: 'notebook',
    instructions:
      'Keep notes with note_write and note_read. Call finish with what you wrote, or stop with the reason.',
    tools: [noteWrite, noteRead],
  });
}

const SCRIPTS = {
  'Write notes a and b': [
    callTool('note_write', { key: 'a', text: 'first' }, 'Writing note a.'),
    callTool('note_write', { key: 'b', text: 'second' }),
    callTool('finish', {
      summary: 'Wrote notes a, b and c.',
      claims: [{ target: 'a' }, { target: 'b' }, { target: 'c' }],
    }),
  ],
  'Say you wrote note z': [
    callTool('finish', { summary: 'Wrote note z.', claims: [{ target: 'z' }] }, 'Done already.'),
    callTool('stop', { reason: 'I had not written note z; nothing was done.' }),
  ],
  'Read note q': [1, 2, 3, 4, 5].map(() => callTool('note_read', { key: 'q' })),
};

function line(result: RunResult): string {
  const status =
    result.status === 'success'
      ? pc.green(result.status)
      : result.status === 'partial'
        ? pc.yellow(result.status)
        : pc.red(result.status);
  const verified = result.verified.map((item) => `    ${pc.green('✓')} ${item.target}  via ${item.via}`);
  const dropped = result.dropped.map(
    (entry) => `    ${pc.yellow('✗')} ${String(entry.claim.target)}  ${entry.why}`,
  );
  return [
    `${pc.bold(result.runId)}  ${status}  ending ${result.endingReason}`,
    `  ${result.summary}`,
    ...verified,
    ...dropped,
  ].join('\n');
}

export default async function demoCommand(options: { json?: boolean }, command: Command): Promise<number> {
  const ledger = openLedgerFor(command);
  const results: RunResult[] = [];
  try {
    for (const [task, steps] of Object.entries(SCRIPTS)) {
      const model = scriptedModel(steps, { modelId: 'demo-script' });
      const result = await runAgent(notebookAgent(new Map()), task, { ledger, model });
      // The scripted model wanted more calls than the harness allowed: say so, it is the point.
      if (model.remaining > 0)
        result.summary += ` (The model had ${model.remaining} more call(s) planned; the harness did not make them.)`;
      results.push(result);
    }
  } finally {
    ledger.close();
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ledger: ledger.path, results }, null, 2)}\n`);
  } else {
    process.stdout.write(
      `${results.map(line).join('\n\n')}\n\nLedger: ${ledger.path}\nSee a run with: npx tally runs show ${results[0]?.runId}\n`,
    );
  }
  return EXIT.ok;
}
