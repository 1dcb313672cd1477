// `tally fish REQUEST` runs from a bundle of the CLI entry with the fish command
// (bin/tally.js → dist/fast/cli/cli.cjs, issue 22): one compiled file instead of ~250 ES
// modules, and none of the model SDK, OpenAPI parser or YAML parser a captures run never uses.
// Same main(), so the same bytes and exit codes as the full CLI.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteDriver } from '../../src/core/sqlite/open-sqlite.js';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

const { FISH_BUILTINS } = createRequire(import.meta.url)('../../bin/v8-tier-flags.js') as {
  FISH_BUILTINS: string[];
};

const BUNDLE = join(import.meta.dirname, '..', '..', 'dist', 'fast', 'cli', 'cli.cjs');

/**
 * A preload that writes, at exit, every CommonJS module the process loaded to `list` and every
 * Node builtin it loaded (`process.moduleLoadList`, internal ones included) to `builtins`.
 */
function loadedList(): { env: NodeJS.ProcessEnv; read: () => string[]; builtins: () => string[] } {
  const dir = tempDir();
  const list = join(dir, 'loaded.txt');
  const builtins = join(dir, 'builtins.txt');
  const preload = join(dir, 'list-loaded.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => {
  const { writeFileSync } = require('node:fs');
  writeFileSync(${JSON.stringify(list)}, Object.keys(require.cache).join('\\n'));
  writeFileSync(${JSON.stringify(builtins)}, process.moduleLoadList.join('\\n'));
});\n`,
  );
  return {
    env: { NODE_OPTIONS: `--require ${preload}` },
    read: () => readFileSync(list, 'utf8').split('\n'),
    builtins: () =>
      readFileSync(builtins, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('NativeModule '))
        .map((line) => line.slice('NativeModule '.length)),
  };
}

const packageOf = (file: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];

describe('tally fish: the bundled path', () => {
  it('a captures run loads the bundle and no AI SDK, OpenTelemetry, swagger-parser or yaml; cleanup runs from dist/', async () => {
    expect(existsSync(BUNDLE)).toBe(true);
    const { app } = await demoApp();
    const cwd = tempDir();
    const loaded = loadedList();
    const fish = await runTally(
      [
        'fish',
        '1 suite with 2 tests in it',
        '--captures',
        BUNDLED_HAR,
        '--base-url',
        app.url,
        '--scope',
        '/projects/alpha-shop',
        '--login',
        'demo',
      ],
      { cwd, env: loaded.env },
    );
    expect(fish.code, fish.stderr).toBe(0);
    // `tally fish` sets V8 flags (bin/v8-tier-flags.js); one this Node's V8 lacks would print
    // "unrecognized flag" on every run.
    expect(fish.stderr).toBe('');
    expect(app.store.suites.size + app.store.tests.size).toBe(3);
    const runs = await runTally(['runs'], { cwd });
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stderr).toBe('');
    const modules = loaded.read();
    expect(modules).toContain(BUNDLE);
    const packages = new Set(modules.map(packageOf).filter(Boolean));
    // The ledger's SQLite: the native module where it is the driver (Node 20), else node:sqlite.
    expect(packages.has('better-sqlite3')).toBe(sqliteDriver() === 'better-sqlite3');
    // Of better-sqlite3 only its addon comes from node_modules: its JavaScript rides in the
    // bundle (the installed version is the one bundled), compiled with the bundle's cached code.
    if (sqliteDriver() === 'better-sqlite3')
      expect(modules.filter((file) => packageOf(file) === 'better-sqlite3')).toEqual([
        expect.stringMatching(/better_sqlite3\.node$/),
      ]);
    // Builtins a captures run has no use for (issue 22): perf_hooks (the `performance` global,
    // ~10 internal modules) and node:fs/promises (readline, fs watchers): it reads files whole.
    const builtins = loaded.builtins();
    expect(builtins).toContain('net');
    // A plain-http app is sent to through the lean HTTP/1.1 client: node:http is not loaded at all.
    expect(builtins).not.toContain('http');
    // The builtins the launcher loads before setting the V8 flags are ones a run loads anyway.
    for (const builtin of FISH_BUILTINS) expect(builtins).toContain(builtin.slice('node:'.length));
    for (const unused of ['perf_hooks', 'fs/promises', 'internal/readline/interface'])
      expect(builtins, unused).not.toContain(unused);
    for (const heavy of [
      'ai',
      '@ai-sdk/provider',
      '@opentelemetry/api',
      '@apidevtools/swagger-parser',
      'yaml',
    ])
      expect(packages.has(heavy), heavy).toBe(false);

    // `fish cleanup` is not the bundle's: its command module would hold second copies of the
    // error classes the bundled entry tells apart.
    const runId = /run (run_\w+)/.exec(fish.stdout)?.[1] as string;
    const again = loadedList();
    const cleanup = await runTally(['fish', 'cleanup', runId], { cwd, env: again.env });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    expect(again.read()).not.toContain(BUNDLE);
    expect(app.store.suites.size + app.store.tests.size).toBe(0);
  });

  it("holds zod's English messages and none of its other locales (a third of the bundle)", () => {
    const bundle = readFileSync(BUNDLE, 'utf8');
    expect(bundle).toContain('zod/v4/locales/en.js');
    for (const other of ['de', 'fr', 'ja', 'zh-CN'])
      expect(bundle).not.toContain(`zod/v4/locales/${other}.js`);
    // commander and picocolors ride in it too (~125 KB, issue 22); the other locales would add ~400 KB.
    expect(bundle).toContain('node_modules/commander/lib/command.js');
    // better-sqlite3's JavaScript (~27 KB) rides in it too.
    // The ceiling catches the other locales (~400 KB), not a few KB of new rules (the ledger-path
    // check, core/ledger/check-ledger-path.ts, took it past 1.325 MB; the words Fisherman names
    // when it refuses a request, prepare-data.ts, past 1.35 MB; the lean HTTP/1.1 client,
    // lean-http-transport.ts and http1-*.ts, past 1.375 MB).
    expect(bundle.length).toBeLessThan(1_400_000);
    // zod's `fromJSONSchema`, which Tally never calls, is a stub: its module built an object of
    // all zod's exports whenever zod loaded (issue 22).
    expect(bundle).not.toContain('zod/v4/classic/from-json-schema.js');
    expect(bundle).toContain('z.fromJSONSchema is not part of the tally CLI bundle');
  });

  it.each([
    ['no captures', ['fish', '2 suites']],
    ['a capture file that is not there', ['fish', '2 suites', '--captures', 'missing.har', '--json']],
    ['a bad --concurrency', ['fish', '2 suites', '--captures', BUNDLED_HAR, '--concurrency', 'x']],
    ['help', ['fish', '--help']],
  ])('%s: the same bytes and exit code as the full CLI', async (_, args) => {
    const cwd = tempDir();
    const bundled = await runTally(args, { cwd });
    const full = await runTally(args, { cwd, env: { TALLY_FULL_CLI: '1' } });
    expect(bundled).toEqual(full);
    if (!args.includes('--help')) expect(bundled.code).toBe(2);
  });
});

describe('the other bundled commands', () => {
  // Nothing on stderr on any Node: a V8 flag some Node's V8 lacks, set for a bundle, would print
  // "unrecognized flag" on every command.
  it('`tally records query` and `tally hook NAME` run from their bundles with nothing on stderr', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'plans'));
    writeFileSync(
      join(root, 'plans', 'token-rollback.md'),
      '---\nid: plan.token-rollback\nkind: plan\ndate: 2026-06-14\nkeywords: [token, rollback]\n---\n# token rollback\n\nA runbook.\n',
    );
    const query = await runTally(['records', 'query', '--root', root, '--keyword', 'rollback'], {
      env: { TALLY_RECORDS_RESIDENT: '0', XDG_CACHE_HOME: tempDir() },
    });
    expect(query.code, query.stderr).toBe(0);
    expect(query.stderr).toBe('');
    expect(query.stdout).toContain('token-rollback');
    const hook = await runTally(['hook', 'turn-reset'], {
      input: JSON.stringify({
        session_id: 's',
        cwd: root,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'hi',
      }),
    });
    expect(hook.code, hook.stderr).toBe(0);
    expect(hook.stderr).toBe('');
  });
});
