import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { runAgent } from '../../src/core/agent/run-agent.js';
import type { RunEvent } from '../../src/core/agent/run-observer.js';
import { runPlan } from '../../src/core/agent/run-plan.js';
import { createProgressRenderer } from '../../src/surfaces/cli/progress/progress-renderer.js';
import { callTool, scriptedModel } from '../../src/testing/scripted-model.js';
import { itemAgent } from '../core/agent/fixtures.js';
import { runTally, tempDir, tempLedger } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

/** A stream that keeps what is written (no TTY: the spinner stays off). */
function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  // Colours depend on the environment (CI turns them on): the words are what is asserted.
  return { stream, text: () => text.replace(/\u001b\[[0-9;]*m/g, '') };
}

const fishArgs = (baseUrl: string, ...extra: string[]) => [
  'fish',
  '1 suite',
  '--captures',
  BUNDLED_HAR,
  '--base-url',
  baseUrl,
  '--scope',
  '/projects/alpha-shop',
  '--login',
  'demo',
  ...extra,
];

describe('run progress', () => {
  it('an observer sees every ledger append once, redacted, plus the model text per step', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const events: RunEvent[] = [];
    const model = scriptedModel([
      callTool('put_item', { id: 'a1', value: 'x' }, 'Storing a1 with token s3cret-value-42.'),
      callTool('finish', { summary: 'Stored a1.', claims: [{ target: 'a1', type: 'item' }] }),
    ]);
    const result = await ledger.withKnownSecrets(['s3cret-value-42'], () =>
      runAgent(agent, 'Store item a1', { ledger, model, onEvent: (event) => events.push(event) }),
    );
    const appended = ledger.entries(result.runId).map((entry) => entry.kind);
    const observed = events.flatMap((event) => (event.type === 'entry' ? [event.entry.kind] : []));
    expect(observed).toEqual(appended);
    expect(events[0]).toMatchObject({ type: 'run-start', runId: result.runId, agent: 'items' });
    const said = events.find((event) => event.type === 'model-text');
    expect(said).toMatchObject({ type: 'model-text' });
    expect(JSON.stringify(said)).toContain('Storing a1');
    expect(JSON.stringify(events)).not.toContain('s3cret-value-42');
  });

  it('a plan run handed its secrets and observer (no scope, so no AsyncLocalStorage) scrubs and tells the same', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const events: RunEvent[] = [];
    const scoped = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    try {
      const result = await runPlan(
        agent,
        'Store item a1',
        async (call) => {
          await call('put_item', { id: 'a1', value: 'token s3cret-value-42 inside' });
          return { finish: { summary: 'Stored a1.', claims: [{ target: 'a1', type: 'item' }] } };
        },
        { ledger, knownSecrets: ['s3cret-value-42'], onEvent: (event) => events.push(event) },
      );
      expect(result.status).toBe('success');
      const appended = ledger.entries(result.runId);
      expect(events.flatMap((event) => (event.type === 'entry' ? [event.entry.kind] : []))).toEqual(
        appended.map((entry) => entry.kind),
      );
      expect(JSON.stringify(appended)).toContain('token [redacted] inside');
      expect(JSON.stringify(appended)).not.toContain('s3cret-value-42');
      expect(JSON.stringify(events)).not.toContain('s3cret-value-42');
      expect(scoped).not.toHaveBeenCalled();
    } finally {
      scoped.mockRestore();
    }
  });

  it('an observer that throws is detached; the run and its ledger are unaffected', async () => {
    const { agent } = itemAgent();
    const ledger = tempLedger();
    const model = scriptedModel([callTool('stop', { reason: 'nothing to do' })]);
    const result = await runAgent(agent, 'Nothing', {
      ledger,
      model,
      onEvent: () => {
        throw new Error('renderer broke');
      },
    });
    expect(result.endingReason).toBe('stopped');
    expect(ledger.entries(result.runId).at(-1)?.kind).toBe('end');
  });

  it('the renderer prints the model text as it streams, each model call, and each tool call with target and status', async () => {
    const { agent } = itemAgent();
    const out = collector();
    const renderer = await createProgressRenderer({ stream: out.stream, verbose: false, spinner: false });
    const model = scriptedModel([
      callTool('put_item', { id: 'a1', value: 'x' }, 'Storing a1.'),
      callTool('get_item', { id: 'missing' }),
      callTool('finish', { summary: 'Stored a1.', claims: [{ target: 'a1', type: 'item' }] }),
    ]);
    await runAgent(agent, 'Store item a1', { ledger: tempLedger(), model, onEvent: renderer.observer });
    renderer.stop();
    const lines = out.text().split('\n');
    expect(lines[0]).toMatch(/^▸ items \(.+\) run run_/);
    // The text streams in before its model call completes; it is not shown a second time.
    expect(lines[1]).toBe('  “Storing a1.”');
    expect(lines[2]).toMatch(/^◆ model .+ round 1/);
    expect(lines[3]).toMatch(/^✓ put_item items\/a1 · \d+ ms$/);
    expect(out.text().match(/Storing a1/g)).toHaveLength(1);
    expect(out.text()).toMatch(/⊘ get_item items\/missing · rejected ITEM_NOT_FOUND: No item "missing"\./);
    expect(out.text()).toMatch(/■ success · finished/);
    expect(out.text()).not.toContain('claim'); // claims only with --verbose
  });

  it('off a terminal nothing of it is printed; --events writes NDJSON on stderr and --json stays one document', async () => {
    const { app } = await demoApp();
    const cwd = tempDir();
    const plain = await runTally(fishArgs(app.url), { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
    const events = await runTally(fishArgs(app.url, '--json', '--events'), { cwd });
    expect(events.code).toBe(0);
    const result = JSON.parse(events.stdout) as { runId: string };
    const lines = events.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    expect(lines[0]).toMatchObject({ type: 'run-start', agent: 'fisherman', runId: result.runId });
    expect(lines.at(-1)).toMatchObject({
      type: 'entry',
      entry: { kind: 'end', data: { status: 'success' } },
    });
    expect(lines.some((event) => event.type === 'entry' && event.entry.kind === 'tool_call')).toBe(true);
  });

  // `script` (util-linux) gives the CLI a real pseudo-terminal, as a user's shell would.
  const script = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path));
  it.skipIf(!script)(
    'on a terminal: live lines while the run goes; --quiet prints none (skipped without util-linux `script`)',
    async () => {
      const { app } = await demoApp();
      const cwd = tempDir();
      const bin = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');
      const onTerminal = (extra: string[]) =>
        new Promise<string>((resolve, reject) => {
          const command = [process.execPath, bin, ...fishArgs(app.url, ...extra)]
            .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
            .join(' ');
          execFile(
            script as string,
            ['-qec', `stty cols 120 rows 40; ${command}`, '/dev/null'],
            {
              cwd,
              env: {
                ...process.env,
                TALLY_LEDGER: '',
                TALLY_MODEL: '',
                NO_COLOR: '1',
                TERM: 'xterm',
                XDG_STATE_HOME: tempDir(),
              },
            },
            (error, stdout) => (error ? reject(error) : resolve(stdout)),
          );
        });
      const shown = await onTerminal([]);
      expect(shown).toMatch(/▸ fisherman \(deterministic plan\) run run_/);
      expect(shown).toMatch(/✓ request POST \/api\/\S*suites · \d+ ms/);
      expect(shown).toMatch(/■ success · finished/);
      const quiet = await onTerminal(['--quiet']);
      expect(quiet).not.toContain('▸ fisherman');
      expect(quiet).toMatch(/success · ending finished/);
    },
  );
});
