import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, tempLedger } from '../../helpers.js';
import { workspace } from './workspace-fixture.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('changes sent in parallel all land, each with its own evidence', () => {
  it('five fs_edit calls on one file in flight together: every edit is on disk', async () => {
    const root = realpathSync(tempDir('tally-parallel-'));
    const lines = ['line0', 'line1', 'line2', 'line3', 'line4'];
    writeFileSync(join(root, 'f.txt'), `${lines.join('\n')}\n`);
    const { call } = await workspace(root, tempLedger());
    const records = await Promise.all(
      lines.map((line, index) =>
        call('fs_edit', { path: 'f.txt', oldString: line, newString: `EDITED${index}` }),
      ),
    );
    expect(records.map((record) => record.outcome)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    const final = readFileSync(join(root, 'f.txt'), 'utf8');
    expect(final).toBe(`${lines.map((_, index) => `EDITED${index}`).join('\n')}\n`);
    // Each answer's hash is of the file as that edit left it: the last one is the file now.
    const hashes = records.map((record) => (record.result as { sha256: string }).sha256);
    expect(new Set(hashes).size).toBe(5);
    expect(hashes).toContain(sha256(final));
  });

  it('parallel fs_write calls to one path: each reports the bytes it wrote', async () => {
    const root = realpathSync(tempDir('tally-parallel-'));
    const { call } = await workspace(root, tempLedger());
    const contents = ['first', 'second!', 'third!!!', 'fourth!!!!'];
    const records = await Promise.all(
      contents.map((content) => call('fs_write', { path: 'w.txt', content })),
    );
    records.forEach((record, index) => {
      expect(record.result).toMatchObject({ ok: true, sha256: sha256(contents[index] as string) });
    });
  });
});
