import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectRoot } from '../../src/packs/workspace/project-root.js';
import { tempDir, tempLedger } from '../helpers.js';
import { workspace } from '../packs/workspace/workspace-fixture.js';

/** A project with links to folders outside it, to its own protected `.tally/` and to itself. */
async function linkedProject() {
  const base = realpathSync(tempDir('tally-glob-links-'));
  const root = join(base, 'proj');
  const outside = join(base, 'outside');
  mkdirSync(join(root, '.tally'), { recursive: true });
  mkdirSync(join(root, 'src'));
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret-plan.txt'), 'outside');
  writeFileSync(join(root, '.tally', 'ledger.db'), 'LEDGER');
  writeFileSync(join(root, 'src', 'a.ts'), 'export {};\n');
  symlinkSync('../outside', join(root, 'out'));
  symlinkSync('.', join(root, 'self'));
  symlinkSync('.tally', join(root, 'state'));
  const projectRoot = await ProjectRoot.open(root, { protect: [join(root, '.tally')] });
  return workspace(root, tempLedger(), { root: projectRoot });
}

describe('fs_glob never lists through a symlinked folder', () => {
  it('names outside the root, or inside .tally under another spelling, are left out', async () => {
    const { call } = await linkedProject();
    for (const pattern of [
      'out/*',
      'out/**',
      'self/.tally/*',
      'state/*',
      'self/out/*',
      'self/src/*',
      '*/*',
    ]) {
      const record = await call('fs_glob', { pattern });
      expect(record.outcome, pattern).toBe('ok');
      const paths = (record.result as { paths: string[] }).paths;
      expect(
        paths.filter((path) => path.includes('secret-plan') || path.includes('ledger.db')),
        pattern,
      ).toEqual([]);
      // Only the real spelling of a file is ever listed.
      for (const path of paths) expect(path, pattern).toBe('src/a.ts');
    }
    expect((await call('fs_glob', { pattern: 'src/*' })).result).toMatchObject({ paths: ['src/a.ts'] });
  });

  it('a search started at a linked folder is refused as before (the path rule, not the glob)', async () => {
    const { call } = await linkedProject();
    const record = await call('fs_glob', { pattern: '*', path: 'out' });
    expect(record.error?.details).toMatchObject({ reason: 'symlink-escape' });
  });
});
