// Every kind of change a records folder sees between two CLI calls, against the real CLI and
// real files: each test primes the index with one query, changes the folder, and asserts the
// next query answers from the new state. The hardest cases put the times back the way tar,
// rsync or `touch -r` do (to the nanosecond), so only the inode change time (ctime, which no
// user call can set) still tells that something changed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';
import { corpus, tally } from './records-fixture.js';

const POSTGRES = 'references/decisions/use-postgres.md';
const SEMVER = 'references/decisions/semantic-versioning.md';

/** `touch -r`: copies `from`'s atime and mtime onto `to`, to the nanosecond. */
function copyTimes(from: string, to: string): void {
  execFileSync('touch', ['-r', from, to]);
}

/** The times `path` has now, kept in a reference file for `copyTimes`. */
function keepTimes(path: string): string {
  const reference = join(tempDir('tally-times-'), 'reference');
  writeFileSync(reference, '');
  copyTimes(path, reference);
  return reference;
}

const nanos = (path: string) => {
  const stats = statSync(path, { bigint: true });
  return { mtime: stats.mtimeNs, size: stats.size };
};

function setup() {
  const root = corpus();
  const query = async (...args: string[]) => {
    const run = await tally(['records', 'query', '--root', root, ...args]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return run.stdout;
  };
  const paths = async (...args: string[]) =>
    (await query(...args))
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' — ')[0]);
  return { root, query, paths };
}

describe('a records query sees every change made since the last call', () => {
  it('an edit in place, same size, mtime put back (`touch -r`): --keyword, --kind and --cat', async () => {
    const { root, query, paths } = setup();
    const file = join(root, POSTGRES);
    expect(await paths('--keyword', 'zeppelins')).toEqual([]);
    const before = nanos(file);
    const times = keepTimes(file);
    const folderTimes = keepTimes(join(file, '..'));
    const text = readFileSync(file, 'utf8');
    // Same length: `kind: decision` -> `kind: procedur`, `Postgres 16` -> `zeppelins!!`.
    writeFileSync(
      file,
      text.replace('kind: decision', 'kind: procedur').replace('Postgres 16', 'zeppelins!!'),
    );
    copyTimes(times, file);
    copyTimes(folderTimes, join(file, '..'));
    // Nothing but the ctime tells the edit: same size, same mtime to the nanosecond.
    expect(nanos(file)).toEqual(before);
    expect(await paths('--keyword', 'zeppelins')).toEqual([POSTGRES]);
    expect(await paths('--kind', 'procedur')).toEqual([POSTGRES]);
    expect(await paths('--kind', 'decision')).not.toContain(POSTGRES);
    expect(await query('--cat', POSTGRES)).toContain('zeppelins!!');
  });

  it('a new file, a deleted file and a renamed file', async () => {
    const { root, paths } = setup();
    expect(await paths('--kind', 'decision')).toEqual([SEMVER, POSTGRES].sort());
    writeFileSync(
      join(root, 'references/decisions/use-redis.md'),
      '---\nid: DEC-redis\nkind: decision\ndate: 2026-01-01\nstatus: active\nkeywords: [cache]\nlinks: {}\n---\nRedis caches sessions.\n',
    );
    expect(await paths('--kind', 'decision')).toEqual(
      [SEMVER, POSTGRES, 'references/decisions/use-redis.md'].sort(),
    );
    unlinkSync(join(root, SEMVER));
    expect(await paths('--kind', 'decision')).toEqual([POSTGRES, 'references/decisions/use-redis.md']);
    renameSync(join(root, POSTGRES), join(root, 'references/decisions/use-postgres-16.md'));
    expect(await paths('--kind', 'decision')).toEqual([
      'references/decisions/use-postgres-16.md',
      'references/decisions/use-redis.md',
    ]);
  });

  it('a replaced folder whose own and parent times were put back', async () => {
    const { root, paths } = setup();
    const folder = join(root, 'references/decisions');
    expect(await paths('--keyword', 'zeppelins')).toEqual([]);
    const folderTimes = keepTimes(folder);
    const parentTimes = keepTimes(join(folder, '..'));
    const fileTimes = keepTimes(join(root, POSTGRES));
    const text = readFileSync(join(root, POSTGRES), 'utf8');
    // The folder moved away and a new one (a new inode) put in its place, the same names in it.
    renameSync(folder, join(tempDir('tally-moved-'), 'decisions'));
    mkdirSync(folder);
    writeFileSync(join(root, POSTGRES), text.replace('Postgres 16', 'zeppelins!!'));
    copyTimes(fileTimes, join(root, POSTGRES));
    copyTimes(folderTimes, folder);
    copyTimes(parentTimes, join(folder, '..'));
    expect(await paths('--keyword', 'zeppelins')).toEqual([POSTGRES]);
    // The semver decision left with the old folder.
    expect(await paths('--kind', 'decision')).toEqual([POSTGRES]);
  });

  it('--cat: a record in a new folder, and a record deleted since the last call', async () => {
    const { root, query } = setup();
    expect(await query('--cat', SEMVER)).toContain(`==> ${SEMVER} <==`);
    const nested = 'references/decisions/2026/use-kafka.md';
    mkdirSync(join(root, 'references/decisions/2026'));
    writeFileSync(
      join(root, nested),
      '---\nid: DEC-kafka\nkind: decision\ndate: 2026-01-01\nstatus: active\nkeywords: [queue]\nlinks: {}\n---\nKafka carries events.\n',
    );
    expect(await query('--cat', nested)).toContain('Kafka carries events.');
    rmSync(join(root, SEMVER));
    const gone = await tally(['records', 'query', '--root', root, '--cat', SEMVER]);
    expect(gone.code).toBe(2);
    expect(gone.stdout).toBe('');
  });
});
