import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PathOutsideProjectError } from '../../../src/packs/workspace/path-outside-project-error.js';
import { isInside, ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { LEDGER_CONTENT_CHARS } from '../../../src/packs/workspace/tools/fs-write.js';
import { tempDir, tempLedger } from '../../helpers.js';
import { buildFixture, workspace } from './workspace-fixture.js';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

async function project() {
  const fixture = buildFixture();
  const ledger = tempLedger();
  const tools = await workspace(fixture.root, ledger);
  return { ...fixture, ...tools, ledger };
}

describe('fs_write and fs_edit evidence', () => {
  it('returns bytes and sha256 read back from disk; a later change on disk cannot change what it said', async () => {
    const { root, call } = await project();
    const record = await call('fs_write', { path: 'notes/a.md', content: 'hello\n' });
    expect(record.result).toEqual({
      ok: true,
      path: 'notes/a.md',
      bytes: 6,
      sha256: sha('hello\n'),
      created: true,
    });
    expect(record.evidence).toMatchObject({
      effects: [
        {
          kind: 'created',
          space: 'file',
          key: 'notes/a.md',
          observed: { bytes: 6, sha256: sha('hello\n') },
        },
      ],
      via: `fs_write notes/a.md sha256=${sha('hello\n').slice(0, 12)} (6 bytes)`,
    });
    writeFileSync(join(root, 'notes/a.md'), 'tampered afterwards');
    expect((record.result as { sha256: string }).sha256).toBe(sha('hello\n'));
    const again = await call('fs_write', { path: 'notes/a.md', content: 'second' });
    expect(again.result).toMatchObject({
      created: false,
      sha256: sha(readFileSync(join(root, 'notes/a.md'))),
    });
    expect(again.evidence?.effects).toMatchObject([{ kind: 'updated', key: 'notes/a.md' }]);
  });

  it('the ledger keeps a small written content whole and only the length of a large one; the caller and the disk get it all', async () => {
    const { root, call, recorder } = await project();
    const large = `${'export const x = 1;\n'.repeat(200)}// end\n`;
    expect(large.length).toBeGreaterThan(LEDGER_CONTENT_CHARS);
    const record = await call('fs_write', { path: 'big.ts', content: large });
    await call('fs_write', { path: 'small.ts', content: 'export const y = 2;\n' });
    expect(record.input).toEqual({ path: 'big.ts', content: large });
    expect(readFileSync(join(root, 'big.ts'), 'utf8')).toBe(large);
    const inputs = recorder
      .entries()
      .filter((entry) => entry.kind === 'tool_call')
      .map((entry) => entry.data.input);
    expect(inputs).toEqual([
      { path: 'big.ts', contentChars: large.length },
      { path: 'small.ts', content: 'export const y = 2;\n' },
    ]);
    // What was written stays evidenced whole: size and sha256 read back from disk.
    expect(record.evidence).toMatchObject({ bytes: Buffer.byteLength(large), sha256: sha(large) });
  });

  it('a replaced file keeps its permissions and records what it held before; a new file is created 0644', async () => {
    const { root, call } = await project();
    writeFileSync(join(root, 'run.sh'), 'echo one\n', { mode: 0o755 });
    writeFileSync(join(root, 'secret.env'), 'A=1\n', { mode: 0o600 });
    const written = await call('fs_write', { path: 'run.sh', content: 'echo two\n' });
    const edited = await call('fs_edit', { path: 'secret.env', oldString: 'A=1', newString: 'A=2' });
    await call('fs_write', { path: 'fresh/new.txt', content: 'new\n' });
    expect(lstatSync(join(root, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(lstatSync(join(root, 'secret.env')).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(root, 'fresh/new.txt')).mode & 0o777).toBe(0o644);
    expect(readFileSync(join(root, 'secret.env'), 'utf8')).toBe('A=2\n');
    expect(written.evidence?.effects).toMatchObject([
      { kind: 'updated', observed: { before: { bytes: 9, sha256: sha('echo one\n') } } },
    ]);
    expect(edited.evidence?.effects).toMatchObject([
      { kind: 'updated', observed: { before: { bytes: 4, sha256: sha('A=1\n') } } },
    ]);
  });

  it('an oldString that is not in the file is EDIT_NOT_FOUND, not EDIT_AMBIGUOUS, and changes nothing', async () => {
    const { root, call } = await project();
    writeFileSync(join(root, 'one.ts'), 'const a = 1;\n');
    const record = await call('fs_edit', { path: 'one.ts', oldString: 'const b = 2;', newString: 'x' });
    expect(record.outcome).toBe('rejected');
    expect(record.error).toMatchObject({ code: 'EDIT_NOT_FOUND', details: { matches: 0, lines: [] } });
    expect(record.error?.message).toContain('oldString was not found in one.ts');
    expect(readFileSync(join(root, 'one.ts'), 'utf8')).toBe('const a = 1;\n');
  });

  it('an ambiguous oldString changes nothing and reports both line numbers', async () => {
    const { root, call } = await project();
    const text = 'const a = 1;\nlet x = 2;\nconst a = 1;\n';
    writeFileSync(join(root, 'dup.ts'), text);
    const record = await call('fs_edit', {
      path: 'dup.ts',
      oldString: 'const a = 1;',
      newString: 'const a = 3;',
    });
    expect(record.outcome).toBe('rejected');
    expect(record.error).toMatchObject({ code: 'EDIT_AMBIGUOUS', details: { matches: 2, lines: [1, 3] } });
    expect(record.error?.message).toContain('lines 1, 3');
    expect(readFileSync(join(root, 'dup.ts'), 'utf8')).toBe(text);
    const both = await call('fs_edit', {
      path: 'dup.ts',
      oldString: 'const a = 1;',
      newString: 'const a = 3;',
      expectedReplacements: 2,
    });
    expect(both.result).toMatchObject({ replacements: 2 });
    expect(readFileSync(join(root, 'dup.ts'), 'utf8')).toBe('const a = 3;\nlet x = 2;\nconst a = 3;\n');
  });

  it('line-range edits never trip on duplicate text, keep CRLF endings, and return a unified diff', async () => {
    const { root, call } = await project();
    writeFileSync(join(root, 'crlf.txt'), 'same\r\nsame\r\nsame\r\n');
    const record = await call('fs_edit', { path: 'crlf.txt', startLine: 2, endLine: 2, newText: 'changed' });
    expect(readFileSync(join(root, 'crlf.txt'), 'utf8')).toBe('same\r\nchanged\r\nsame\r\n');
    const result = record.result as { diff: string; sha256: string; bytes: number };
    expect(result.diff).toContain('-same');
    expect(result.diff).toContain('+changed');
    expect(result.sha256).toBe(sha(readFileSync(join(root, 'crlf.txt'))));
    const insert = await call('fs_edit', { path: 'crlf.txt', startLine: 1, endLine: 0, newText: 'first' });
    expect(insert.outcome).toBe('ok');
    expect(readFileSync(join(root, 'crlf.txt'), 'utf8')).toBe('first\r\nsame\r\nchanged\r\nsame\r\n');
    const bad = await call('fs_edit', { path: 'crlf.txt', startLine: 9, endLine: 12, newText: 'x' });
    expect(bad.error?.code).toBe('RANGE_INVALID');
    const neither = await call('fs_edit', { path: 'crlf.txt' });
    expect(neither.error?.code).toBe('INVALID_INPUT');
  });
});

describe('fs_read', () => {
  it('reads ranges with totals and the whole-file hash; binary files are not dumped', async () => {
    const { root, call } = await project();
    writeFileSync(
      join(root, 'lines.txt'),
      Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n'),
    );
    const record = await call('fs_read', { path: 'lines.txt', startLine: 3, endLine: 4 });
    expect(record.result).toMatchObject({
      content: 'line 3\nline 4',
      totalLines: 10,
      startLine: 3,
      endLine: 4,
      sha256: sha(readFileSync(join(root, 'lines.txt'))),
    });
    writeFileSync(join(root, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
    expect((await call('fs_read', { path: 'blob.bin' })).result).toMatchObject({
      binary: true,
      bytes: 4,
      content: '',
    });
    expect((await call('fs_read', { path: 'missing.txt' })).error?.code).toBe('FILE_NOT_FOUND');
    expect((await call('fs_read', { path: 'src' })).error?.code).toBe('IS_A_DIRECTORY');
  });

  it('truncates a large file with a notice that says how to read on', async () => {
    const { root, call } = await project();
    writeFileSync(join(root, 'big.txt'), `${'x'.repeat(100)}\n`.repeat(5000));
    const result = (await call('fs_read', { path: 'big.txt' })).result as {
      truncated: boolean;
      notice: string;
      content: string;
      totalLines: number;
    };
    expect(result.truncated).toBe(true);
    expect(result.totalLines).toBe(5000);
    expect(result.notice).toMatch(
      /Truncated: showed 262144 bytes \(lines 1-\d+ of 5000\)\. Read further with startLine=\d+/,
    );
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(262144);
  });
});

describe('listing and searching', () => {
  it('fs_tree honours .gitignore and skips .git; fs_list shows symlinks without following them', async () => {
    const { root, call } = await project();
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'bundle.js'), '');
    writeFileSync(join(root, 'debug.log'), '');
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'HEAD'), 'ref');
    const tree = ((await call('fs_tree', { depth: 3 })).result as { tree: string }).tree;
    expect(tree).toContain('src/');
    expect(tree).toContain('    page.tsx');
    expect(tree).not.toMatch(/dist|debug\.log|\.git\b|HEAD/);
    const list = (await call('fs_list', { path: '.' })).result as {
      entries: { name: string; type: string }[];
    };
    expect(list.entries.find((entry) => entry.name === 'link-out')).toMatchObject({ type: 'symlink' });
    expect(list.entries.find((entry) => entry.name === 'src')).toMatchObject({ type: 'directory' });
  });

  it('fs_grep finds regex and literal matches, filters by glob, and caps with a notice', async () => {
    const { root, call } = await project();
    writeFileSync(join(root, 'src', 'a.ts'), 'const total = 1;\n// TODO: fix (a+b)\n');
    writeFileSync(join(root, 'src', 'b.md'), 'TODO in markdown\n');
    const regex = (await call('fs_grep', { pattern: 'TODO.*fix' })).result as { matches: unknown[] };
    expect(regex.matches).toEqual([{ path: 'src/a.ts', line: 2, text: '// TODO: fix (a+b)' }]);
    const literal = (await call('fs_grep', { pattern: '(a+b)', literal: true })).result as {
      matches: { path: string }[];
    };
    expect(literal.matches.map((match) => match.path)).toEqual(['src/a.ts']);
    const globbed = (await call('fs_grep', { pattern: 'TODO', glob: '*.md' })).result as {
      matches: { path: string }[];
    };
    expect(globbed.matches.map((match) => match.path)).toEqual(['src/b.md']);
    const capped = (await call('fs_grep', { pattern: 'TODO', maxResults: 1 })).result as {
      truncated: boolean;
      notice: string;
      count: number;
    };
    expect(capped).toMatchObject({ truncated: true, count: 2 });
    expect((await call('fs_grep', { pattern: '(' })).error?.code).toBe('PATTERN_INVALID');
  });

  it('fs_grep with a file as its path searches that file (as grep PATTERN FILE does)', async () => {
    const { root, call } = await project();
    writeFileSync(join(root, 'src', 'a.ts'), 'const total = 1;\n// TODO: fix\n');
    writeFileSync(join(root, 'src', 'b.ts'), '// TODO: elsewhere\n');
    const one = await call('fs_grep', { pattern: 'TODO', path: 'src/a.ts' });
    expect(one.result).toMatchObject({
      ok: true,
      matches: [{ path: 'src/a.ts', line: 2, text: '// TODO: fix' }],
      count: 1,
      filesSearched: 1,
    });
    const filtered = await call('fs_grep', { pattern: 'TODO', path: 'src/a.ts', glob: '*.md' });
    expect(filtered.result).toMatchObject({ ok: true, matches: [], filesSearched: 0 });
  });
});

describe('fs_move and fs_delete', () => {
  it('moves with read-back evidence, refuses to overwrite unless asked, never touches the root', async () => {
    const { root, call } = await project();
    const moved = await call('fs_move', { from: 'inside.txt', to: 'archive/inside.txt' });
    expect(moved.result).toMatchObject({
      from: 'inside.txt',
      to: 'archive/inside.txt',
      sha256: sha(readFileSync(join(root, 'archive/inside.txt'))),
    });
    writeFileSync(join(root, 'other.txt'), 'other');
    expect((await call('fs_move', { from: 'other.txt', to: 'archive/inside.txt' })).error?.code).toBe(
      'DESTINATION_EXISTS',
    );
    expect((await call('fs_move', { from: '.', to: 'x' })).error?.details).toMatchObject({
      reason: 'project-root',
    });
  });

  it('deletes a directory only with recursive, a symlink as itself, and never the root', async () => {
    const { root, call } = await project();
    expect((await call('fs_delete', { path: 'src' })).error?.code).toBe('IS_A_DIRECTORY');
    expect((await call('fs_delete', { path: 'link-inside' })).result).toMatchObject({
      path: 'link-inside',
      deleted: 'file',
    });
    expect(existsSync(join(root, 'inside.txt'))).toBe(true);
    expect(() => lstatSync(join(root, 'link-inside'))).toThrow();
    expect((await call('fs_delete', { path: '.', recursive: true })).error?.details).toMatchObject({
      reason: 'project-root',
    });
    expect((await call('fs_delete', { path: 'src', recursive: true })).outcome).toBe('ok');
    expect(existsSync(join(root, 'src'))).toBe(false);
  });
});

describe('atomic writes', () => {
  it('kill -9 in the middle of writes leaves the old file or the new file, never a partial one', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'data.bin'), 'a'.repeat(4 * 1024 * 1024));
    for (let attempt = 0; attempt < 6; attempt++) {
      const child = fork(join(import.meta.dirname, 'write-worker.ts'), [root, 'data.bin'], {
        execArgv: ['--import', 'tsx'],
      });
      await new Promise((resolve) => child.once('message', resolve));
      await new Promise((resolve) => setTimeout(resolve, 40 + attempt * 37));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const data = readFileSync(join(root, 'data.bin'));
      expect(data.length).toBe(4 * 1024 * 1024);
      const first = data[0] as number;
      expect([97, 98]).toContain(first);
      expect(data.every((byte) => byte === first)).toBe(true);
    }
  }, 60_000);
});

describe('path checking, fuzzed', () => {
  it('property: any string either resolves inside the real root or is refused with a reason', async () => {
    const { root } = buildFixture();
    const projectRoot = await ProjectRoot.open(root);
    const segment = fc.oneof(
      fc.constantFrom(
        '..',
        '.',
        '',
        'src',
        'link-out',
        'dir-link-out',
        'chain1',
        'loop1',
        'dangling-out',
        '\0',
        '..\\',
        '~',
        'proj-evil',
        '\uff0e\uff0e',
      ),
      fc.string({ maxLength: 6 }),
    );
    const path = fc
      .tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }))
      .map(([absolute, segments]) => `${absolute ? '/' : ''}${segments.join('/')}`);
    await fc.assert(
      fc.asyncProperty(path, async (candidate) => {
        try {
          const resolved = await projectRoot.resolve(candidate);
          return (
            isInside(projectRoot.realRoot, resolved.absolute) &&
            isInside(projectRoot.realRoot, (await projectRoot.resolveEntry(candidate)).entry)
          );
        } catch (error) {
          if (error instanceof PathOutsideProjectError) return typeof error.reason === 'string';
          return (error as { code?: string }).code === 'PATH_LOOP';
        }
      }),
      { numRuns: 500 },
    );
  });
});
