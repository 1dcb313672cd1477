import { describe, expect, it } from 'vitest';
import { chatTurnStats } from '../../../src/agents/coder/chat-turn-stats.js';
import { runTurn } from '../../../src/agents/coder/run-turn.js';
import { computeStats } from '../../../src/core/ledger/compute-stats.js';
import { callTool, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { sampleProject } from './coder-fixtures.js';

describe('tally stats for coder turns', () => {
  it('counts recoveries by reason, nudge and conversational rates, PATH_OUTSIDE_PROJECT per day, tree calls per chat', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const base = { root, ledger, browser: false as const };
    const first = await runTurn({
      ...base,
      message: 'look around',
      model: scriptedModel([
        callTool('fs_tree', { path: '.', depth: 3 }),
        callTool('fs_write', { path: '../x.ts', content: 'x' }),
        callTool('fs_read', { path: 'src/a.ts' }),
        say('Status: done looking.'),
      ]),
    });
    await runTurn({ ...base, chatId: first.chatId, message: 'hello', model: scriptedModel([say('Hi!')]) });
    await runTurn({
      ...base,
      message: 'read a missing file',
      model: scriptedModel([callTool('fs_read', { path: 'missing.ts' }), say('It does not exist.')]),
    });

    const stats = await computeStats(ledger, '2000-01-01T00:00:00.000Z', { contributors: [chatTurnStats] });
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.chatTurns).toEqual({
      turns: 3,
      chats: 2,
      recoveries: { tool_failure: { turns: 1, rate: 1 / 3 } },
      nudgeRate: 1 / 3,
      conversationalRate: 1 / 3,
      pathOutsideProjectPerDay: { [today]: 1 },
      // chat 1: orientation + one cached fs_tree; chat 2: orientation
      treeCalls: { total: 3, cached: 1, perChat: 1.5, maxPerChat: 2 },
    });
  });
});
