import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unresolvedIntents } from '../../src/core/intents.js';
import { invokeTool } from '../../src/core/invoke-tool.js';
import { isTallyTempName, sweepOrphanedTempFiles } from '../../src/core/io/temp-files.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import type { ToolDefinition } from '../../src/core/tool.js';
import { ProjectRoot } from '../../src/packs/workspace/project-root.js';
import { workspaceTools } from '../../src/packs/workspace/tools/index.js';
import { formatRun } from '../../src/surfaces/cli/format-run.js';
import { tempDir } from '../helpers.js';

const CHILD = join(import.meta.dirname, 'fixtures', 'workspace-call-then-pause.ts');
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

function project() {
  const base = tempDir('tally-intent-kill-');
  const root = join(base, 'proj');
  mkdirSync(root);
  writeFileSync(join(root, 'a.txt'), 'old\n');
  return { root, ledgerPath: join(base, 'ledger.db') };
}

/** A real child process runs the call and is killed with SIGKILL where it stops. */
async function killDuring(
  ledgerPath: string,
  root: string,
  tool: string,
  input: unknown,
  pauseAt: 'after-change' | 'before-rename',
) {
  const child = fork(CHILD, [ledgerPath, root, tool, JSON.stringify(input), pauseAt], {
    execArgv: ['--import', 'tsx'],
  });
  const stopped = await new Promise<{ where: string; runId: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { where: string; runId: string }));
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before stopping`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  const ledger = Ledger.open(ledgerPath);
  try {
    return { ...stopped, record: ledger.getRun(stopped.runId), childPid: child.pid as number };
  } finally {
    ledger.close();
  }
}

// Issue 19, finding 14: a kill -9 between the rename and the ledger commit left a changed
// file with no entry. Now the intent is committed before the rename: the kill leaves an
// intent without an outcome, which `tally runs show` shows and the verdict counts.
describe('kill -9 between a workspace change and its ledger entry', () => {
  it('fs_write: the file on disk is named by a committed intent carrying its sha256', async () => {
    const { root, ledgerPath } = project();
    const { where, record } = await killDuring(
      ledgerPath,
      root,
      'fs_write',
      { path: 'a.txt', content: 'new content\n' },
      'after-change',
    );
    expect(where).toBe('after-change');
    // The change happened and was never answered…
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('new content\n');
    expect(record.entries.filter((entry) => entry.kind === 'tool_call')).toEqual([]);
    // …but the ledger knows it was about to happen, and what the file would then hold.
    const intents = record.entries.filter((entry) => entry.kind === 'intent');
    expect(intents).toHaveLength(1);
    expect(intents[0]?.data).toMatchObject({
      tool: 'fs_write',
      action: 'write',
      resources: [{ space: 'file', key: 'a.txt' }],
      details: { sha256: sha256('new content\n'), bytes: 12 },
    });
    expect((intents[0]?.data.details as { sha256?: string } | undefined)?.sha256).toBe(
      sha256(readFileSync(join(root, 'a.txt'))),
    );
    expect(unresolvedIntents(record.entries).map((intent) => intent.tool)).toEqual(['fs_write']);
    const shown = formatRun(record);
    expect(shown).toContain('unresolved intents (1):');
    expect(shown).toContain('fs_write intended to write file a.txt, but no outcome was recorded');
    expect(shown).toContain('the run has not ended');
  }, 30_000);

  it('fs_move and fs_delete: the intent names every path the change touched', async () => {
    const { root, ledgerPath } = project();
    const moved = await killDuring(
      ledgerPath,
      root,
      'fs_move',
      { from: 'a.txt', to: 'b/c.txt' },
      'after-change',
    );
    expect(existsSync(join(root, 'b', 'c.txt'))).toBe(true);
    expect(unresolvedIntents(moved.record.entries)).toMatchObject([
      { tool: 'fs_move', action: 'move', resources: [{ key: 'a.txt' }, { key: 'b/c.txt' }] },
    ]);
    const deleted = await killDuring(ledgerPath, root, 'fs_delete', { path: 'b/c.txt' }, 'after-change');
    expect(existsSync(join(root, 'b', 'c.txt'))).toBe(false);
    expect(unresolvedIntents(deleted.record.entries)).toMatchObject([
      { tool: 'fs_delete', action: 'delete', resources: [{ space: 'file', key: 'b/c.txt' }] },
    ]);
  }, 30_000);

  it('in one process: the intent is committed before the rename and the tool_call answers it', async () => {
    const { root, ledgerPath } = project();
    const ledger = Ledger.open(ledgerPath);
    const recorder = ledger.startRun({ agent: 'intent-test', task: 'write, refuse' });
    const tools = workspaceTools({
      root: await ProjectRoot.open(root),
      writeHooks: {
        // At the rename, a second connection already sees the intent: it is on disk, not queued.
        beforeRename: async () => {
          const reader = Ledger.open(ledgerPath, { readonly: true });
          try {
            seenBeforeRename = reader.entries(recorder.runId).map((entry) => entry.kind);
          } finally {
            reader.close();
          }
        },
      },
    });
    let seenBeforeRename: string[] = [];
    const call = (name: string, input: unknown) =>
      invokeTool(tools.find((tool) => tool.name === name) as ToolDefinition, input, {
        recorder,
        failOpen: () => undefined,
      });
    expect((await call('fs_write', { path: 'a.txt', content: 'new\n' })).outcome).toBe('ok');
    expect(seenBeforeRename).toEqual(['intent']);
    // Refused before any change: no intent at all, and the refusal is the entry.
    expect((await call('fs_write', { path: '../out.txt', content: 'x' })).outcome).toBe('rejected');
    expect((await call('fs_edit', { path: 'a.txt', oldString: 'new', newString: 'edited' })).outcome).toBe(
      'ok',
    );
    const entries = recorder.entries();
    expect(entries.map((entry) => entry.kind)).toEqual([
      'intent',
      'tool_call',
      'tool_call',
      'intent',
      'tool_call',
    ]);
    expect(entries[3]?.data).toMatchObject({
      tool: 'fs_edit',
      action: 'write',
      details: { sha256: sha256('edited\n'), bytes: 7 },
    });
    expect(entries[4]?.data.intents).toEqual([entries[3]?.data.intentId]);
    expect(entries[1]?.data.intents).toEqual([entries[0]?.data.intentId]);
    expect(unresolvedIntents(entries)).toEqual([]);
    expect(formatRun(ledger.getRun(recorder.runId))).not.toContain('unresolved');
    ledger.close();
  });

  it('killed before the rename: the old content stays, and the start-up sweep removes the orphaned temporary file at once', async () => {
    const { root, ledgerPath } = project();
    const { where, record, childPid } = await killDuring(
      ledgerPath,
      root,
      'fs_write',
      { path: 'a.txt', content: 'never renamed\n' },
      'before-rename',
    );
    expect(where).toBe('before-rename');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('old\n');
    const orphans = readdirSync(root).filter(isTallyTempName);
    expect(orphans).toHaveLength(1);
    expect(orphans[0]).toContain(`.tally-${childPid}-`);
    // The intent names the temporary file it left, for whoever looks before the sweep.
    const [intent] = unresolvedIntents(record.entries);
    expect(record.entries.find((entry) => entry.kind === 'intent')?.data.details).toMatchObject({
      temporary: orphans[0],
    });
    expect(intent?.resources).toEqual([{ space: 'file', key: 'a.txt' }]);
    // Beside it: a live writer's file (this process, just written), a look-alike of the user's,
    // and a symlink with our name: none of them is touched.
    const live = `.a.txt.tally-${process.pid}-0123456789ab.tmp`;
    writeFileSync(join(root, live), 'in flight');
    writeFileSync(join(root, '.a.txt.tally-notes.tmp'), 'mine');
    writeFileSync(join(root, 'a.txt.tally-0123456789ab.tmp'), 'mine too (no leading dot)');
    const swept = sweepOrphanedTempFiles(root);
    expect(swept).toEqual({ removed: [orphans[0]], truncated: false });
    expect(readdirSync(root).sort()).toEqual(
      ['.a.txt.tally-notes.tmp', live, 'a.txt', 'a.txt.tally-0123456789ab.tmp'].sort(),
    );
    // A minute later even a live writer's file is an orphan (no write takes that long).
    const old = new Date(Date.now() - 61_000);
    utimesSync(join(root, live), old, old);
    expect(sweepOrphanedTempFiles(root).removed).toEqual([live]);
  }, 30_000);
});
