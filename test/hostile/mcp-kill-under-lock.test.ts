import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { unresolvedIntents } from '../../src/core/intents.js';
import { isTallyTempName } from '../../src/core/io/temp-files.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { tempDir } from '../helpers.js';
import { holdLock } from './hold-lock.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
const env = { ...process.env, TALLY_LEDGER: '' } as Record<string, string>;

async function serve(root: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--root', root, '--packs', 'fs'],
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'kill-under-lock', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid as number };
}

function ledgerEntries(root: string) {
  const ledger = Ledger.open(join(root, '.tally', 'ledger.db'), { readonly: true });
  try {
    return ledger.listRuns().flatMap((run) => ledger.entries(run.id));
  } finally {
    ledger.close();
  }
}

/** A pid that certainly belongs to no process any more. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid as number;
}

// Issue 19, findings 4 and 14, with the real `tally mcp` process: another process holds the
// ledger's write lock, ten writes are sent, and the server is killed with SIGKILL while they
// wait. Before: 10 of 10 files on disk, 0 entries. Now the intent must be committed before
// the rename, so nothing is written that the ledger cannot account for.
describe('`tally mcp` killed with SIGKILL while another process holds the ledger lock', () => {
  it('leaves no file on disk without an entry (0 of 10 written, nothing unaccounted for)', async () => {
    const root = tempDir('tally-kill-lock-');
    Ledger.open(join(root, '.tally', 'ledger.db')).close();
    const { client, pid } = await serve(root);
    const { child, released } = await holdLock(join(root, '.tally', 'ledger.db'), 60_000);
    const calls = Array.from({ length: 10 }, (_, index) =>
      client
        .callTool({ name: 'fs_write', arguments: { path: `w${index}.txt`, content: `write ${index}` } })
        .catch(() => 'closed'),
    );
    // Well past the 50 ms first attempt, well within the 10 s busy limit: the writes are waiting.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    process.kill(pid, 'SIGKILL');
    const answers = await Promise.all(calls);
    expect(answers).toEqual(Array(10).fill('closed'));
    child.kill('SIGKILL');
    await released;
    const written = readdirSync(root).filter((name) => name.startsWith('w'));
    const entries = ledgerEntries(root);
    const named = new Set(
      entries.flatMap((entry) =>
        entry.kind === 'tool_call' ? [String((entry.data.input as { path?: string }).path)] : [],
      ),
    );
    process.stdout.write(
      `mcp-kill-under-lock: 10 writes under a held lock, then kill -9: ${answers.filter((answer) => answer !== 'closed').length} acknowledged, ${written.length} files on disk, ${written.filter((name) => !named.has(name)).length} without an entry\n`,
    );
    expect(written.filter((name) => !named.has(name))).toEqual([]);
    expect(written).toEqual([]);
    // The intents never reached the disk either: there is nothing to resolve.
    expect(unresolvedIntents(entries)).toEqual([]);
    // What the kill left: the write in progress (changes run one at a time, the other nine
    // waited their turn) under its temporary name, the killed server's pid in it; the next start
    // removes it, since that pid is gone.
    const leftovers = readdirSync(root).filter(isTallyTempName);
    expect(leftovers).toHaveLength(1);
    expect(leftovers.every((name) => name.includes(`.tally-${pid}-`))).toBe(true);
    const again = await serve(root);
    expect(readdirSync(root).filter(isTallyTempName)).toEqual([]);
    expect(readdirSync(root).sort()).toEqual(['.tally']);
    await again.client.close();
  }, 60_000);

  it("the next `tally mcp` start sweeps orphaned temporary files: a dead writer's at once, a live one's left", async () => {
    const root = tempDir('tally-sweep-start-');
    mkdirSync(join(root, 'src'));
    const orphan = join(root, 'src', `.a.ts.tally-${deadPid()}-0123456789ab.tmp`);
    const live = join(root, 'src', `.b.ts.tally-${process.pid}-0123456789ab.tmp`);
    const legacyFresh = join(root, `.c.md.tally-abcdef012345.tmp`);
    const userFile = join(root, 'src', '.a.ts.tally-backup.tmp');
    for (const path of [orphan, live, legacyFresh, userFile]) writeFileSync(path, 'x');
    const { client } = await serve(root);
    expect(existsSync(orphan)).toBe(false);
    expect([live, legacyFresh, userFile].map(existsSync)).toEqual([true, true, true]);
    await client.close();
  }, 60_000);
});
