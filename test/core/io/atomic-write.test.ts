import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomicSync } from '../../../src/core/io/atomic-write.js';
import { isTallyTempName, tallyTempPathFor } from '../../../src/core/io/temp-files.js';
import { tempDir } from '../../helpers.js';

/** A pid that certainly belongs to no process any more: a child that has exited. */
function deadPid(): number {
  const child = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child);
}

describe('writeFileAtomicSync', () => {
  it('replaces the file whole, 0600 by default, and leaves no temporary file', () => {
    const dir = tempDir();
    const target = join(dir, 'state.json');
    writeFileSync(target, 'old');
    writeFileAtomicSync(target, '{"v":2}');
    expect(readFileSync(target, 'utf8')).toBe('{"v":2}');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('temporary names are crypto-random and carry the pid, so a crashed writer’s file can be told apart', () => {
    const a = tallyTempPathFor('/x/state.json');
    const b = tallyTempPathFor('/x/state.json');
    expect(a).not.toBe(b);
    expect(a).toMatch(new RegExp(`^/x/\\.state\\.json\\.tally-${process.pid}-[0-9a-f]{12}\\.tmp$`));
    expect(isTallyTempName(a.slice(3))).toBe(true);
  });

  it('a symlink planted at the target is replaced, never written through', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'victim'), 'untouched');
    symlinkSync(join(dir, 'victim'), join(dir, 'state.json'));
    writeFileAtomicSync(join(dir, 'state.json'), 'new');
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('untouched');
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe('new');
  });

  it('a crashed writer’s temporary file is reaped by the next write; a live writer’s fresh one is kept', () => {
    const dir = tempDir();
    const target = join(dir, 'state.json');
    const crashed = join(dir, `.state.json.tally-${deadPid()}-0123456789ab.tmp`);
    const live = join(dir, `.state.json.tally-${process.ppid}-ba9876543210.tmp`);
    const otherTarget = join(dir, `.other.json.tally-${deadPid()}-0123456789ab.tmp`);
    for (const file of [crashed, live, otherTarget]) writeFileSync(file, 'half');
    writeFileAtomicSync(target, 'whole');
    expect(existsSync(crashed)).toBe(false);
    // Its writer (our parent) is alive and the file is fresh: it may be a write in progress.
    expect(existsSync(live)).toBe(true);
    // Another target's orphan waits for that target's write (or the start-up sweep).
    expect(existsSync(otherTarget)).toBe(true);
  });

  it('a refusal just before the rename cancels the write: the old content stays, no temporary file is left', () => {
    const dir = tempDir();
    const target = join(dir, 'state.json');
    writeFileSync(target, 'old');
    let temporary = '';
    expect(() =>
      writeFileAtomicSync(target, 'new', {
        beforeRename: (path) => {
          temporary = path;
          // The content is on disk under the temporary name before the rename is asked for.
          expect(readFileSync(path, 'utf8')).toBe('new');
          throw new Error('directory swapped');
        },
      }),
    ).toThrow('directory swapped');
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(existsSync(temporary)).toBe(false);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('concurrent writers in four processes: every read sees one whole version, none is lost mid-way, no temporary file remains', async () => {
    const dir = tempDir();
    const target = join(dir, 'state.json');
    const module = join(import.meta.dirname, '..', '..', '..', 'src', 'core', 'io', 'atomic-write.ts');
    writeFileAtomicSync(target, JSON.stringify({ writer: -1, body: 'x'.repeat(64 * 1024) }));
    const writers = [0, 1, 2, 3].map(
      (writer) =>
        new Promise<number>((resolve) => {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              '-e',
              `import(${JSON.stringify(module)}).then(({ writeFileAtomicSync }) => {
                 for (let i = 0; i < 60; i++)
                   writeFileAtomicSync(${JSON.stringify(target)}, JSON.stringify({ writer: ${writer}, i, body: 'x'.repeat(64 * 1024) }));
               })`,
            ],
            { stdio: 'inherit' },
          );
          child.on('exit', (code) => resolve(code ?? -1));
        }),
    );
    let done = false;
    const all = Promise.all(writers).then((codes) => {
      done = true;
      return codes;
    });
    const writersSeen = new Set<number>();
    while (!done) {
      // Each read must parse: a torn write would cut the 64 KiB body.
      const state = JSON.parse(readFileSync(target, 'utf8')) as { writer: number; body: string };
      expect(state.body).toHaveLength(64 * 1024);
      writersSeen.add(state.writer);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(await all).toEqual([0, 0, 0, 0]);
    expect(writersSeen.size).toBeGreaterThan(1);
    expect(readdirSync(dir)).toEqual(['state.json']);
  }, 60_000);
});
