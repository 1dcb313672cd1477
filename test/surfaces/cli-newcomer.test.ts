import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoApp, startDemoApp } from '../../src/demo-app/server.js';
import { splitVariadicValues } from '../../src/surfaces/cli/variadic-values.js';
import { runTally, tempDir } from '../helpers.js';

const REPO = join(import.meta.dirname, '..', '..');
const HAR = join(REPO, 'demo', 'captures', 'demo-app.har');
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

describe("a newcomer's usual mistakes", () => {
  let app: DemoApp;
  beforeAll(async () => {
    app = await startDemoApp({ port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('tally -v, -V and --version print the version', async () => {
    for (const flag of ['-v', '-V', '--version']) {
      const run = await runTally([flag]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(VERSION);
    }
  });

  it('--captures before the request no longer swallows it: the suite is made', async () => {
    const cwd = tempDir();
    const fish = await runTally(
      [
        'fish',
        '--captures',
        HAR,
        '1 suite',
        '--base-url',
        app.url,
        '--scope',
        '/projects/alpha-shop',
        '--login',
        'demo',
      ],
      { cwd },
    );
    expect(fish.code, fish.stderr).toBe(0);
    expect(fish.stdout).toMatch(/^suite +\d+/m);
    expect(app.store.suites.size).toBe(1);
    const cleanup = await runTally(['fish', 'cleanup', /run_\w+/.exec(fish.stdout)?.[0] as string], { cwd });
    expect(cleanup.code, cleanup.stderr).toBe(0);
  });

  it('variadic flags take values while they look like theirs, and stop at the request', () => {
    expect(
      splitVariadicValues(['fish', '--captures', 'a.har', 'b.har', '1 suite', '--header', 'A: 1', 'B: 2']),
    ).toEqual([
      'fish',
      '--captures',
      'a.har',
      '--captures',
      'b.har',
      '1 suite',
      '--header',
      'A: 1',
      '--header',
      'B: 2',
    ]);
    expect(splitVariadicValues(['fish', '--emit', 'json', 'out.json', '2 suites'])).toEqual([
      'fish',
      '--emit',
      'json',
      '--emit',
      'out.json',
      '2 suites',
    ]);
    expect(splitVariadicValues(['fish', '--spec', 'https://x.test/o.json', 'api.yaml', '3 pets'])).toEqual([
      'fish',
      '--spec',
      'https://x.test/o.json',
      '--spec',
      'api.yaml',
      '3 pets',
    ]);
    expect(splitVariadicValues(['fish', '--', '--captures', 'a.har', 'b.har'])).toEqual([
      'fish',
      '--',
      '--captures',
      'a.har',
      'b.har',
    ]);
  });

  it('a --scope that matches nothing names the scopes the captures cover; nothing is created', async () => {
    const fish = await runTally(
      [
        'fish',
        '1 suite',
        '--captures',
        HAR,
        '--base-url',
        app.url,
        '--scope',
        '/projects/nope',
        '--login',
        'demo',
      ],
      { cwd: tempDir() },
    );
    expect(fish.code).toBe(2);
    expect(fish.stderr).toContain(
      "the captures' writes are under: alpha-shop, beta-blog; e.g. --scope /projects/alpha-shop",
    );
    expect(app.store.suites.size).toBe(0);
  });

  it('report --out into a folder that does not exist names the folder, not the file (finding 10)', async () => {
    const cwd = tempDir();
    const fish = await runTally(
      [
        'fish',
        '1 suite',
        '--captures',
        HAR,
        '--base-url',
        app.url,
        '--scope',
        '/projects/alpha-shop',
        '--login',
        'demo',
      ],
      { cwd },
    );
    const runId = /run (run_\w+)/.exec(fish.stdout)?.[1] as string;
    const missing = join(cwd, 'missing', 'dir');
    const report = await runTally(['report', runId, '--out', join(missing, 'x.html')], { cwd });
    expect(report.code).toBe(3);
    expect(report.stderr.trim()).toBe(
      `tally: The folder ${missing} does not exist (for x.html). Create it (mkdir -p ${missing}) or give a path in a folder that exists.`,
    );
    // A missing file in a folder that exists is still named as the file.
    const nofile = await runTally(['fish', '1 suite', '--captures', join(cwd, 'none.har')], { cwd });
    expect(nofile.stderr).not.toMatch(/The folder/);
  });

  it('tally scout in a folder without record stores says so, exits 3 and writes no .tally/', async () => {
    const root = tempDir();
    const scout = await runTally(['scout', 'release a version', '--root', root], { cwd: root });
    expect(scout.code).toBe(3);
    expect(scout.stderr).toMatch(/No record stores under .*nothing to scout.*Pass --root/);
    expect(existsSync(join(root, '.tally'))).toBe(false);
  });

  it('tally doctor names each missing piece with its fix, and exits 1 when only optional ones are missing', async () => {
    const doctor = await runTally(['doctor'], { env: { TALLY_CHROMIUM: '/nonexistent/chromium' } });
    expect(doctor.code, doctor.stdout).toBe(1);
    expect(doctor.stdout).toMatch(/^✓ Node\.js +\d+\.\d+\.\d+ \(Tally needs [^)]+\)$/m);
    expect(doctor.stdout).toMatch(
      /^✓ SQLite \((better-sqlite3|node:sqlite)\) +(the native module loads|built into Node); SQLite 3\.\d+/m,
    );
    expect(doctor.stdout).toMatch(/^✗ Chromium +none at \/nonexistent\/chromium/m);
    expect(doctor.stdout).toMatch(/fix: apt-get install chromium, or set TALLY_CHROMIUM/);
    expect(doctor.stdout).toMatch(/^✓ Claude Code plugin +ready: claude --plugin-dir /m);
    const json = await runTally(['doctor', '--json'], {
      env: { TALLY_CHROMIUM: '/nonexistent/chromium', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' },
    });
    const report = JSON.parse(json.stdout) as {
      ok: boolean;
      checks: { name: string; ok: boolean; fix?: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.checks.find((check) => check.name === 'OpenTelemetry')).toMatchObject({
      ok: false,
      fix: expect.stringContaining('OTEL_TRACES_EXPORTER=none'),
    });
  });

  it('doctor exits 3 when the ledger is not a database', async () => {
    const cwd = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(cwd, 'bad.db'), 'not sqlite'.repeat(200));
    const doctor = await runTally(['doctor', '--ledger', 'bad.db'], { cwd });
    expect(doctor.code).toBe(3);
    expect(doctor.stdout).toMatch(/^✗ Ledger +.*bad\.db is not a Tally ledger/m);
  });
});
