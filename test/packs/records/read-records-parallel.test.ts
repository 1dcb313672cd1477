import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecordsInChunks } from '../../../src/packs/records/read-records-parallel.js';
import { readRecord, type ScannedFile } from '../../../src/packs/records/scan-stores.js';
import { type PreparedRecord, preparedRecordOf } from '../../../src/packs/records/write-records.js';
import { tempDir } from '../../helpers.js';

/** `count` records in a few folders, every 7th a failure mode and every 11th unrepresentable. */
function files(count: number): ScannedFile[] {
  const root = tempDir();
  const listed: ScannedFile[] = [];
  for (let index = 0; index < count; index++) {
    const folder = join(root, 'references', `f${index % 13}`);
    mkdirSync(folder, { recursive: true });
    const kind = index % 7 === 0 ? 'failure-mode' : 'decision';
    const links =
      index % 11 === 0 ? `links: [${'x, '.repeat(25_000)}y]` : `links: { decisions: [d.${index % 5}] }`;
    const absolute = join(folder, `r${index}.md`);
    writeFileSync(
      absolute,
      `---\nid: r.${index}\nkind: ${kind}\nkeywords: [k${index % 3}, lock]\n${links}\n---\n# Record ${index}\n\nbody ${index}\n`,
    );
    listed.push({ path: `references/f${index % 13}/r${index}.md`, store: 'references', absolute });
  }
  return listed;
}

/** What a one-thread read gives: the reference each parallel read must equal. */
const serially = (list: ScannedFile[]): (PreparedRecord | null)[] =>
  list.map((file) => {
    const entry = readRecord(file);
    return entry ? preparedRecordOf(entry) : null;
  });

describe('readRecordsInChunks', () => {
  it('with a worker, hands every chunk over in order with the records a one-thread read gives', () => {
    const list = files(1_300);
    // A path gone since it was listed: null in both reads, not an error.
    list.splice(500, 0, {
      path: 'references/gone.md',
      store: 'references',
      absolute: join(tempDir(), 'gone.md'),
    });
    const chunks: { files: ScannedFile[]; records: (PreparedRecord | null)[] }[] = [];
    const counts = readRecordsInChunks(list, (chunk) => chunks.push(chunk), { minFiles: 1, readHere: false });
    expect(counts).toEqual({ chunks: 6, worker: 6 });
    expect(chunks.flatMap((chunk) => chunk.files)).toEqual(list);
    for (const chunk of chunks) expect(chunk.records).toHaveLength(chunk.files.length);
    expect(chunks.flatMap((chunk) => chunk.records)).toEqual(serially(list));
    expect(chunks.flatMap((chunk) => chunk.records)[500]).toBeNull();
  });

  it('below the threshold reads on this thread alone, with the same result', () => {
    const list = files(300);
    const records: (PreparedRecord | null)[] = [];
    expect(readRecordsInChunks(list, (chunk) => records.push(...chunk.records))).toEqual({
      chunks: 2,
      worker: 0,
    });
    expect(records).toEqual(serially(list));
  });

  it('a file that cannot be read throws its error here, as a one-thread build does', () => {
    const list = files(600);
    const notADir = join(tempDir(), 'plain.md');
    writeFileSync(notADir, 'x');
    // open() of a path under a file fails with ENOTDIR in the worker and again here.
    list.splice(550, 0, { path: 'references/x.md', store: 'references', absolute: join(notADir, 'x.md') });
    let handed = 0;
    expect(() =>
      readRecordsInChunks(list, (chunk) => (handed += chunk.files.length), { minFiles: 1, readHere: false }),
    ).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    // The chunks before the failing one were inserted, in order.
    expect(handed).toBe(500);
  });

  it('both threads reading: the same chunks in order, whoever read each', () => {
    const list = files(2_600);
    const records: (PreparedRecord | null)[] = [];
    const counts = readRecordsInChunks(list, (chunk) => records.push(...chunk.records), { minFiles: 1 });
    expect(counts.chunks).toBe(11);
    expect(records).toEqual(serially(list));
  });
});
