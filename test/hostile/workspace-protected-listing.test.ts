import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectRoot } from '../../src/packs/workspace/project-root.js';
import { tempDir, tempLedger } from '../helpers.js';
import { workspace } from '../packs/workspace/workspace-fixture.js';

/** A project whose `.tally/` (the ledger) is protected, as `tally mcp` and `tally code` open it. */
async function protectedProject() {
  const root = realpathSync(tempDir('tally-protected-'));
  mkdirSync(join(root, '.tally', 'chats'), { recursive: true });
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, '.tally', 'ledger.db'), 'LEDGER-BYTES needle');
  writeFileSync(join(root, '.tally', 'chats', 'c.json'), '{"needle":1}');
  writeFileSync(join(root, 'src', 'a.ts'), 'export const needle = 1;\n');
  const projectRoot = await ProjectRoot.open(root, { protect: [join(root, '.tally')] });
  return workspace(root, tempLedger(), { root: projectRoot });
}

describe('protected paths stay out of every listing (issue 19, item 12)', () => {
  it('fs_glob ".tally/**" lists nothing that fs_list/fs_read refuse', async () => {
    const { call } = await protectedProject();
    expect((await call('fs_list', { path: '.tally' })).error?.details).toMatchObject({
      reason: 'protected-path',
    });
    expect((await call('fs_read', { path: '.tally/ledger.db' })).error?.details).toMatchObject({
      reason: 'protected-path',
    });
    for (const pattern of ['.tally/**', '.tally/*', '**/*.db', '**/.tally/**', '.*/**', '**']) {
      const record = await call('fs_glob', { pattern });
      expect(record.outcome, pattern).toBe('ok');
      const paths = (record.result as { paths: string[] }).paths;
      expect(
        paths.filter((path) => path.startsWith('.tally')),
        pattern,
      ).toEqual([]);
    }
    expect(((await call('fs_glob', { pattern: '**/*.ts' })).result as { paths: string[] }).paths).toEqual([
      'src/a.ts',
    ]);
  });

  it('fs_grep and fs_tree from the root leave the ledger folder out too', async () => {
    const { call } = await protectedProject();
    const grep = (await call('fs_grep', { pattern: 'needle', path: '.' })).result as {
      matches: { path: string }[];
    };
    expect(grep.matches.map((match) => match.path)).toEqual(['src/a.ts']);
    const tree = (await call('fs_tree', { path: '.', depth: 5 })).result as { tree: string };
    expect(tree.tree).not.toContain('.tally');
    expect(tree.tree).not.toContain('ledger.db');
    expect(tree.tree).toContain('a.ts');
  });

  it('fs_list of the root leaves the ledger folder out, and a refusal never suggests the refused path back', async () => {
    const { call } = await protectedProject();
    const listed = (await call('fs_list', { path: '.' })).result as { entries: { name: string }[] };
    expect(listed.entries.map((entry) => entry.name)).toEqual(['src']);
    const refused = await call('fs_list', { path: '.tally' });
    expect(refused.error?.details).not.toHaveProperty('suggestion');
    expect(refused.error?.message).not.toContain('Did you mean');
    expect(refused.error?.message).toContain("Tally's own state");
  });
});
