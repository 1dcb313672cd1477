// `tally agent`: an agent from a user's module reaches the CLI without a command of its own —
// the built CLI in a child process, the real OpenAI provider package, aimock on 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/core/sqlite/open-sqlite.js';
import { Ledger } from '../../src/index.js';
import { type AimockServer, startAimock } from '../../src/testing/aimock.js';
import { interruptOnFirstRequest, runTally, tempDir } from '../helpers.js';

const repo = join(import.meta.dirname, '..', '..');
const module = join(repo, 'test', 'fixtures', 'packs', 'sql', 'sql-agent.ts');
const call = (id: string, name: string, input: unknown) => ({ id, name, arguments: JSON.stringify(input) });

function tempDb(): string {
  const path = join(tempDir(), 'shop.db');
  const db = openSqlite(path);
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  db.close();
  return path;
}

describe('tally agent NAME TASK --agent-module', () => {
  let server: AimockServer<LLMock>;
  beforeAll(async () => {
    server = await startAimock<LLMock>((mock) => {
      mock.onToolResult('call_finish', { content: 'done' });
      mock.onToolResult('call_insert', {
        toolCalls: [
          call('call_finish', 'finish', {
            summary: 'Added the stool, and the lamp.',
            claims: [
              { target: 'items/9', effect: 'created' },
              { target: 'items/10', effect: 'created' },
            ],
          }),
        ],
      });
      mock.onMessage('Add a stool', {
        toolCalls: [
          call('call_insert', 'sql_exec', { sql: "INSERT INTO items (id, name) VALUES (9, 'Stool')" }),
        ],
      });
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("runs the module's agent with a real provider: the made row verified, the invented one dropped (exit 1)", async () => {
    const db = tempDb();
    const ledgerPath = join(tempDir(), 'ledger.db');
    const run = await runTally(
      [
        '--ledger',
        ledgerPath,
        'agent',
        'shopkeeper',
        'Add a stool',
        '--agent-module',
        module,
        '--pack-option',
        `shopkeeper.db=${db}`,
      ],
      { cwd: repo, env: { ...server.env, TALLY_MODEL: 'openai:gpt-4.1-mini', NODE_OPTIONS: '--import tsx' } },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^partial: /);
    expect(run.stdout).toContain('✓ created items/9');
    expect(run.stdout).toMatch(/✗ items\/10: this run has no effect on items\/10/);
    const ledger = Ledger.open(ledgerPath, { readonly: true });
    try {
      expect(ledger.listRuns({ agent: 'shopkeeper' })).toHaveLength(1);
    } finally {
      ledger.close();
    }
  });

  it('names the agents a module has when asked for another (exit 2)', async () => {
    const run = await runTally(
      ['--ledger', join(tempDir(), 'l.db'), 'agent', 'cashier', 'x', '--agent-module', module],
      {
        cwd: repo, // where --import tsx resolves
        env: { NODE_OPTIONS: '--import tsx' },
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('No agent "cashier"');
    expect(run.stderr).toContain('Agents there: shopkeeper.');
  });

  // `tally agent` ran outside the interrupt wrapper the other run commands use: a signal killed
  // the process with the model call in flight, and the run had no end entry.
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    '%s while the model call is in flight: exit 130, the run ends aborted with its end entry',
    async (signal) => {
      const hanging = createServer(() => undefined);
      await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/v1`;
      const ledgerPath = join(tempDir(), 'ledger.db');
      try {
        const { code } = await interruptOnFirstRequest(
          {
            bin: join(repo, 'bin', 'tally.js'),
            args: [
              '--ledger',
              ledgerPath,
              'agent',
              'shopkeeper',
              'Add a stool',
              '--agent-module',
              module,
              '--pack-option',
              `shopkeeper.db=${tempDb()}`,
            ],
            cwd: repo, // where --import tsx resolves
            env: {
              ...process.env,
              NODE_OPTIONS: '--import tsx',
              TALLY_LEDGER: '',
              TALLY_MODEL: 'openai:gpt-4.1-mini',
              OPENAI_BASE_URL: url,
              OPENAI_API_KEY: 'hanging',
              TALLY_INTERRUPT_GRACE_MS: '200',
              XDG_STATE_HOME: tempDir(),
            },
          },
          hanging,
          signal,
        );
        expect(code).toBe(130);
        const ledger = Ledger.open(ledgerPath, { readonly: true });
        try {
          const [run] = ledger.listRuns({ agent: 'shopkeeper' });
          expect(run).toMatchObject({ endingReason: 'aborted' });
          const end = ledger.entries(run?.id ?? '').find((entry) => entry.kind === 'end');
          expect(end?.outcome).toBe('aborted');
        } finally {
          ledger.close();
        }
      } finally {
        hanging.closeAllConnections();
        await new Promise<void>((resolve) => hanging.close(() => resolve()));
      }
    },
    60_000,
  );
});
