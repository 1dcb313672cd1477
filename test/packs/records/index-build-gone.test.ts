import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { IndexedRecords } from '../../../src/packs/records/indexed-records.js';
import { listStores } from '../../../src/packs/records/stores.js';
import { tempDir } from '../../helpers.js';

// A file listed by a build but gone, or no longer a regular file, by the time it is read (a
// race nothing on disk can hold still): the reader is made to say so for one named file.
const refused = vi.hoisted(() => ({ name: undefined as string | undefined }));
vi.mock('../../../src/packs/records/read-regular-file.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/packs/records/read-regular-file.js')>();
  return {
    readRegularFile: (path: string) =>
      refused.name !== undefined && path.endsWith(refused.name)
        ? { notRegular: 'a FIFO' }
        : real.readRegularFile(path),
  };
});

describe('a full build whose listed file is not a record when read', () => {
  it('keeps it out of the tables and out of the snapshot, and reads it once its folder changes', () => {
    const root = join(tempDir('tally-records-'), 'root');
    const folder = join(root, 'references', 'procedures');
    mkdirSync(folder, { recursive: true });
    for (const name of ['a', 'b', 'c'])
      writeFileSync(join(folder, `${name}.md`), `---\nid: P-${name}\nkind: procedure\n---\n# ${name}\n`);
    const path = join(tempDir(), 'index.db');
    const stores = listStores(root, {});
    const ids = () => {
      const index = IndexedRecords.open(root, stores, path);
      try {
        return index.query({ kind: 'procedure' }).map((row) => row.id);
      } finally {
        index.close();
      }
    };
    refused.name = 'b.md';
    expect(ids()).toEqual(['P-a', 'P-c']);
    // Readable again, but neither it nor its folder changed: out of the snapshot, it is not
    // looked at (a snapshot entry for it would differ from the disk and be read at once).
    refused.name = undefined;
    expect(ids()).toEqual(['P-a', 'P-c']);
    // Its folder changes (a file added): the relist reads it.
    writeFileSync(join(folder, 'd.md'), '---\nid: P-d\nkind: procedure\n---\n# d\n');
    const later = new Date(Date.now() + 5_000);
    utimesSync(folder, later, later);
    expect(ids()).toEqual(['P-a', 'P-b', 'P-c', 'P-d']);
  });
});
