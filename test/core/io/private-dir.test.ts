import { chmodSync, chownSync, mkdirSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSameStateDir, secureStateDir } from '../../../src/core/io/private-dir.js';
import { tempDir } from '../../helpers.js';

// Tally's private state directories (.tally, its chats/recipes/digests/gates, the user state
// folder): each case is a way another user or a planted link could redirect Tally's writes.

describe('secureStateDir', () => {
  it('creates one missing level 0700 and answers the directory it checked', () => {
    const parent = tempDir();
    const state = secureStateDir(join(parent, 'state'), { create: true, mode: 0o700 });
    expect(state).toMatchObject({ dir: join(parent, 'state') });
    expect(statSync(join(parent, 'state')).mode & 0o777).toBe(0o700);
    if ('refused' in state) throw new Error('expected a directory');
    expect(isSameStateDir(state)).toBe(true);
  });

  it('tightens an existing directory to the mode asked, through a descriptor', () => {
    const dir = join(tempDir(), 'state');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    expect(secureStateDir(dir, { create: true, mode: 0o700 })).toMatchObject({ dir });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('a symlink at the final component is refused (`link`), and nothing is chmod-ed through it', () => {
    const parent = tempDir();
    mkdirSync(join(parent, 'elsewhere'), { mode: 0o755 });
    chmodSync(join(parent, 'elsewhere'), 0o755);
    symlinkSync(join(parent, 'elsewhere'), join(parent, 'state'));
    expect(secureStateDir(join(parent, 'state'), { create: true, mode: 0o700 })).toMatchObject({
      refused: 'store-unwritable',
      reason: 'link',
    });
    expect(statSync(join(parent, 'elsewhere')).mode & 0o777).toBe(0o755);
  });

  it('a symlink in the parent is refused with realParent (`.tally/digests` under a linked `.tally`)', () => {
    const base = tempDir();
    mkdirSync(join(base, 'real'));
    symlinkSync(join(base, 'real'), join(base, '.tally'));
    expect(secureStateDir(join(base, '.tally', 'digests'), { create: true, realParent: true })).toMatchObject(
      {
        reason: 'link',
        why: expect.stringContaining(`${join(base, '.tally')} is a symbolic link`),
      },
    );
  });

  it('a file where the directory should be, a missing parent, and a missing directory not to be created', () => {
    const base = tempDir();
    writeFileSync(join(base, 'file'), '');
    expect(secureStateDir(join(base, 'file'), { create: true })).toMatchObject({ reason: 'not-directory' });
    expect(secureStateDir(join(base, 'no', 'state'), { create: true })).toMatchObject({
      reason: 'parent-missing',
    });
    expect(secureStateDir(join(base, 'state'), { create: false })).toMatchObject({
      refused: 'state-dir-unowned',
      reason: 'absent',
    });
    expect(secureStateDir('relative/state', { create: true })).toMatchObject({ reason: 'unusable' });
  });

  it('a directory owned by another user is refused (`foreign`)', () => {
    const uid = process.getuid?.();
    // Root can give a directory away; anyone else meets one that is not theirs in `/`.
    let foreign = '/';
    if (uid === 0) {
      foreign = join(tempDir(), 'theirs');
      mkdirSync(foreign);
      chownSync(foreign, 65534, 65534);
    }
    expect(secureStateDir(foreign, { create: false })).toMatchObject({
      refused: 'store-unwritable',
      reason: 'foreign',
    });
  });

  it('isSameStateDir tells when the checked directory was swapped for a link', () => {
    const parent = tempDir();
    const dir = join(parent, 'state');
    const state = secureStateDir(dir, { create: true });
    if ('refused' in state) throw new Error('expected a directory');
    mkdirSync(join(parent, 'other'));
    renameSync(dir, join(parent, 'moved'));
    symlinkSync(join(parent, 'other'), dir);
    expect(isSameStateDir(state)).toBe(false);
  });
});
