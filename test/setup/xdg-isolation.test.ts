import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import { listStores } from '../../src/packs/records/stores.js';
import { runTally } from '../helpers.js';
import { corpus } from '../packs/records/records-fixture.js';

const indexDirs = (cache: string) => {
  const dir = join(cache, 'tally', 'records');
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe('test hygiene: the run has its own XDG folders (vitest globalSetup + setupFiles)', () => {
  it('points XDG_CACHE_HOME and XDG_STATE_HOME at a temporary folder, never the real home', () => {
    const cache = process.env.XDG_CACHE_HOME as string;
    const state = process.env.XDG_STATE_HOME as string;
    for (const dir of [cache, state]) {
      expect(dir).toBeTruthy();
      expect(existsSync(dir)).toBe(true);
      expect(realpathSync(dir).startsWith(realpathSync(tmpdir()))).toBe(true);
      expect(dir.startsWith(join(homedir(), '.cache'))).toBe(false);
    }
    expect(cache).not.toBe(state);
  });

  it('child processes inherit them: a spawned node sees them, and `tally records query` indexes into the run’s cache', async () => {
    const cache = process.env.XDG_CACHE_HOME as string;
    const seen = execFileSync(process.execPath, [
      '-e',
      'process.stdout.write(`${process.env.XDG_CACHE_HOME}|${process.env.XDG_STATE_HOME}`)',
    ]).toString();
    expect(seen).toBe(`${cache}|${process.env.XDG_STATE_HOME}`);
    const root = corpus();
    const before = indexDirs(cache).length;
    // runTally sets no XDG_CACHE_HOME of its own: the CLI inherits the run's.
    const run = await runTally(['records', 'query', '--root', root, '--keyword', 'release']);
    expect(run.code, run.stderr).toBe(0);
    expect(indexDirs(cache).length).toBe(before + 1);
  });

  it('in-process code writes its index there too', () => {
    const cache = process.env.XDG_CACHE_HOME as string;
    const root = corpus();
    const before = indexDirs(cache).length;
    openRecordSource(root, listStores(root)).close();
    expect(indexDirs(cache).length).toBe(before + 1);
  });
});
