import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoApp, startDemoApp } from '../../src/demo-app/server.js';
import { countNoun } from '../../src/surfaces/cli/count-noun.js';
import { runTally, tempDir } from '../helpers.js';

const HAR = join(import.meta.dirname, '..', '..', 'demo', 'captures', 'demo-app.har');

describe('small things a user sees', () => {
  let app: DemoApp;
  beforeAll(async () => {
    app = await startDemoApp({ port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('tally fish ends with the command that undoes it, and that command works', async () => {
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
    expect(fish.code, fish.stderr).toBe(0);
    const undo = /To undo: tally fish cleanup (run_\w+)/.exec(fish.stdout);
    expect(undo).not.toBeNull();
    const cleanup = await runTally(['fish', 'cleanup', undo?.[1] as string], { cwd });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    expect(app.store.suites.size).toBe(0);
  });

  it('counts agree in number: "1 record", "2 records"', async () => {
    expect(countNoun(1, 'record')).toBe('1 record');
    expect(countNoun(2, 'record')).toBe('2 records');
    expect(countNoun(0, 'entry', 'entries')).toBe('0 entries');
    const root = tempDir();
    mkdirSync(join(root, 'plans'));
    writeFileSync(
      join(root, 'plans', 'one.md'),
      '---\nid: PLAN-one\nkind: plan\ndate: 2026-01-01\nkeywords: [one]\nlinks: {}\nstatus: active\n---\nThe only plan.\n',
    );
    const lint = await runTally(['records', 'lint', '--root', root]);
    expect(lint.stdout).toMatch(/^1 record, \d+ problems?$/m);
    const stores = await runTally(['records', 'query', '--root', root, '--list-stores']);
    expect(stores.stdout).toMatch(/^plans\t1 record$/m);
  });
});
