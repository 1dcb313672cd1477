// `tally records query` runs from a one-file bundle without commander when its arguments are
// plain (bin/tally.js → dist/fast/cli/records-query.cjs). The two paths must be one behaviour:
// every case here runs both ways and must print the same bytes with the same exit code.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordsQueryArgs } from '../../src/surfaces/cli/records-query-fast.js';
import { tempDir } from '../helpers.js';
import { CACHE, corpus } from '../packs/records/records-fixture.js';

const TALLY_BIN = join(import.meta.dirname, '..', '..', 'bin', 'tally.js');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}, preload?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...(preload ? ['--require', preload] : []), TALLY_BIN, ...args],
      {
        cwd: tempDir(),
        env: {
          ...process.env,
          NO_COLOR: '1',
          TALLY_RECORDS_ROOT: '',
          TALLY_RECORDS_STORES: '',
          TALLY_RECORDS_INDEX: '',
          TALLY_DEBUG: '',
          XDG_CACHE_HOME: CACHE,
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end('');
  });
}

describe('parseRecordsQueryArgs: only unambiguous spellings take the fast path', () => {
  it('reads value options, flags and --cat paths', () => {
    expect(
      parseRecordsQueryArgs(['--root', 'r', '--keyword', 'a b', '--kind', 'k', '--limit', '3', '--json']),
    ).toEqual({ root: 'r', keyword: 'a b', kind: 'k', limit: '3', json: true });
    expect(parseRecordsQueryArgs(['--cat', 'a.md', 'b.md', '--root', 'r'])).toEqual({
      cat: ['a.md', 'b.md'],
      root: 'r',
    });
    expect(parseRecordsQueryArgs(['--no-index', '--id', 'x', '--links-to', 'y', '--full'])).toEqual({
      index: false,
      id: 'x',
      linksTo: 'y',
      full: true,
    });
    expect(parseRecordsQueryArgs(['--index', '/tmp/i.db', '--recall', 'lock'])).toEqual({
      index: '/tmp/i.db',
      recall: 'lock',
    });
    expect(parseRecordsQueryArgs(['--list-stores'])).toEqual({ listStores: true });
  });

  it.each([
    [['--help']],
    [['-h']],
    [['--keyword=x']],
    [['--keyword', 'a', '--keyword', 'b']],
    [['--keyword']],
    [['--keyword', '--kind']],
    [['--limit', '-1']],
    [['stray']],
    [['--kind', 'k', '--debug']],
    [['--cat']],
    [['--cat', '--kind', 'k']],
    [['--index', 'a', '--no-index']],
    [['--no-index', '--index', 'a']],
    [['--kind', 'k', '--', 'x']],
  ])('leaves %j to the full CLI', (args) => {
    expect(parseRecordsQueryArgs(args)).toBeUndefined();
  });
});

describe('the fast path and the full CLI give the same answer', () => {
  const root = corpus();
  const cases: string[][] = [
    ['--keyword', 'migration lock'],
    ['--kind', 'failure-mode'],
    ['--kind', 'failure-mode', '--limit', '1'],
    ['--kind', 'failure-mode', '--json'],
    ['--id', 'no-such-id'],
    ['--keyword', 'postgres', '--full'],
    ['--cat', 'references/failure-modes/migration-lock.md', 'plans/q4-search.md'],
    ['--cat', 'references/nothing-here.md'],
    ['--recall', 'migration lock'],
    ['--recall', 'migration', '--json'],
    ['--list-stores'],
    ['--list-stores', '--json'],
    ['--no-index', '--kind', 'plan'],
    ['--limit', 'x', '--kind', 'plan'],
    ['--limit', 'x', '--kind', 'plan', '--json'],
    ['--cat', 'plans/q4-search.md', '--kind', 'plan'],
    ['--keyword', '!!'],
    [],
  ];
  it.each(cases.map((args) => [args.join(' ') || '(no flags)', args] as const))(
    'records query %s',
    async (_, args) => {
      const argv = ['records', 'query', '--root', root, ...args];
      const fast = await run(argv);
      const full = await run(argv, { TALLY_FULL_CLI: '1' });
      expect(fast).toEqual(full);
    },
  );

  it('an error under --root that does not exist is the same JSON error both ways', async () => {
    const argv = ['records', 'query', '--root', join(tempDir(), 'missing'), '--kind', 'plan', '--json'];
    const fast = await run(argv);
    expect(fast.code).toBeGreaterThan(0);
    expect(JSON.parse(fast.stdout).error.code).toBeTruthy();
    expect(fast).toEqual(await run(argv, { TALLY_FULL_CLI: '1' }));
  });
});

describe('what the fast path loads', () => {
  it('a plain records query and a hook load their bundle, never commander', async () => {
    expect(existsSync(join(TALLY_BIN, '..', '..', 'dist', 'fast', 'cli', 'records-query.cjs'))).toBe(true);
    const dir = tempDir();
    const list = join(dir, 'loaded.txt');
    const preload = join(dir, 'list-loaded.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, Object.keys(require.cache).join('\\n')));\n`,
    );
    const root = corpus();
    const query = await run(['records', 'query', '--root', root, '--kind', 'plan'], {}, preload);
    expect(query.code, query.stderr).toBe(0);
    let loaded = readFileSync(list, 'utf8');
    expect(loaded).toContain('records-query.cjs');
    expect(loaded).not.toMatch(/node_modules\/commander\//);
    // better-sqlite3's JavaScript rides in the bundle (where it is the driver, only its native
    // addon comes from node_modules): ~10 ms of every query's start (issue 22).
    expect(loaded).not.toMatch(/node_modules\/better-sqlite3\/lib\//);

    const hook = await run(['hook', 'turn-reset'], { XDG_STATE_HOME: tempDir() }, preload);
    expect(hook.code).toBe(0);
    loaded = readFileSync(list, 'utf8');
    expect(loaded).toContain('hook.cjs');
    expect(loaded).not.toMatch(/node_modules\/commander\//);

    // With --help the full CLI (commander) answers.
    const help = await run(['records', 'query', '--help'], {}, preload);
    expect(help.stdout).toContain('--keyword');
    expect(readFileSync(list, 'utf8')).toMatch(/node_modules\/commander\//);
  });

  it('a query that starts no resident server never loads node:child_process (issue 22: a few ms of every first query)', async () => {
    const dir = tempDir();
    const list = join(dir, 'builtins.txt');
    const preload = join(dir, 'list-builtins.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`,
    );
    const query = await run(
      ['records', 'query', '--root', corpus(), '--keyword', 'migration'],
      { TALLY_RECORDS_RESIDENT: '0' },
      preload,
    );
    expect(query.code, query.stderr).toBe(0);
    const builtins = readFileSync(list, 'utf8').split('\n');
    // The list is the query process's own (it loaded fs), or the check below would pass vacuously.
    expect(builtins).toContain('NativeModule fs');
    expect(builtins).not.toContain('NativeModule child_process');
    // A build of a few records reads on this thread: no worker, and node:worker_threads unloaded.
    expect(builtins).not.toContain('NativeModule worker_threads');
  });
});
