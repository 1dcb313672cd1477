import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reachedEnd, SYNC_READ_BYTES } from '../../../src/packs/workspace/read-file-window.js';
import { tempDir, tempLedger } from '../../helpers.js';
import { workspace } from './workspace-fixture.js';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Lines of 64 bytes, cut to exactly `size` bytes. */
const textOf = (size: number) => `${'y'.repeat(63)}\n`.repeat(Math.ceil(size / 64) + 1).slice(0, size);

// Reads are synchronous up to SYNC_READ_BYTES and go through the thread pool past it: the
// evidence must be the file's, byte for byte, on both sides of the boundary and across it.
describe('evidence read back on both sides of the synchronous-read boundary', () => {
  const sizes = [0, 1, SYNC_READ_BYTES - 1, SYNC_READ_BYTES, SYNC_READ_BYTES + 1, 3 * 1024 * 1024 + 7];

  it('fs_write and fs_read report the bytes and sha256 of the file on disk, at every size', async () => {
    const root = tempDir();
    const { call } = await workspace(root, tempLedger());
    for (const size of sizes) {
      const content = textOf(size);
      const written = await call('fs_write', { path: `f-${size}.txt`, content });
      expect(written.outcome).toBe('ok');
      const onDisk = readFileSync(join(root, `f-${size}.txt`));
      expect(onDisk.length).toBe(size);
      expect(written.evidence).toMatchObject({ bytes: size, sha256: sha256(onDisk) });
      const read = (await call('fs_read', { path: `f-${size}.txt` })).result as {
        bytes: number;
        sha256: string;
        totalLines: number;
      };
      expect(read).toMatchObject({ bytes: size, sha256: sha256(onDisk) });
      expect(read.totalLines).toBe(content === '' ? 0 : content.replace(/\n$/, '').split('\n').length);
    }
  }, 60_000);

  it('fs_edit of a file past the boundary edits it whole and reports the new sha256', async () => {
    const root = tempDir();
    const { call } = await workspace(root, tempLedger());
    const path = join(root, 'big.txt');
    writeFileSync(path, `${textOf(SYNC_READ_BYTES * 2)}TAIL-MARKER\n`);
    const edit = await call('fs_edit', {
      path: 'big.txt',
      oldString: 'TAIL-MARKER',
      newString: 'tail edited',
    });
    expect(edit.outcome).toBe('ok');
    const onDisk = readFileSync(path);
    expect(onDisk.toString('utf8').endsWith('tail edited\n')).toBe(true);
    expect(onDisk.length).toBe(SYNC_READ_BYTES * 2 + 'tail edited\n'.length);
    expect(edit.evidence).toMatchObject({ bytes: onDisk.length, sha256: sha256(onDisk) });
  }, 60_000);
});

// One read of a small file, not a second one that returns 0 — but only where that is certain.
describe('the end of a file is seen without another read only when a short read reached its size', () => {
  it('stops on a short read at the fstat size, reads on after a full chunk or a short read before the size', () => {
    expect(reachedEnd(1000, 4096, 1000, 1000)).toBe(true);
    // Grew since its fstat: what the read returned is where the file ended then.
    expect(reachedEnd(1500, 4096, 1500, 1000)).toBe(true);
    expect(reachedEnd(4096, 4096, 4096, 4096)).toBe(false);
    // A short read before the size the fstat gave (interrupted, an odd file system).
    expect(reachedEnd(512, 4096, 512, 1000)).toBe(false);
  });
});
