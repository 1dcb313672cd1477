import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';

/**
 * Issue 17, acceptance 3: one verdict. A flagged turn and a failed turn replayed through the
 * built CLI; the exit code, `--json`, the ledger's end entry (`runs show --json`), `runs`,
 * `stats` and the HTML report must all tell the same status.
 */
function project(): { root: string; ledger: string } {
  const base = tempDir('tally-verdict-');
  const root = join(base, 'proj');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  return { root, ledger: join(base, 'ledger.db') };
}

function cassette(dir: string, message: string, steps: unknown[]): string {
  const file = join(dir, 'turn.cassette.json');
  writeFileSync(file, JSON.stringify({ version: 1, message, steps }));
  return file;
}

const CASES = {
  // The reply claims a file the turn never wrote.
  flagged: {
    message: 'Add src/b.ts exporting b = 2',
    steps: [
      {
        toolCalls: [{ toolName: 'fs_write', input: { path: 'src/b.ts', content: 'export const b = 2;\n' } }],
      },
      { text: 'I created src/b.ts and updated src/a.ts to re-export it.' },
    ],
    status: 'partial',
  },
  // The last call fails and the model answers in text as if done.
  failed: {
    message: 'Fix src/missing.ts',
    steps: [
      { toolCalls: [{ toolName: 'fs_read', input: { path: 'src/missing.ts' } }] },
      { text: 'Fixed it.' },
    ],
    status: 'failed',
  },
} as const;

describe('tally code --replay: one verdict everywhere', () => {
  for (const [name, turn] of Object.entries(CASES)) {
    it(`a ${name} turn: exit code, --json, the end entry, runs, stats and the report agree (${turn.status})`, async () => {
      const { root, ledger } = project();
      const file = cassette(join(root, '..'), turn.message, [...turn.steps]);
      const code = await runTally(['code', '--root', root, '--replay', file, '--ledger', ledger, '--json']);
      expect(code.code, code.stderr).toBe(1);
      const result = JSON.parse(code.stdout) as { status: string; runId: string; unmet: string[] };
      expect(result.status).toBe(turn.status);

      const shown = await runTally(['runs', 'show', result.runId, '--ledger', ledger, '--json']);
      const record = JSON.parse(shown.stdout) as {
        entries: { kind: string; data: Record<string, unknown> }[];
      };
      const end = record.entries.filter((entry) => entry.kind === 'end');
      expect(end).toHaveLength(1);
      expect(end[0]?.data.status).toBe(turn.status);
      expect(end[0]?.data.unmet).toEqual(result.unmet);

      const runs = await runTally(['runs', '--ledger', ledger, '--json']);
      const listed = (JSON.parse(runs.stdout) as { id: string; status: string }[]).find(
        (run) => run.id === result.runId,
      );
      expect(listed?.status).toBe(turn.status);

      const stats = await runTally(['stats', '--ledger', ledger, '--json']);
      const coder = (JSON.parse(stats.stdout) as { statusByAgent: Record<string, Record<string, number>> })
        .statusByAgent.coder;
      expect(coder).toMatchObject({ runs: 1, success: 0, [turn.status]: 1 });

      const out = join(root, '..', 'report.html');
      const report = await runTally(['report', result.runId, '--ledger', ledger, '--out', out]);
      expect(report.code, report.stderr).toBe(0);
      expect(readFileSync(out, 'utf8')).toContain(
        `<span class="badge ${turn.status === 'failed' ? 'bad' : 'warn'}">${turn.status}</span>`,
      );
    });
  }
});
