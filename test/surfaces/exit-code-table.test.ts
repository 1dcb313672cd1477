import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODE_TABLE } from '../../src/surfaces/cli/exit-codes.js';
import { interruptOnFirstRequest, runTally, tempDir, tempLedger } from '../helpers.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const HAR = join(import.meta.dirname, '..', '..', 'demo', 'captures', 'demo-app.har');
const TALLY_BIN = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');

/** The rows of README's "Exit codes" table. */
function readmeExitTable(): { code: number; meaning: string; examples: string }[] {
  const section = README.split(/^## Exit codes$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\| `(\d+)` +\| ([^|]+?) +\| ([^|]+?) +\|$/gm)].map((match) => ({
    code: Number(match[1]),
    meaning: match[2] as string,
    examples: match[3] as string,
  }));
}

function recordsRoot(content: string): string {
  const root = tempDir();
  mkdirSync(join(root, 'plans'));
  writeFileSync(join(root, 'plans', 'one.md'), content);
  return root;
}
const GOOD_RECORD =
  '---\nid: PLAN-one\nkind: plan\ndate: 2026-01-01\nkeywords: [one]\nlinks: {}\nstatus: active\n---\nThe only plan.\n';

describe('one exit-code table: the module, the README and the CLI agree', () => {
  let hanging: Server;
  let hangingUrl = '';
  beforeAll(async () => {
    // Accepts every request and never answers: creates stay in flight until the interrupt.
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
  });

  it("README's table lists exactly the module's codes and meanings", () => {
    expect(readmeExitTable()).toEqual(EXIT_CODE_TABLE.map((row) => ({ ...row })));
    expect(EXIT_CODE_TABLE.map((row) => row.code)).toEqual(Object.values(EXIT));
  });

  it('0: done', async () => {
    const lint = await runTally(['records', 'lint', '--root', recordsRoot(GOOD_RECORD)]);
    expect(lint.code, lint.stderr).toBe(EXIT.ok);
  });

  it('1: ran, but not met (a record with a problem)', async () => {
    const lint = await runTally([
      'records',
      'lint',
      '--root',
      recordsRoot(GOOD_RECORD.replace('keywords: [one]', 'keywords: []')),
    ]);
    expect(lint.code, lint.stdout).toBe(EXIT.notMet);
    expect(lint.stdout).toMatch(/1 record, [1-9]\d* problems?/);
  });

  it('2: a usage error prints the error, its "Did you mean" and a one-line hint — not the whole help', async () => {
    const unknown = await runTally(['fsh', '1 suite']);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr.trim().split('\n')).toEqual([
      "error: unknown command 'fsh'",
      '(Did you mean fish?)',
      'Run `tally --help` for usage.',
    ]);
    const badNumber = await runTally(['fish', '1 suite', '--concurrency', 'zero']);
    expect(badNumber.code).toBe(EXIT.usage);
    expect(badNumber.stderr).toContain("option '--concurrency <n>' argument 'zero' is invalid.");
    expect(badNumber.stderr).not.toContain('--limit');
    expect(badNumber.stderr).toContain('Run `tally fish --help` for usage.');
    expect(badNumber.stderr.trim().split('\n')).toHaveLength(2);
  });

  it('3: could not run — a ledger that is not a database, named as such', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'notadb.db'), 'hello, not SQLite\n'.repeat(100));
    const runs = await runTally(['runs', '--ledger', 'notadb.db'], { cwd });
    expect(runs.code).toBe(EXIT.unavailable);
    expect(runs.stderr).toMatch(
      /notadb\.db is not a Tally ledger \(file is not a database\)\. Pass --ledger/,
    );
    expect(runs.stderr).not.toContain('bug in Tally');
  });

  it('3: could not run — `tally demo` with a ledger that cannot open ends, not held open by its app', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'notadb.db'), 'hello, not SQLite\n'.repeat(100));
    // The demo app used to start first and its listening server kept the process alive after
    // the error: this call then never returned.
    const demo = await runTally(['demo', '--ledger', 'notadb.db'], { cwd });
    expect(demo.code).toBe(EXIT.unavailable);
    expect(demo.stderr).toMatch(/notadb\.db is not a Tally ledger/);
  }, 20_000);

  it('3: could not run — an unreachable --base-url, before any run or tool call', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const cwd = tempDir();
    const fish = await runTally(
      [
        'fish',
        '1 suite',
        '--captures',
        HAR,
        '--base-url',
        `http://127.0.0.1:${port}`,
        '--scope',
        '/projects/alpha-shop',
      ],
      { cwd },
    );
    expect(fish.code).toBe(EXIT.unavailable);
    expect(fish.stderr).toContain(
      `Cannot reach http://127.0.0.1:${port} (ECONNREFUSED); nothing was sent. Check --base-url`,
    );
    const spec = await runTally(['fish', '1 suite', '--spec', `http://127.0.0.1:${port}/openapi.json`], {
      cwd,
    });
    expect(spec.code).toBe(EXIT.unavailable);
    expect(spec.stderr).toMatch(
      /Cannot reach http:\/\/127\.0\.0\.1:\d+ to read the OpenAPI document .*ECONNREFUSED/,
    );
    expect(existsSync(join(cwd, '.tally', 'ledger.db'))).toBe(true);
    const runs = await runTally(['runs', '--json', '--ledger', join(cwd, '.tally', 'ledger.db')]);
    expect(runs.stdout).not.toContain('run_');
  });

  it('4: not reproduced — an end entry that claims an item no claim in the ledger backs', async () => {
    const ledger = tempLedger();
    const run = ledger.startRun({ agent: 'hand-written', task: 'nothing' });
    run.append({
      kind: 'end',
      name: 'finished',
      outcome: 'finished',
      data: { reason: 'finished', status: 'success', verified: 1, dropped: 0 },
    });
    await run.commit();
    const verify = await runTally(['--ledger', ledger.path, 'verify', run.runId]);
    expect(verify.code, verify.stderr).toBe(EXIT.notReproduced);
    expect(verify.stdout).toContain('the end entry records verified 1, the ledger gives 0');
  });

  // SIGHUP: the terminal closed under the command (a window shut, an ssh session dropped).
  it.each(['SIGINT', 'SIGHUP'] as const)(
    '130: interrupted — %s while creates are in flight',
    async (signal) => {
      const { code, stdout } = await interruptOnFirstRequest(
        {
          bin: TALLY_BIN,
          args: [
            'fish',
            '2 suites',
            '--captures',
            HAR,
            '--base-url',
            hangingUrl,
            '--scope',
            '/projects/alpha-shop',
          ],
          cwd: tempDir(),
          env: {
            ...process.env,
            NO_COLOR: '1',
            TALLY_LEDGER: '',
            TALLY_MODEL: '',
            TALLY_INTERRUPT_GRACE_MS: '200',
            XDG_STATE_HOME: tempDir(),
          },
        },
        hanging,
        signal,
      );
      expect(code).toBe(EXIT.interrupted);
      expect(stdout).toMatch(/ending aborted/);
    },
    60_000,
  );
});
