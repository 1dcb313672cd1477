import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { ApiClient, listOf } from '../../src/packs/http/client/api-client.js';
import { DEMO_LOGIN, logIn } from '../../src/packs/http/client/login-recipe.js';
import { runTally, type TallyRun, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';
import { type FaultProxy, startFaultProxy } from '../truth/fault-proxy.js';

const TALLY_BIN = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');

const proxies: FaultProxy[] = [];
afterEach(async () => {
  while (proxies.length > 0) await proxies.pop()?.close();
});

/** Waits until `ready()` holds, polling; fails the test with `what` after `ms`. */
async function until(ready: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every suite and test in alpha-shop whose title carries `marker`, read through the app's own API. */
async function markedInApp(url: string, marker: string): Promise<string[]> {
  const client = new ApiClient({ baseUrl: url, session: await logIn(url, DEMO_LOGIN) });
  const titles: string[] = [];
  for (const path of ['/api/alpha-shop/suites', '/api/alpha-shop/tests']) {
    const response = await client.send({ method: 'GET', path });
    expect(response.status).toBe(200);
    for (const item of listOf(response.body) ?? [])
      if (String(item.title).includes(marker)) titles.push(String(item.title));
  }
  return titles;
}

/**
 * `tally fish "20 suites with 10 tests each" --concurrency 4` against the demo app behind a
 * proxy. The app does every create at once; the proxy holds the answers. After the twelfth
 * test, every test's answer is held for a minute: 4 creates stay in flight.
 */
async function fishWithHeldCreates(moreEnv: Record<string, string> = {}) {
  const { app } = await demoApp();
  let testPosts = 0;
  let held = 0;
  const proxy = await startFaultProxy(app.url, [], {
    delayMs: (method, path) => {
      if (method !== 'POST' || !path.startsWith('/api/')) return 0;
      if (path.endsWith('/tests')) {
        testPosts += 1;
        if (testPosts > 12) {
          held += 1;
          return 60_000;
        }
      }
      return 30;
    },
  });
  proxies.push(proxy);
  const cwd = tempDir();
  const env = {
    ...process.env,
    NO_COLOR: '1',
    TALLY_LEDGER: '',
    TALLY_MODEL: '',
    TALLY_RECORDS_ROOT: '',
    TALLY_RECORDS_STORES: '',
    XDG_STATE_HOME: tempDir('tally-state-'),
    ...moreEnv,
  };
  const child = spawn(
    process.execPath,
    [
      TALLY_BIN,
      'fish',
      '20 suites with 10 tests each',
      '--captures',
      BUNDLED_HAR,
      '--base-url',
      proxy.url,
      '--scope',
      '/projects/alpha-shop',
      '--login',
      'demo',
      '--concurrency',
      '4',
    ],
    { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until(() => held >= 4, '4 creates in flight');
  return { app, proxy, cwd, env, child, output, exited };
}

describe('Ctrl-C on tally fish: the run ends aborted, is reported, and can be cleaned up', () => {
  it('SIGINT mid-run: exit 130, the summary printed, one aborted end entry; cleanup then finds the in-flight children by marker', async () => {
    const { app, proxy, cwd, env, child, output, exited } = await fishWithHeldCreates({
      TALLY_INTERRUPT_GRACE_MS: '300',
    });
    const interruptedAt = Date.now();
    child.kill('SIGINT');
    const code = await exited;
    const took = Date.now() - interruptedAt;
    const { stdout, stderr } = output;

    expect(code).toBe(130);
    // The grace (300 ms) bounded the wait for the held creates; nothing waited for their minute.
    expect(took).toBeLessThan(10_000);
    expect(stderr).toMatch(/SIGINT: no new calls start/);
    expect(stdout).toMatch(/partial · ending aborted · deterministic tier · run \S+/);
    expect(stdout).toMatch(
      /summary: Aborted: \d+ items made before the interrupt are backed by the ledger\. Run ended: aborted .*interrupted by SIGINT/,
    );
    const runId = /To undo: tally fish cleanup (\S+)/.exec(stdout)?.[1] as string;
    expect(runId).toBeDefined();
    // Nothing was sent after the interrupt: the held creates were the last requests.
    expect(proxy.hits.filter((hit) => hit.at >= interruptedAt)).toEqual([]);

    const ledger = Ledger.open(join(cwd, '.tally', 'ledger.db'));
    let marker: string;
    let recordedCreates: number;
    try {
      const { run, entries } = ledger.getRun(runId);
      marker = (run.meta as { marker: string }).marker;
      const ends = entries.filter((entry) => entry.kind === 'end');
      expect(ends).toHaveLength(1);
      expect(ends[0]).toMatchObject({
        outcome: 'aborted',
        data: { status: 'partial', detail: 'interrupted by SIGINT' },
      });
      const posts = entries.filter(
        (entry) => entry.kind === 'tool_call' && (entry.data.input as { method?: string }).method === 'POST',
      );
      // Every create the app was sent has its entry: settled, or abandoned at the end of the grace.
      expect(posts).toHaveLength(
        proxy.hits.filter((hit) => hit.method === 'POST' && hit.path.startsWith('/api/')).length,
      );
      const abandoned = posts.filter(
        (entry) => (entry.data.error as { code?: string } | undefined)?.code === 'ABORTED',
      );
      expect(abandoned).toHaveLength(4);
      recordedCreates = posts.filter((entry) => entry.outcome === 'ok').length;
      expect(Number(ends[0]?.data.verified)).toBe(recordedCreates);
    } finally {
      ledger.close();
    }
    // The app has the 4 abandoned tests too: the ledger never saw their ids.
    expect(await markedInApp(app.url, marker)).toHaveLength(recordedCreates + 4);

    const cleanup: TallyRun = await runTally(['fish', 'cleanup', runId], {
      cwd,
      env: { XDG_STATE_HOME: env.XDG_STATE_HOME },
    });
    expect(cleanup.stderr).toBe('');
    expect(cleanup.code).toBe(0);
    expect(cleanup.stdout.match(/\(found by marker\)/g)).toHaveLength(4);
    expect(cleanup.stdout).toMatch(/4 found by the run's marker/);
    expect(await markedInApp(app.url, marker)).toEqual([]);
  });

  it('a second SIGINT exits 130 at once, without waiting out the grace, and still ends the run aborted with the in-flight creates recorded', async () => {
    const { app, cwd, env, child, output, exited } = await fishWithHeldCreates();
    const interruptedAt = Date.now();
    child.kill('SIGINT');
    await until(
      () => output.stderr.includes('SIGINT: no new calls start'),
      'the first interrupt to be taken',
    );
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    // The default grace is 5 s; the second signal did not wait for it.
    expect(Date.now() - interruptedAt).toBeLessThan(4_000);
    expect(output.stderr).toMatch(/SIGINT again: exiting now/);
    const runId = /To undo: tally fish cleanup (\S+)/.exec(output.stdout)?.[1] as string;
    expect(runId, output.stdout).toBeDefined();
    const ledger = Ledger.open(join(cwd, '.tally', 'ledger.db'));
    try {
      const { entries } = ledger.getRun(runId);
      expect(entries.filter((entry) => entry.kind === 'end').map((entry) => entry.outcome)).toEqual([
        'aborted',
      ]);
      const abandoned = entries.filter(
        (entry) =>
          entry.kind === 'tool_call' &&
          (entry.data.error as { code?: string } | undefined)?.code === 'ABORTED',
      );
      expect(abandoned).toHaveLength(4);
    } finally {
      ledger.close();
    }
    // The abandoned creates carried the run's marker: cleanup finds them in the app.
    const cleanup: TallyRun = await runTally(['fish', 'cleanup', runId], {
      cwd,
      env: { XDG_STATE_HOME: env.XDG_STATE_HOME },
    });
    expect(cleanup.code, cleanup.stdout + cleanup.stderr).toBe(0);
    expect(cleanup.stdout).toMatch(/4 found by the run's marker/);
    void app;
  });
});
