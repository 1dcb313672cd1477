import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  openRegularFile,
  openRegularFileSync,
  readRegularFileSync,
} from '../../../src/core/io/read-regular-file.js';
import { tempDir } from '../../helpers.js';

// The security cases of core's one reader, each as it meets a caller: a state file, a
// record, an input file, a workspace file. Every case must answer at once (no open that
// blocks) and never hand out bytes from anywhere but a regular file at that very path.

function planted() {
  const dir = tempDir();
  const secret = join(dir, 'secret.txt');
  writeFileSync(secret, 'TOP SECRET');
  writeFileSync(join(dir, 'plain.txt'), 'hello');
  return { dir, secret };
}

describe('readRegularFileSync', () => {
  it('reads a regular file whole, with its stats', () => {
    const { dir } = planted();
    const read = readRegularFileSync(join(dir, 'plain.txt'));
    expect(read).toMatchObject({ text: 'hello', stats: expect.objectContaining({ size: 5 }) });
  });

  it('a missing file is `absent`, not an exception', () => {
    expect(readRegularFileSync(join(tempDir(), 'nope.json'))).toEqual({ refused: 'absent' });
  });

  it('a symlink at the final component is refused by the open itself (O_NOFOLLOW), even to a regular file', () => {
    const { dir, secret } = planted();
    symlinkSync(secret, join(dir, 'state.json'));
    expect(readRegularFileSync(join(dir, 'state.json'))).toEqual({
      refused: 'not-regular',
      kind: 'a symbolic link',
    });
    // With the lstat first, the link is named from what the lstat saw.
    expect(readRegularFileSync(join(dir, 'state.json'), { lstatFirst: true })).toMatchObject({
      refused: 'not-regular',
      kind: 'a symbolic link',
      stats: expect.anything(),
    });
  });

  it('a symlink in a parent is followed: only the final component is the reader’s (callers that must not follow resolve the real path first, or check the directory with private-dir)', () => {
    const { dir } = planted();
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'a.json'), '{}');
    symlinkSync(join(dir, 'real'), join(dir, 'linked'));
    expect(readRegularFileSync(join(dir, 'linked', 'a.json'))).toMatchObject({ text: '{}' });
  });

  it('a FIFO without a writer is refused at once, never waited on', () => {
    const { dir } = planted();
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    const started = performance.now();
    expect(readRegularFileSync(join(dir, 'fifo.json'))).toMatchObject({
      refused: 'not-regular',
      kind: 'a FIFO',
    });
    // Loose hang guard: a blocking open would never return at all.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a device (/dev/zero reads without end) and a directory are refused before a byte is read', () => {
    expect(readRegularFileSync('/dev/zero')).toMatchObject({ refused: 'not-regular', kind: 'a device' });
    expect(readRegularFileSync(tempDir())).toMatchObject({ refused: 'not-regular', kind: 'a directory' });
  });

  it('over the cap is refused with the size and the cap; at the cap is read', () => {
    const { dir } = planted();
    writeFileSync(join(dir, 'big.json'), 'x'.repeat(1025));
    expect(readRegularFileSync(join(dir, 'big.json'), { maxBytes: 1024 })).toMatchObject({
      refused: 'too-large',
      size: 1025,
      limit: 1024,
    });
    writeFileSync(join(dir, 'edge.json'), 'x'.repeat(1024));
    expect(readRegularFileSync(join(dir, 'edge.json'), { maxBytes: 1024 })).toMatchObject({
      text: 'x'.repeat(1024),
    });
  });

  it('swapped between check and open: while another process flips the path between a file and a link to a secret, no read ever returns the secret', async () => {
    const { dir, secret } = planted();
    const target = join(dir, 'state.json');
    writeFileSync(target, 'mine');
    // The swapper: renames a fresh link or a fresh file over the path as fast as it can.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [target, secret, dir] = process.argv.slice(1);
         const end = Date.now() + 1500;
         for (let i = 0; Date.now() < end; i++) {
           const next = dir + '/swap-' + i;
           if (i % 2) fs.symlinkSync(secret, next); else fs.writeFileSync(next, 'mine');
           fs.renameSync(next, target);
         }`,
        target,
        secret,
        dir,
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => swapper.on('exit', resolve));
    const seen = { text: 0, link: 0, other: 0 };
    let running = true;
    void exited.then(() => {
      running = false;
    });
    while (running) {
      for (let i = 0; i < 200; i++) {
        const read = readRegularFileSync(target, { lstatFirst: i % 2 === 0 });
        if ('text' in read) {
          expect(read.text).toBe('mine');
          seen.text += 1;
        } else if (read.refused === 'not-regular' && read.kind === 'a symbolic link') seen.link += 1;
        else seen.other += 1;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Both sides of the race were met; the secret never was.
    expect(seen.text).toBeGreaterThan(0);
    expect(seen.link).toBeGreaterThan(0);
    expect(seen.other).toBe(0);
  }, 20_000);
});

describe('openRegularFile / openRegularFileSync (for readers that stream)', () => {
  it('hand out a descriptor of a regular file, and refuse a link, a FIFO and a missing file the same way', async () => {
    const { dir, secret } = planted();
    symlinkSync(secret, join(dir, 'link'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const opened = await openRegularFile(join(dir, 'plain.txt'), { lstatFirst: true });
    if ('refused' in opened) throw new Error('expected a handle');
    expect((await opened.handle.readFile('utf8')).toString()).toBe('hello');
    await opened.handle.close();
    for (const [name, expected] of [
      ['link', { refused: 'not-regular', kind: 'a symbolic link' }],
      ['fifo', { refused: 'not-regular', kind: 'a FIFO' }],
      ['missing', { refused: 'absent' }],
    ] as const) {
      expect(await openRegularFile(join(dir, name))).toMatchObject(expected);
      expect(await openRegularFile(join(dir, name), { lstatFirst: true })).toMatchObject(expected);
      expect(openRegularFileSync(join(dir, name))).toMatchObject(expected);
    }
  });
});
