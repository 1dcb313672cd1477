import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../src/agents/coder/run-turn.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { callTool, say, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempLedger } from '../../helpers.js';
import { promptTexts, sampleProject } from './coder-fixtures.js';

function treeCalls(ledger: Ledger, runId: string): { cached: unknown; tree: string }[] {
  return ledger
    .entries(runId)
    .filter((entry) => entry.kind === 'tool_call' && entry.name === 'fs_tree')
    .map((entry) => ({
      cached: (entry.data.evidence as { cached?: unknown }).cached,
      tree: String((entry.data.result as { tree?: unknown }).tree),
    }));
}

describe('orientation once per chat', () => {
  it('gives the first turn the layout, and answers a repeat fs_tree from the cache', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const model = scriptedModel([callTool('fs_tree', {}), say('It has src/ and a README.')]);

    const first = await runTurn({ message: 'show me around the project structure', root, ledger, model });

    const system = promptTexts(model.calls[0]?.prompt ?? [])[0]?.text ?? '';
    expect(system).toContain('Project layout');
    expect(system).toMatch(/src\/\n\s+a\.ts/);
    expect(first.orientation).toEqual({ computed: true, entries: 4 });
    expect(treeCalls(ledger, first.runId)).toEqual([
      { cached: true, tree: expect.stringContaining('README.md') },
    ]);
    expect(ledger.getRun(first.runId).run.meta).toMatchObject({
      orientation: { tool: 'fs_tree', computed: true, entries: 4 },
    });

    const later = scriptedModel([callTool('fs_tree', { path: './' }), say('Same layout.')]);
    const second = await runTurn({
      chatId: first.chatId,
      message: 'list the layout again',
      root,
      ledger,
      model: later,
    });
    expect(promptTexts(later.calls[0]?.prompt ?? [])[0]?.text).not.toContain('Project layout');
    expect(second.orientation).toBeUndefined();
    expect(treeCalls(ledger, second.runId)).toEqual([{ cached: true, tree: expect.any(String) }]);
  });

  it("refreshes the tree only after this chat's own writes created, deleted or moved a file", async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const first = await runTurn({
      message: 'edit a',
      root,
      ledger,
      model: scriptedModel([
        callTool('fs_edit', { path: 'src/a.ts', oldString: '= 1', newString: '= 2' }),
        callTool('fs_tree', {}),
        callTool('fs_write', { path: 'src/new.ts', content: 'x\n' }),
        callTool('fs_tree', {}),
        say('Updated src/a.ts and created src/new.ts.'),
      ]),
    });
    // An edit leaves the layout alone; a created file refreshes it.
    expect(treeCalls(ledger, first.runId)).toEqual([
      { cached: true, tree: expect.not.stringContaining('new.ts') },
      { cached: false, tree: expect.stringContaining('new.ts') },
    ]);

    const second = await runTurn({
      chatId: first.chatId,
      message: 'move it',
      root,
      ledger,
      model: scriptedModel([
        callTool('fs_tree', {}),
        callTool('fs_move', { from: 'src/new.ts', to: 'src/renamed.ts' }),
        callTool('fs_tree', {}),
        say('Moved src/new.ts to src/renamed.ts.'),
      ]),
    });
    expect(treeCalls(ledger, second.runId)).toEqual([
      { cached: true, tree: expect.stringContaining('new.ts') },
      { cached: false, tree: expect.stringContaining('renamed.ts') },
    ]);
    expect(second.changes).toEqual([
      expect.objectContaining({ path: 'src/renamed.ts', change: 'moved', from: 'src/new.ts' }),
    ]);
    expect(second.flags).toEqual([]);

    const third = await runTurn({
      chatId: first.chatId,
      message: 'tree',
      root,
      ledger,
      model: scriptedModel([callTool('fs_tree', {}), say('Done.')]),
    });
    expect(treeCalls(ledger, third.runId)).toEqual([
      { cached: true, tree: expect.stringContaining('renamed.ts') },
    ]);
  });

  it('does not refresh for a file created and deleted again in the same turn', async () => {
    const root = sampleProject();
    const ledger = tempLedger();
    const result = await runTurn({
      message: 'scratch',
      root,
      ledger,
      model: scriptedModel([
        callTool('fs_write', { path: 'tmp.txt', content: 'x' }),
        callTool('fs_delete', { path: 'tmp.txt' }),
        callTool('fs_tree', {}),
        say('Nothing left behind.'),
      ]),
    });
    expect(treeCalls(ledger, result.runId)).toEqual([{ cached: true, tree: expect.any(String) }]);
    expect(result.changes).toEqual([]);
  });
});
