import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../../src/core/agent/agent-definition.js';
import { runAgent } from '../../src/core/agent/run-agent.js';
import { defineTool } from '../../src/core/tool.js';
import { callTool, say, scriptedModel } from '../../src/testing/scripted-model.js';
import { tempLedger } from '../helpers.js';

// A tool whose failure message carries a credential the harness never knew about.
const connect = defineTool({
  name: 'connect_db',
  description: 'Connect to the database.',
  inputSchema: z.object({ host: z.string() }),
  annotations: { readOnly: true },
  execute: async ({ host }) => {
    throw new Error(`connecting to ${host} with password=hunter22 failed; Error: token=abcdef123 rejected`);
  },
});

describe('secret-named pairs in free text never reach the ledger (issue 19, finding 5 follow-up)', () => {
  it('a tool error carrying password=… and token=… is stored with both values redacted', async () => {
    const ledger = tempLedger();
    const agent = defineAgent({
      name: 'db',
      instructions: 'Connect.',
      tools: [connect],
      requireFinish: false,
    });
    const result = await runAgent(agent, 'connect to db.local', {
      ledger,
      model: scriptedModel([callTool('connect_db', { host: 'db.local' }), say('It failed with hunter22.')]),
    });
    const entries = ledger.entries(result.runId);
    const failed = entries.find((entry) => entry.name === 'connect_db');
    expect(failed?.outcome).toBe('error');
    const stored = JSON.stringify(failed);
    expect(stored).toContain('password=[redacted] failed; Error: token=[redacted] rejected');
    expect(stored).toContain('db.local');
    // The value was learned from the error: the model's later echo is scrubbed too.
    expect(JSON.stringify(entries)).not.toMatch(/hunter22|abcdef123/);
    expect(JSON.stringify(result)).not.toMatch(/hunter22|abcdef123/);
    ledger.flush();
  });
});
