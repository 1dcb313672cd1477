import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside } from '../../../src/packs/workspace/project-root.js';
import { tempLedger } from '../../helpers.js';
import { buildFixture, SECRET, snapshotOutside, workspace } from './workspace-fixture.js';

type Case = {
  name: string;
  path: (fixture: ReturnType<typeof buildFixture>) => string;
  refuse: boolean;
  reasons?: string[];
};

// Hostile paths after the categories of the official MCP filesystem server's path-validation tests.
const CASES: Case[] = [
  // traversal
  {
    name: 'parent traversal to a file',
    path: () => '../outside/secret.txt',
    refuse: true,
    reasons: ['traversal'],
  },
  {
    name: 'deep traversal to /etc',
    path: () => '../../../../../../etc/passwd',
    refuse: true,
    reasons: ['traversal'],
  },
  {
    name: 'traversal through a real dir',
    path: () => 'src/../../outside/secret.txt',
    refuse: true,
    reasons: ['traversal'],
  },
  { name: 'bare ..', path: () => '..', refuse: true, reasons: ['traversal'] },
  { name: 'trailing slash ../', path: () => '../', refuse: true, reasons: ['traversal'] },
  { name: 'dot then traversal', path: () => './../outside/secret.txt', refuse: true, reasons: ['traversal'] },
  { name: 'nested climb', path: () => 'src/app/../../../outside', refuse: true, reasons: ['traversal'] },
  {
    name: 'traversal to the prefix sibling',
    path: () => '../proj-evil/secret.txt',
    refuse: true,
    reasons: ['traversal'],
  },
  {
    name: 'back in and out again',
    path: () => '../proj/../outside/secret.txt',
    refuse: true,
    reasons: ['traversal'],
  },
  {
    name: 'through a file as a directory',
    path: () => 'inside.txt/../../outside/secret.txt',
    refuse: true,
    reasons: ['traversal'],
  },
  {
    name: 'redundant slashes',
    path: () => '..//..//outside//secret.txt',
    refuse: true,
    reasons: ['traversal'],
  },
  { name: 'dot segments out', path: () => '../outside/./secret.txt', refuse: true, reasons: ['traversal'] },
  {
    name: 'trailing slash on a file out',
    path: () => '../outside/secret.txt/',
    refuse: true,
    reasons: ['traversal'],
  },
  { name: 'climb to filesystem root', path: () => 'src/../../..', refuse: true, reasons: ['traversal'] },
  // absolute
  { name: 'absolute /etc/passwd', path: () => '/etc/passwd', refuse: true, reasons: ['absolute-outside'] },
  { name: 'absolute filesystem root', path: () => '/', refuse: true, reasons: ['absolute-outside'] },
  {
    name: 'absolute outside file',
    path: (f) => join(f.outside, 'secret.txt'),
    refuse: true,
    reasons: ['absolute-outside'],
  },
  { name: 'absolute parent of root', path: (f) => f.base, refuse: true, reasons: ['absolute-outside'] },
  {
    name: 'absolute via root/..',
    path: (f) => `${f.root}/../outside/secret.txt`,
    refuse: true,
    reasons: ['absolute-outside'],
  },
  { name: 'absolute /tmp', path: () => '/tmp', refuse: true, reasons: ['absolute-outside'] },
  {
    name: 'absolute /proc/self/environ',
    path: () => '/proc/self/environ',
    refuse: true,
    reasons: ['absolute-outside'],
  },
  // prefix-sibling
  {
    name: 'sibling sharing the root prefix',
    path: (f) => `${f.root}-evil/secret.txt`,
    refuse: true,
    reasons: ['absolute-outside'],
  },
  { name: 'sibling dir itself', path: (f) => `${f.root}-evil`, refuse: true, reasons: ['absolute-outside'] },
  {
    name: 'sibling with trailing slash',
    path: (f) => `${f.root}-evil/`,
    refuse: true,
    reasons: ['absolute-outside'],
  },
  {
    name: 'sibling via root/../',
    path: (f) => `${f.root}/../proj-evil/secret.txt`,
    refuse: true,
    reasons: ['absolute-outside'],
  },
  // NUL byte
  {
    name: 'NUL byte then traversal',
    path: () => 'inside.txt\0../../etc/passwd',
    refuse: true,
    reasons: ['nul-byte'],
  },
  { name: 'lone NUL', path: () => '\0', refuse: true, reasons: ['nul-byte'] },
  { name: 'NUL in a directory name', path: () => 'src/\0app/page.tsx', refuse: true, reasons: ['nul-byte'] },
  { name: 'NUL at the end', path: () => 'inside.txt\0', refuse: true, reasons: ['nul-byte'] },
  // empty
  { name: 'empty string', path: () => '', refuse: true, reasons: ['empty-path'] },
  { name: 'only spaces', path: () => '   ', refuse: true, reasons: ['empty-path'] },
  // symlink out
  { name: 'symlinked file pointing out', path: () => 'link-out', refuse: true, reasons: ['symlink-escape'] },
  {
    name: 'file under a symlinked dir pointing out',
    path: () => 'dir-link-out/secret.txt',
    refuse: true,
    reasons: ['symlink-escape'],
  },
  {
    name: 'symlinked dir pointing out',
    path: () => 'dir-link-out',
    refuse: true,
    reasons: ['symlink-escape'],
  },
  {
    name: 'symlinked dir to the prefix sibling',
    path: () => 'docs/evil-link/secret.txt',
    refuse: true,
    reasons: ['symlink-escape'],
  },
  {
    name: 'absolute path through an outward symlink',
    path: (f) => join(f.root, 'dir-link-out', 'secret.txt'),
    refuse: true,
    reasons: ['symlink-escape'],
  },
  // symlink chain
  { name: 'symlink chain ending outside', path: () => 'chain1', refuse: true, reasons: ['symlink-escape'] },
  { name: 'middle of the chain', path: () => 'chain2', refuse: true, reasons: ['symlink-escape'] },
  // dangling symlink
  {
    name: 'dangling relative symlink out',
    path: () => 'dangling-out',
    refuse: true,
    reasons: ['symlink-escape'],
  },
  {
    name: 'dangling absolute symlink out',
    path: () => 'dangling-abs',
    refuse: true,
    reasons: ['symlink-escape'],
  },
  // symlinked parent of a new file
  {
    name: 'new file under an outward symlinked dir',
    path: () => 'dir-link-out/new-file.txt',
    refuse: true,
    reasons: ['symlink-escape'],
  },
  {
    name: 'new nested file under an outward symlinked dir',
    path: () => 'dir-link-out/deeper/new.txt',
    refuse: true,
    reasons: ['symlink-escape'],
  },
  {
    name: 'new file under the sibling link',
    path: () => 'docs/evil-link/planted.txt',
    refuse: true,
    reasons: ['symlink-escape'],
  },
  // loops
  { name: 'symlink loop', path: () => 'loop1', refuse: true },
  // unicode and look-alikes: not escapes — whatever happens must stay inside
  { name: 'fullwidth dots', path: () => '\uff0e\uff0e/outside/secret.txt', refuse: false },
  { name: 'one-dot leader characters', path: () => '\u2024\u2024/outside/secret.txt', refuse: false },
  { name: 'division slash', path: () => '..\u2215outside\u2215secret.txt', refuse: false },
  { name: 'fraction slash', path: () => '..\u2044outside', refuse: false },
  { name: 'right-to-left override', path: () => '\u202e..txt', refuse: false },
  { name: 'combining characters', path: () => 'cafe\u0301.txt', refuse: false },
  { name: 'URL-encoded traversal', path: () => '%2e%2e/outside/secret.txt', refuse: false },
  { name: 'double URL-encoded', path: () => '%252e%252e%252f', refuse: false },
  { name: 'backslash traversal (literal on POSIX)', path: () => '..\\outside\\secret.txt', refuse: false },
  { name: 'tilde home', path: () => '~/secret.txt', refuse: false },
  { name: 'file URL', path: () => 'file:///etc/passwd', refuse: false },
  { name: 'four dots', path: () => '..../outside', refuse: false },
  { name: 'dots and spaces', path: () => '.. /outside/secret.txt', refuse: false },
  { name: 'zero-width space', path: () => '.\u200b./outside/secret.txt', refuse: false },
  // inside, for contrast
  { name: 'symlink to a file inside', path: () => 'link-inside', refuse: false },
  { name: 'absolute path inside', path: (f) => join(f.root, 'src', 'app', 'page.tsx'), refuse: false },
  { name: 'traversal that stays inside', path: () => 'src/app/../../inside.txt', refuse: false },
];

const TOOLS: { tool: string; input: (path: string) => Record<string, unknown> }[] = [
  { tool: 'fs_read', input: (path) => ({ path }) },
  { tool: 'fs_write', input: (path) => ({ path, content: 'pwned' }) },
  {
    tool: 'fs_edit',
    input: (path) => ({ path, oldString: 'SECRET', newString: 'pwned', expectedReplacements: 1 }),
  },
  { tool: 'fs_list', input: (path) => ({ path }) },
  { tool: 'fs_tree', input: (path) => ({ path }) },
  { tool: 'fs_glob', input: (path) => ({ path, pattern: '**/*' }) },
  { tool: 'fs_grep', input: (path) => ({ path, pattern: 'SECRET' }) },
  { tool: 'fs_move (from)', input: (path) => ({ from: path, to: 'moved-here.txt' }) },
  { tool: 'fs_move (to)', input: (path) => ({ from: 'inside.txt', to: path, overwrite: true }) },
  { tool: 'fs_delete', input: (path) => ({ path, recursive: true }) },
];

describe('path security: hostile paths against every tool that takes one', () => {
  it(`has at least 60 hostile cases (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
  });

  for (const { tool, input } of TOOLS) {
    it(`${tool}: zero escapes; every refusal is PATH_OUTSIDE_PROJECT with a reason, and in the ledger`, async () => {
      const failures: string[] = [];
      for (const hostile of CASES) {
        const fixture = buildFixture();
        const before = snapshotOutside(fixture.base);
        const ledger = tempLedger();
        const { call } = await workspace(fixture.root, ledger);
        const record = await call(tool.split(' ')[0] as string, input(hostile.path(fixture)));
        const after = snapshotOutside(fixture.base);
        const label = `${hostile.name} (${JSON.stringify(hostile.path(fixture))})`;
        if (after !== before) failures.push(`${label}: ESCAPED — outside changed`);
        if (JSON.stringify(record.result ?? '').includes(SECRET))
          failures.push(`${label}: ESCAPED — read the secret`);
        if (hostile.refuse) {
          const reason = (record.error?.details as { reason?: string } | undefined)?.reason;
          const loop = record.error?.code === 'PATH_LOOP';
          if (record.outcome !== 'rejected' && !loop)
            failures.push(`${label}: not refused (${record.outcome})`);
          else if (
            !loop &&
            (record.error?.code !== 'PATH_OUTSIDE_PROJECT' ||
              !reason ||
              (hostile.reasons && !hostile.reasons.includes(reason)))
          ) {
            failures.push(
              `${label}: refused with ${record.error?.code}/${reason}, expected ${hostile.reasons?.join('|')}`,
            );
          }
          const entry = ledger
            .entries(ledger.listRuns()[0]?.id as string)
            .find((candidate) => candidate.kind === 'tool_call');
          if (
            !loop &&
            (entry?.outcome !== 'rejected' ||
              (entry.data.error as { details?: { reason?: string } }).details?.reason !== reason)
          ) {
            failures.push(`${label}: the rejection is not in the ledger with its reason`);
          }
        }
        // A successful call may only have touched paths inside the project.
        const touched = [record.result && (record.result as { path?: string }).path].filter(
          Boolean,
        ) as string[];
        for (const path of touched)
          if (!isInside(fixture.root, join(fixture.root, path)))
            failures.push(`${label}: reported a path outside: ${path}`);
        ledger.close();
      }
      expect(failures).toEqual([]);
    });
  }

  it('fs_glob refuses patterns that climb out or are absolute', async () => {
    const fixture = buildFixture();
    const { call } = await workspace(fixture.root, tempLedger());
    for (const pattern of [
      '../**',
      '../outside/*.txt',
      '/etc/*',
      '**/../../outside/*',
      'src/../../*',
      '\0*',
    ]) {
      const record = await call('fs_glob', { pattern });
      expect(record.outcome, pattern).toBe('rejected');
      expect(record.error?.details).toMatchObject({ reason: 'glob-escape' });
    }
    const ok = await call('fs_glob', { pattern: '**/*.tsx' });
    expect((ok.result as { paths: string[] }).paths).toEqual(['src/app/page.tsx']);
  });

  it('a symlinked directory swapped in between the check and the write is caught (race)', async () => {
    const fixture = buildFixture();
    const before = snapshotOutside(fixture.base);
    const ledger = tempLedger();
    const { call } = await workspace(fixture.root, ledger, {
      writeHooks: {
        beforeRename: async () => {
          // The attacker replaces src/app with a link to outside after the path was checked.
          renameSync(join(fixture.root, 'src', 'app'), join(fixture.root, 'src', 'app-moved'));
          symlinkSync(fixture.outside, join(fixture.root, 'src', 'app'));
        },
      },
    });
    const record = await call('fs_write', { path: 'src/app/page.tsx', content: 'pwned' });
    expect(record.outcome).toBe('rejected');
    expect(record.error?.details).toMatchObject({ reason: 'race-detected' });
    expect(snapshotOutside(fixture.base)).toBe(before);
    expect(existsSync(join(fixture.outside, 'page.tsx'))).toBe(false);
    // The refused write's content is nowhere: its temporary file, left where the folder went,
    // was emptied through its descriptor (the path no longer reached it).
    for (const name of readdirSync(join(fixture.root, 'src', 'app-moved')))
      expect(readFileSync(join(fixture.root, 'src', 'app-moved', name), 'utf8'), name).not.toContain('pwned');
  });

  // Each swap leaves the write's next step meeting ENOENT or ENOTDIR (the folder is gone, or a
  // link to nothing or to a file stands in its place): the refusal is the race's, not a raw error.
  const swaps = {
    'moved away': (root: string) => renameSync(join(root, 'src', 'app'), join(root, 'src', 'app-moved')),
    'a link to a missing place': (root: string, outside: string) => {
      renameSync(join(root, 'src', 'app'), join(root, 'src', 'app-moved'));
      symlinkSync(join(outside, 'missing'), join(root, 'src', 'app'));
    },
    'a link to a file': (root: string, outside: string) => {
      renameSync(join(root, 'src', 'app'), join(root, 'src', 'app-moved'));
      symlinkSync(join(outside, 'secret.txt'), join(root, 'src', 'app'));
    },
  };
  for (const [swap, apply] of Object.entries(swaps))
    for (const hook of ['beforeTempFile', 'beforeRename', 'afterRename'] as const)
      for (const path of ['src/app/page.tsx', 'src/app/new/deeper/x.txt'])
        it(`${path}: its folder ${swap} mid-write (${hook}) is refused as race-detected, its content nowhere but the project`, async () => {
          const fixture = buildFixture();
          const before = snapshotOutside(fixture.base);
          const { call } = await workspace(fixture.root, tempLedger(), {
            writeHooks: { [hook]: async () => apply(fixture.root, fixture.outside) },
          });
          const record = await call('fs_write', { path, content: 'pwned' });
          expect(record.error?.message).not.toMatch(/ENOENT|ENOTDIR/);
          expect(record.outcome).toBe('rejected');
          expect(record.error?.details).toMatchObject({ reason: 'race-detected' });
          expect(snapshotOutside(fixture.base)).toBe(before);
          const moved = join(fixture.root, 'src', 'app-moved');
          const written = readdirSync(moved, { recursive: true, encoding: 'utf8' }).filter(
            (name) =>
              !lstatSync(join(moved, name)).isDirectory() &&
              readFileSync(join(moved, name), 'utf8').includes('pwned'),
          );
          // Refused before the rename: the content is nowhere. After it: only in the file it
          // replaced, inside the project, where the folder was moved to.
          expect(written).toEqual(hook === 'afterRename' ? [path.replace('src/app/', '')] : []);
        });

  it('an ENOENT with no folder moved stays the error it is', async () => {
    const fixture = buildFixture();
    const { call } = await workspace(fixture.root, tempLedger(), {
      writeHooks: {
        // The temporary file alone vanishes; its folder is where it was.
        beforeRename: async () => {
          for (const name of readdirSync(join(fixture.root, 'src', 'app')))
            if (name !== 'page.tsx') unlinkSync(join(fixture.root, 'src', 'app', name));
        },
      },
    });
    const record = await call('fs_write', { path: 'src/app/page.tsx', content: 'fine' });
    expect(record.outcome).not.toBe('ok');
    expect(record.error?.details).not.toMatchObject({ reason: 'race-detected' });
  });

  it('folders a write creates are made one at a time, each checked: none is made through a link', async () => {
    const fixture = buildFixture();
    const before = snapshotOutside(fixture.base);
    const { call } = await workspace(fixture.root, tempLedger());
    // `dir-link-out -> ../outside`: a new file below it must not create folders outside.
    const record = await call('fs_write', { path: 'dir-link-out/new/deeper/x.txt', content: 'pwned' });
    expect(record.outcome).toBe('rejected');
    expect(snapshotOutside(fixture.base)).toBe(before);
    const made = await call('fs_write', { path: 'src/new/deeper/x.txt', content: 'fine' });
    expect(made.outcome).toBe('ok');
    expect(readFileSync(join(fixture.root, 'src', 'new', 'deeper', 'x.txt'), 'utf8')).toBe('fine');
  });

  it('suggests the path the caller meant', async () => {
    const fixture = buildFixture();
    const { call } = await workspace(fixture.root, tempLedger());
    const record = await call('fs_read', { path: '/workspace/src/app/page.tsx' });
    expect(record.error?.details).toMatchObject({
      given: '/workspace/src/app/page.tsx',
      resolved: '/workspace/src/app/page.tsx',
      reason: 'absolute-outside',
      suggestion: 'src/app/page.tsx',
    });
    expect(record.error?.message).toContain('Did you mean "src/app/page.tsx"?');
    // The suggestion works.
    const retry = await call('fs_read', { path: 'src/app/page.tsx' });
    expect(retry.outcome).toBe('ok');
    expect(readFileSync(join(fixture.root, 'src/app/page.tsx'), 'utf8')).toContain('Page');
  });
});
