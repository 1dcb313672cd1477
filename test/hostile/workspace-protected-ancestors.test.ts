import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectRoot } from '../../src/packs/workspace/project-root.js';
import { tempDir, tempLedger } from '../helpers.js';
import { workspace } from '../packs/workspace/workspace-fixture.js';

/** `tally mcp --root p --ledger p/data/state/ledger.db`: the ledger's folder is protected, deep inside the project. */
async function ledgerDeepInside() {
  const root = realpathSync(tempDir('tally-ancestors-'));
  const state = join(root, 'data', 'state');
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, 'ledger.db'), 'LEDGER');
  writeFileSync(join(root, 'data', 'seed.json'), '{}');
  mkdirSync(join(root, 'other'));
  const projectRoot = await ProjectRoot.open(root, { protect: [state] });
  return { root, state, ...(await workspace(root, tempLedger(), { root: projectRoot })) };
}

describe('a folder that holds a protected path is never deleted, moved or replaced', () => {
  it('fs_delete of the ledger folder or any folder above it is refused, and the ledger stays', async () => {
    const { state, call } = await ledgerDeepInside();
    for (const path of ['data', 'data/state', './data', 'data/../data']) {
      const record = await call('fs_delete', { path, recursive: true });
      expect(record.outcome, path).toBe('rejected');
      expect(record.error?.details, path).toMatchObject({ reason: 'protected-path' });
    }
    expect(existsSync(join(state, 'ledger.db'))).toBe(true);
    // A file beside it is the project's: still deletable.
    expect((await call('fs_delete', { path: 'data/seed.json' })).outcome).toBe('ok');
  });

  it('fs_move of a folder above the ledger is refused, as source and as an overwritten destination', async () => {
    const { state, call } = await ledgerDeepInside();
    const moved = await call('fs_move', { from: 'data', to: 'moved' });
    expect(moved.error?.details).toMatchObject({ reason: 'protected-path' });
    const replaced = await call('fs_move', { from: 'other', to: 'data', overwrite: true });
    expect(replaced.error?.details).toMatchObject({ reason: 'protected-path' });
    expect(existsSync(join(state, 'ledger.db'))).toBe(true);
    expect((await call('fs_move', { from: 'other', to: 'renamed' })).outcome).toBe('ok');
  });
});
