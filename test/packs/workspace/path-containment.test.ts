import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TallyError } from '../../../src/core/errors.js';
import { PathOutsideProjectError } from '../../../src/packs/workspace/path-outside-project-error.js';
import { isInside, ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { tempDir } from '../../helpers.js';

/**
 * base/ (real path)
 *   proj/                 the project root; also reachable as base/alias (a symlink)
 *     inside.txt
 *     src/app/page.tsx
 *     .tally/ledger.db    protected in some tests
 *     link-inside -> inside.txt
 *     dir-link -> src     a symlinked directory inside
 *     out -> ../outside   a symlinked directory out
 *   outside/
 *     back -> ../proj/inside.txt   leads back in
 */
function project() {
  const base = realpathSync(tempDir('tally-contain-'));
  const root = join(base, 'proj');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'src', 'app'), { recursive: true });
  mkdirSync(join(root, '.tally'));
  mkdirSync(outside);
  writeFileSync(join(root, 'inside.txt'), 'inside\n');
  writeFileSync(join(root, 'src', 'app', 'page.tsx'), 'page\n');
  writeFileSync(join(root, '.tally', 'ledger.db'), '');
  symlinkSync('inside.txt', join(root, 'link-inside'));
  symlinkSync('src', join(root, 'dir-link'));
  symlinkSync('../outside', join(root, 'out'));
  symlinkSync('../proj/inside.txt', join(outside, 'back'));
  const alias = join(base, 'alias');
  symlinkSync(root, alias);
  return { base, root, outside, alias };
}

async function rejection(promise: Promise<unknown>): Promise<PathOutsideProjectError> {
  const error = await promise.then(
    (value) => new Error(`resolved to ${JSON.stringify(value)}`),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof PathOutsideProjectError)) throw error;
  return error;
}

describe('isInside', () => {
  it('is true for the same path and for paths below it', () => {
    expect(isInside('/proj', '/proj')).toBe(true);
    expect(isInside('/proj', '/proj/')).toBe(true);
    expect(isInside('/proj', '/proj/a')).toBe(true);
    expect(isInside('/proj', '/proj/a/b/c.txt')).toBe(true);
  });

  it('is true for names that merely start with two dots', () => {
    expect(isInside('/proj', '/proj/..hidden')).toBe(true);
    expect(isInside('/proj', '/proj/...')).toBe(true);
    expect(isInside('/proj', '/proj/..a/b')).toBe(true);
  });

  it('is false for the parent, siblings, prefix siblings and unrelated paths', () => {
    expect(isInside('/proj', '/')).toBe(false);
    expect(isInside('/base/proj', '/base')).toBe(false);
    expect(isInside('/proj', '/proj-evil')).toBe(false);
    expect(isInside('/proj', '/proj-evil/x')).toBe(false);
    expect(isInside('/proj', '/projx')).toBe(false);
    expect(isInside('/proj', '/other/proj')).toBe(false);
    expect(isInside('/proj/a', '/proj/b')).toBe(false);
  });
});

describe('ProjectRoot.open', () => {
  it('refuses a root that does not exist with ROOT_NOT_FOUND', async () => {
    const missing = join(tempDir(), 'nope');
    const error = await ProjectRoot.open(missing).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TallyError);
    expect(error).toMatchObject({
      code: 'ROOT_NOT_FOUND',
      message: `The project root ${missing} does not exist. Pass --root with an existing directory.`,
      details: { root: missing },
    });
  });

  it('refuses a root below a file (ENOTDIR) with ROOT_NOT_FOUND', async () => {
    const { root } = project();
    await expect(ProjectRoot.open(join(root, 'inside.txt', 'sub'))).rejects.toMatchObject({
      code: 'ROOT_NOT_FOUND',
    });
  });

  it('passes other failures through unchanged (a symlink loop as the root)', async () => {
    const base = tempDir();
    symlinkSync('b', join(base, 'a'));
    symlinkSync('a', join(base, 'b'));
    await expect(ProjectRoot.open(join(base, 'a'))).rejects.toMatchObject({ code: 'ELOOP' });
  });

  it('keeps the root as given and its real path apart', async () => {
    const { root, alias } = project();
    const opened = await ProjectRoot.open(`${alias}/./src/..`);
    expect(opened.root).toBe(alias);
    expect(opened.realRoot).toBe(root);
    expect(opened.allowedRoots).toEqual([root]);
  });
});

describe('ProjectRoot.resolve', () => {
  it('returns the real path, the relative path with forward slashes, existence and the anchored path', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    expect(await projectRoot.resolve('src/app/page.tsx')).toEqual({
      absolute: join(root, 'src', 'app', 'page.tsx'),
      relative: 'src/app/page.tsx',
      exists: true,
      anchored: join(root, 'src', 'app', 'page.tsx'),
    });
    expect(await projectRoot.resolve('.')).toEqual({
      absolute: root,
      relative: '.',
      exists: true,
      anchored: root,
    });
    expect(await projectRoot.resolve(root)).toMatchObject({ relative: '.', exists: true });
  });

  it('follows a symlink inside; anchored is the path before following', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    expect(await projectRoot.resolve('link-inside')).toEqual({
      absolute: join(root, 'inside.txt'),
      relative: 'inside.txt',
      exists: true,
      anchored: join(root, 'link-inside'),
    });
  });

  it('a path that does not exist yet: the nearest real ancestor plus the missing tail', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    expect(await projectRoot.resolve('src/new/deeper/file.txt')).toEqual({
      absolute: join(root, 'src', 'new', 'deeper', 'file.txt'),
      relative: 'src/new/deeper/file.txt',
      exists: false,
      anchored: join(root, 'src', 'new', 'deeper', 'file.txt'),
    });
    // Through a symlinked directory: the link is resolved, the tail kept.
    expect(await projectRoot.resolve('dir-link/new/file.txt')).toMatchObject({
      absolute: join(root, 'src', 'new', 'file.txt'),
      relative: 'src/new/file.txt',
      exists: false,
    });
    // Below a file: does not exist.
    expect(await projectRoot.resolve('inside.txt/child')).toMatchObject({
      absolute: join(root, 'inside.txt', 'child'),
      exists: false,
    });
  });

  it('a symlinked directory itself exists; a path under it exists when its target does', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    expect(await projectRoot.resolve('dir-link')).toMatchObject({
      absolute: join(root, 'src'),
      exists: true,
    });
    expect(await projectRoot.resolve('dir-link/app/page.tsx')).toMatchObject({
      absolute: join(root, 'src', 'app', 'page.tsx'),
      exists: true,
    });
  });

  it('a dangling symlink chain inside resolves to where a write would land, and does not exist', async () => {
    const { root } = project();
    symlinkSync('hop2', join(root, 'hop1'));
    symlinkSync('src/hop3', join(root, 'hop2'));
    symlinkSync('../made-later.txt', join(root, 'src', 'hop3'));
    const projectRoot = await ProjectRoot.open(root);
    expect(await projectRoot.resolve('hop1')).toEqual({
      absolute: join(root, 'made-later.txt'),
      relative: 'made-later.txt',
      exists: false,
      anchored: join(root, 'hop1'),
    });
    // A dangling link whose target lies in a missing directory.
    symlinkSync('gone/deeper/x.txt', join(root, 'dangling-deep'));
    expect(await projectRoot.resolve('dangling-deep')).toMatchObject({
      absolute: join(root, 'gone', 'deeper', 'x.txt'),
      exists: false,
    });
  });

  it('a dangling symlink that runs through a file resolves to where it points, and does not exist', async () => {
    const { root } = project();
    symlinkSync('inside.txt/x', join(root, 'through-file'));
    const projectRoot = await ProjectRoot.open(root);
    expect(await projectRoot.resolve('through-file')).toEqual({
      absolute: join(root, 'inside.txt', 'x'),
      relative: 'inside.txt/x',
      exists: false,
      anchored: join(root, 'through-file'),
    });
  });

  it('a new path 40 directories deep resolves', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    const deep = Array.from({ length: 40 }, (_, index) => `d${index}`).join('/');
    expect(await projectRoot.resolve(deep)).toMatchObject({ relative: deep, exists: false });
  });

  it('a symlink loop is refused with PATH_LOOP naming the path', async () => {
    const { root } = project();
    symlinkSync('loop2', join(root, 'loop1'));
    symlinkSync('loop1', join(root, 'loop2'));
    const projectRoot = await ProjectRoot.open(root);
    const error = await projectRoot.resolve('loop1').catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: 'PATH_LOOP',
      message: `Too many symbolic links (a loop?) while resolving ${join(root, 'loop1')}. Point the link at a real file.`,
      details: { path: join(root, 'loop1') },
    });
    // Below a loop, too.
    await expect(projectRoot.resolve('loop1/child.txt')).rejects.toMatchObject({ code: 'PATH_LOOP' });
  });

  it('accepts the root under its non-real spelling and anchors onto the real root', async () => {
    const { root, alias } = project();
    const projectRoot = await ProjectRoot.open(alias);
    expect(await projectRoot.resolve(join(alias, 'src', 'app', 'page.tsx'))).toEqual({
      absolute: join(root, 'src', 'app', 'page.tsx'),
      relative: 'src/app/page.tsx',
      exists: true,
      anchored: join(root, 'src', 'app', 'page.tsx'),
    });
    expect(await projectRoot.resolve('inside.txt')).toMatchObject({
      anchored: join(root, 'inside.txt'),
      relative: 'inside.txt',
    });
    expect(await projectRoot.resolve(join(root, 'inside.txt'))).toMatchObject({
      anchored: join(root, 'inside.txt'),
    });
    expect(await projectRoot.resolve(alias)).toMatchObject({ anchored: root, relative: '.' });
  });

  it('refuses with the reason, the given and the resolved path', async () => {
    const { base, root, alias } = project();
    const projectRoot = await ProjectRoot.open(alias);
    const cases: [string, string, string][] = [
      ['', root, 'empty-path'],
      [' \t ', root, 'empty-path'],
      ['a\0b', '(contains a NUL byte)', 'nul-byte'],
      ['../outside/x', join(base, 'outside', 'x'), 'traversal'],
      [join(base, 'outside', 'x'), join(base, 'outside', 'x'), 'absolute-outside'],
      [`${alias}-evil/x`, `${alias}-evil/x`, 'absolute-outside'],
      [`${root}-evil/x`, `${root}-evil/x`, 'absolute-outside'],
      ['out', join(base, 'outside'), 'symlink-escape'],
      ['out/new.txt', join(base, 'outside', 'new.txt'), 'symlink-escape'],
    ];
    for (const [given, resolved, reason] of cases) {
      const error = await rejection(projectRoot.resolve(given));
      expect(error.details, JSON.stringify(given)).toMatchObject({ given, resolved, reason, root });
      expect(error.reason).toBe(reason);
    }
  });

  it('refuses a value that is not a string as an empty path', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    const error = await rejection(projectRoot.resolve(42 as unknown as string));
    expect(error.details).toMatchObject({ given: '42', resolved: root, reason: 'empty-path' });
  });
});

describe('protected paths', () => {
  it('refuses the protected folder and everything in it, and nothing else', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root, { protect: [join(root, '.tally')] });
    for (const given of ['.tally', '.tally/ledger.db', '.tally/new.db', join(root, '.tally', 'x')]) {
      const error = await rejection(projectRoot.resolve(given));
      expect(error.reason, given).toBe('protected-path');
    }
    expect(await projectRoot.resolve('.tally-not')).toMatchObject({ exists: false });
    expect(await projectRoot.resolve('inside.txt')).toMatchObject({ exists: true });
  });

  it('a protected path given under the root’s non-real spelling still protects the real folder', async () => {
    const { root, alias } = project();
    const projectRoot = await ProjectRoot.open(alias, { protect: [join(alias, '.tally')] });
    for (const given of [
      '.tally/ledger.db',
      join(alias, '.tally', 'ledger.db'),
      join(root, '.tally', 'ledger.db'),
    ]) {
      const error = await rejection(projectRoot.resolve(given));
      expect(error.reason, given).toBe('protected-path');
    }
  });

  it('a link inside that points into the protected folder is refused', async () => {
    const { root } = project();
    symlinkSync('.tally/ledger.db', join(root, 'sneaky'));
    const projectRoot = await ProjectRoot.open(root, { protect: [join(root, '.tally')] });
    expect((await rejection(projectRoot.resolve('sneaky'))).reason).toBe('protected-path');
  });

  it('a relative protected path is taken relative to the working directory', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root, {
      protect: [relative(process.cwd(), join(root, '.tally'))],
    });
    expect((await rejection(projectRoot.resolve('.tally/ledger.db'))).reason).toBe('protected-path');
  });
});

describe('narrowing to client roots', () => {
  it('only paths inside an allowed directory pass; directories outside the root are dropped', async () => {
    const { root, outside } = project();
    const projectRoot = await ProjectRoot.open(root);
    projectRoot.narrow([join(root, 'src'), outside]);
    expect(projectRoot.allowedRoots).toEqual([join(root, 'src')]);
    expect(await projectRoot.resolve('src/app/page.tsx')).toMatchObject({ exists: true });
    expect(await projectRoot.resolve('dir-link/app/page.tsx')).toMatchObject({
      relative: 'src/app/page.tsx',
    });
    for (const given of ['inside.txt', '.', 'link-inside']) {
      const error = await rejection(projectRoot.resolve(given));
      expect(error.details, given).toMatchObject({ reason: 'outside-client-roots', given });
    }
  });

  it('an empty list offers no narrowing, like undefined: the whole root stays allowed', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    projectRoot.narrow([join(root, 'src')]);
    expect(projectRoot.narrow([])).toEqual([root]);
    expect(await projectRoot.resolve('inside.txt')).toMatchObject({ exists: true });
    projectRoot.narrow([join(root, 'src')]);
    projectRoot.narrow(undefined);
    expect(projectRoot.allowedRoots).toEqual([root]);
    expect(await projectRoot.resolve('inside.txt')).toMatchObject({ exists: true });
  });

  it('a client root that contains the root keeps the whole root, never more', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    expect(projectRoot.narrow([dirname(root)])).toEqual([root]);
    expect(await projectRoot.resolve('inside.txt')).toMatchObject({ exists: true });
    expect((await rejection(projectRoot.resolve(join(dirname(root), 'x.txt')))).reason).toBe(
      'absolute-outside',
    );
  });

  it('client roots beside the root leave nothing allowed, and the refusal says why without a suggestion', async () => {
    const { root, outside } = project();
    const projectRoot = await ProjectRoot.open(root);
    expect(projectRoot.narrow([outside])).toEqual([]);
    const error = await rejection(projectRoot.resolve('inside.txt'));
    expect(error.reason).toBe('outside-client-roots');
    expect(error.message).toContain(`share nothing with the project root ${root}`);
    expect(error.details).not.toHaveProperty('suggestion');
    expect(error.details).toMatchObject({ allowed: [], clientRoots: [outside] });
  });

  it('a refusal for a child root names the allowed directory, not the refused path as a suggestion', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    projectRoot.narrow([join(root, 'src')]);
    const error = await rejection(projectRoot.resolve('inside.txt'));
    expect(error.message).toContain(`limit this session to ${join(root, 'src')}: use a path inside it.`);
    expect(error.message).not.toContain('Did you mean');
  });

  it('delete and move act on the entry: a link outside the client roots is refused even when it points inside', async () => {
    const { root } = project();
    symlinkSync('src/app/page.tsx', join(root, 'page-link'));
    const projectRoot = await ProjectRoot.open(root);
    projectRoot.narrow([join(root, 'src')]);
    // Reading through it reaches an allowed file; removing it would change a folder the client did not offer.
    expect(await projectRoot.resolve('page-link')).toMatchObject({ relative: 'src/app/page.tsx' });
    const error = await rejection(projectRoot.resolveEntry('page-link'));
    expect(error.details).toMatchObject({
      reason: 'outside-client-roots',
      resolved: join(root, 'page-link'),
    });
    expect(await projectRoot.resolveEntry('dir-link/app/page.tsx')).toMatchObject({
      entryRelative: 'src/app/page.tsx',
    });
  });

  it('narrowing to the root itself allows the whole root', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    projectRoot.narrow([root]);
    expect(await projectRoot.resolve('.')).toMatchObject({ relative: '.' });
  });
});

describe('ProjectRoot.resolveEntry', () => {
  it('the entry of a symlink is the link itself, not its target', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    expect(await projectRoot.resolveEntry('link-inside')).toEqual({
      absolute: join(root, 'inside.txt'),
      relative: 'inside.txt',
      exists: true,
      anchored: join(root, 'link-inside'),
      entry: join(root, 'link-inside'),
      entryRelative: 'link-inside',
    });
  });

  it('the parent of the entry is resolved (a symlinked directory on the way)', async () => {
    const { root } = project();
    const projectRoot = await ProjectRoot.open(root);
    expect(await projectRoot.resolveEntry('dir-link/app/page.tsx')).toMatchObject({
      entry: join(root, 'src', 'app', 'page.tsx'),
      entryRelative: 'src/app/page.tsx',
    });
  });

  it('the root’s entry is the root, relative "."', async () => {
    const { root, alias } = project();
    for (const opened of [await ProjectRoot.open(root), await ProjectRoot.open(alias)]) {
      expect(await opened.resolveEntry('.')).toMatchObject({
        entry: root,
        entryRelative: '.',
        relative: '.',
      });
    }
  });

  it('refuses an entry whose parent lies outside, even when the link leads back in', async () => {
    const { base, root } = project();
    const projectRoot = await ProjectRoot.open(root);
    // out/back follows to root/inside.txt (inside), but the entry out/back sits in outside/.
    expect(await projectRoot.resolve('out/back')).toMatchObject({ absolute: join(root, 'inside.txt') });
    const error = await rejection(projectRoot.resolveEntry('out/back'));
    expect(error.details).toMatchObject({
      given: 'out/back',
      resolved: join(base, 'outside', 'back'),
      reason: 'symlink-escape',
    });
  });
});

describe('deep new paths', () => {
  it('a new file 60 directories deep is written where asked, not refused as a link loop', async () => {
    const root = await ProjectRoot.open(tempDir());
    const deep = `${Array.from({ length: 60 }, (_, index) => `d${index}`).join('/')}/file.txt`;
    const resolved = await root.resolve(deep);
    expect(resolved).toMatchObject({ relative: deep, exists: false });
  });
});
