import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isExcluded, listRecordDirs, recordPathOf } from '../../../src/packs/records/list-record-dirs.js';
import { tempDir } from '../../helpers.js';

describe('listRecordDirs', () => {
  it('lists exactly the *.md files isExcluded lets through, whether the exclusion is in the name or a folder above (issue 22: decided per folder)', () => {
    const root = tempDir();
    const files = [
      'plans/a.md',
      'plans/INDEX.md',
      'plans/deep/INDEX.md',
      'plans/deep/b.md',
      'plans/deep/c.txt',
      'plans/x_archived/d.md',
      'plans/deep/y_archived.md',
      'plans/deep/notINDEX.md',
      'old_archived/store/e.md',
      'old_archived/store/sub/f.md',
      'old_archived/store/INDEX.md',
      'top.md',
    ];
    for (const file of files) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), '---\nid: x\n---\nbody\n');
    }
    const store = (name: string, absolute: string) => ({ store: name, absolute, exists: true, extra: false });
    const listed = listRecordDirs(root, [
      store('plans', join(root, 'plans')),
      // A store whose own path has an `_archived` folder: nothing under it is a record.
      store('old', join(root, 'old_archived', 'store')),
      // The root itself as a store (empty prefix).
      store('root', root),
    ]);
    const seen = listed.flatMap((dir) =>
      dir.files.map((file) => `${dir.store}:${recordPathOf(dir, file.name)}`),
    );
    expect(seen.sort()).toEqual(
      [
        'plans:plans/a.md',
        'plans:plans/deep/b.md',
        'plans:plans/deep/notINDEX.md',
        'root:plans/a.md',
        'root:plans/deep/b.md',
        'root:plans/deep/notINDEX.md',
        'root:top.md',
      ].sort(),
    );
    // The same answer as asking isExcluded about every listed-or-not *.md path.
    const expected = files.filter((file) => file.endsWith('.md') && !isExcluded(file));
    expect([...new Set(seen.map((entry) => entry.split(':')[1]))].sort()).toEqual(expected.sort());
  });
});
