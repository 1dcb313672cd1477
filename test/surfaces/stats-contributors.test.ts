import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatTurnStats } from '../../src/agents/coder/chat-turn-stats.js';
import { countForStats, statsFromCounts } from '../../src/core/ledger/compute-stats.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { sqlWriteStats } from '../fixtures/packs/sql/sql-stats.js';
import { runTally, tempDir } from '../helpers.js';

const repo = resolve(import.meta.dirname, '..', '..');
const SQL_PACK = join(repo, 'test', 'fixtures', 'packs', 'sql', 'sql-pack.ts');
const SINCE = '2000-01-01T00:00:00.000Z';

/** A ledger with one Coder chat turn and three SQL pack writes (two ok, one rejected). */
function ledgerWithContributions(): string {
  const path = join(tempDir(), 'ledger.db');
  const ledger = Ledger.open(path);
  const chat = ledger.startRun({ agent: 'coder', task: 'look', meta: { chatId: 'chat-1' } });
  chat.append({ kind: 'tool_call', name: 'fs_tree', outcome: 'ok', data: { evidence: { cached: true } } });
  chat.append({
    kind: 'tool_call',
    name: 'fs_write',
    outcome: 'rejected',
    data: { error: { code: 'PATH_OUTSIDE_PROJECT' } },
  });
  chat.append({ kind: 'guard', name: 'silence', outcome: 'nudge', data: {} });
  chat.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
  const sql = ledger.startRun({ agent: 'sql-agent', task: 'add rows' });
  for (const outcome of ['ok', 'ok', 'rejected'] as const)
    sql.append({ kind: 'tool_call', name: 'sql_exec', outcome, data: { tool: 'sql_exec' } });
  sql.append({ kind: 'end', outcome: 'finished', data: { status: 'success' } });
  ledger.close();
  return path;
}

describe('stats contributors: a pack or an agent adds its own figures to `tally stats`', () => {
  it("a pack module's contributor adds its row to the text and its figures to --json; without the module, neither", async () => {
    const ledger = ledgerWithContributions();
    const env = { NODE_OPTIONS: '--import tsx' };
    const base = ['--ledger', ledger, 'stats', '--since', '30d'];
    const text = await runTally([...base, '--pack-module', SQL_PACK], { env, cwd: repo });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('\nSQL writes: 2 ok, 1 rejected\n');
    const json = await runTally([...base, '--json', '--pack-module', SQL_PACK], { env, cwd: repo });
    expect(JSON.parse(json.stdout).sqlWrites).toEqual({ ok: 2, rejected: 1 });
    const without = await runTally(base, { cwd: repo });
    expect(without.code).toBe(0);
    expect(without.stdout).not.toContain('SQL writes');
    expect(JSON.parse((await runTally([...base, '--json'], { cwd: repo })).stdout)).not.toHaveProperty(
      'sqlWrites',
    );
  });

  it("the Coder's chat-turn section, now a contributor the CLI registers, prints as before (last, after fail-opens)", async () => {
    const run = await runTally(['--ledger', ledgerWithContributions(), 'stats', '--since', '30d']);
    const today = new Date().toISOString().slice(0, 10);
    expect(run.code).toBe(0);
    expect(run.stdout.split('Fail-opens by why: none\n')[1]).toBe(
      [
        'Coder chat turns: 1 in 1 chat(s)',
        '  Recoveries (turns that ended badly), by reason:',
        '    tool_failure         1 (100.0% of turns)',
        '  Silence nudge fired in:           100.0% of turns',
        '  Conversational guard fired in:    0.0% of turns',
        `  PATH_OUTSIDE_PROJECT per day: ${today} 1`,
        '  fs_tree calls per chat: 1.00 (max 1; 1 in all, 1 from the cache)',
        '',
      ].join('\n'),
    );
  });

  it("refuses a contributor whose name another contributor or one of core's figures has (exit 2), before counting", async () => {
    const ledger = ledgerWithContributions();
    const env = { NODE_OPTIONS: '--import tsx' };
    const run = await runTally(
      ['--ledger', ledger, 'stats', '--pack-module', SQL_PACK, '--pack-module', SQL_PACK],
      { env, cwd: repo },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Two stats contributors are named "sqlWrites"');
    const clash = join(repo, 'test', 'fixtures', 'packs', 'stats-clash', 'stats-clash-pack.ts');
    const core = await runTally(['--ledger', ledger, 'stats', '--pack-module', clash], {
      env,
      cwd: repo,
    });
    expect(core.code).toBe(2);
    expect(core.stderr).toContain('A stats contributor is named "runs", which is one of core\'s figures');
    expect(core.stdout).toBe('');
  });

  it("the counts of several ledgers add up before a contributor's figures are derived", async () => {
    const paths = [ledgerWithContributions(), ledgerWithContributions()];
    const contributors = [chatTurnStats, sqlWriteStats];
    const counts = [];
    for (const path of paths) {
      const ledger = Ledger.open(path);
      counts.push(await countForStats(ledger, SINCE, { contributors }));
      ledger.close();
    }
    const stats = statsFromCounts(counts, SINCE, contributors);
    expect(stats.sqlWrites).toEqual({ ok: 4, rejected: 2 });
    // Two chats of one id each ledger: one chat id, two turns, both nudged.
    expect(stats.chatTurns).toMatchObject({ turns: 2, chats: 1, nudgeRate: 1 });
    expect(statsFromCounts(counts, SINCE, [])).not.toHaveProperty('sqlWrites');
  });
});
