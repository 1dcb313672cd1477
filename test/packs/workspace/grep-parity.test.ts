import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SearchRequest, searchFiles } from '../../../src/packs/workspace/search-files.js';
import { searchRunner } from '../../../src/packs/workspace/search-in-worker.js';
import { tempDir, tempLedger } from '../../helpers.js';
import { workspace } from './workspace-fixture.js';

interface Hit {
  path: string;
  line: number;
  text: string;
}

const byPathThenLine = (a: Hit, b: Hit) => a.path.localeCompare(b.path) || a.line - b.line;

/**
 * What `grep -rnI` (C locale: bytes, binary = a NUL byte) finds, shaped as fs_grep shows a hit:
 * the line decoded as UTF-8, a CRLF line's `\r` dropped, cut to 500 characters.
 */
function grepHits(root: string, pattern: string, flags: string[] = []): Hit[] {
  let output: Buffer;
  try {
    output = execFileSync('grep', ['-rnIE', ...flags, '--', pattern, '.'], {
      cwd: root,
      env: { ...process.env, LC_ALL: 'C' },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    // Exit 1: no line matched.
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
  const hits: Hit[] = [];
  let start = 0;
  while (start < output.length) {
    const end = output.indexOf(0x0a, start);
    const record = output.subarray(start, end);
    start = end + 1;
    const first = record.indexOf(0x3a);
    const second = record.indexOf(0x3a, first + 1);
    hits.push({
      path: record.toString('utf8', 2, first),
      line: Number(record.toString('utf8', first + 1, second)),
      text: record
        .toString('utf8', second + 1)
        .replace(/\r$/, '')
        .slice(0, 500),
    });
  }
  return hits.sort(byPathThenLine);
}

/** A tree with the cases where a line search can go wrong. No .gitignore: grep has none. */
function buildTree(root: string): void {
  mkdirSync(join(root, 'src', 'deep', 'er'), { recursive: true });
  mkdirSync(join(root, 'docs'), { recursive: true });
  for (let file = 0; file < 60; file++)
    writeFileSync(
      join(root, 'src', `module-${file}.ts`),
      `import x from 'y';\n${'const other = 1;\n'.repeat(file % 7)}${file % 3 === 0 ? 'const needle = 1; // needle twice\n' : ''}export {};\n`,
    );
  writeFileSync(
    join(root, 'src', 'deep', 'er', 'nested.txt'),
    'needle at the start\nmiddle\nends with needle',
  );
  writeFileSync(join(root, 'docs', 'crlf.md'), 'first\r\nneedle in a CRLF line\r\nneedle\r\nlast\r\n');
  // A NUL in the first block: binary for grep and for fs_grep, though it holds the needle.
  writeFileSync(
    join(root, 'docs', 'image.bin'),
    Buffer.concat([Buffer.from('PNG\0\0\x01needle\n'), Buffer.alloc(64)]),
  );
  // A 200 KB line with the needle in the middle, and one past the reused read buffer's size.
  writeFileSync(
    join(root, 'docs', 'long.txt'),
    `short\n${'x'.repeat(100_000)}needle${'y'.repeat(100_000)}\nneedle\n`,
  );
  writeFileSync(join(root, 'docs', 'huge.txt'), `${'filler line\n'.repeat(30_000)}needle at the end\n`);
  // Latin-1 bytes, invalid UTF-8: shown as U+FFFD on both sides.
  writeFileSync(
    join(root, 'docs', 'latin1.txt'),
    Buffer.concat([
      Buffer.from('caf'),
      Buffer.from([0xe9]),
      Buffer.from(' needle\nna'),
      Buffer.from([0xef, 0xbb]),
      Buffer.from('ve\n'),
    ]),
  );
  writeFileSync(join(root, 'docs', 'utf8.txt'), 'naïve needle ✓\nNEEDLE upper\nneedlework\n');
  writeFileSync(join(root, 'empty.txt'), '');
  writeFileSync(join(root, 'no-newline.txt'), 'needle');
}

async function search(root: string, input: Record<string, unknown>): Promise<Hit[]> {
  const { call } = await workspace(root, tempLedger());
  const record = await call('fs_grep', { maxResults: 5000, ...input });
  const result = record.result as { matches: Hit[]; count: number };
  expect(result.count).toBe(result.matches.length);
  return result.matches;
}

describe('fs_grep finds what grep -rn finds', () => {
  it.each([
    ['a literal word', { pattern: 'needle' }, 'needle', []],
    ['a literal with regex characters', { pattern: 'x = 1;', literal: true }, 'x = 1;', []],
    ['a regex', { pattern: 'ne+dle' }, 'ne+dle', []],
    ['anchored at the start', { pattern: '^needle' }, '^needle', []],
    ['anchored at the end (a CRLF line ends in \\r)', { pattern: 'needle$' }, 'needle$', []],
    ['any byte where the text is not UTF-8', { pattern: 'caf. needle' }, 'caf. needle', []],
    ['case-insensitive', { pattern: 'needle', caseInsensitive: true }, 'needle', ['-i']],
    ['nothing', { pattern: 'absent-from-every-file' }, 'absent-from-every-file', []],
  ])('%s', async (_name, input, grepPattern, flags) => {
    // tempDir is removed after each test: one tree per case (a few ms).
    const root = join(tempDir('tally-grep-parity-'), 'proj');
    mkdirSync(root);
    buildTree(root);
    const expected = grepHits(root, grepPattern, flags as string[]);
    expect(await search(root, input)).toEqual(expected);
    if (grepPattern === 'needle' && flags.length === 0) {
      // The cases the fixture is for are really in the comparison.
      const paths = new Set(expected.map((hit) => hit.path));
      for (const path of [
        'docs/crlf.md',
        'docs/long.txt',
        'docs/huge.txt',
        'docs/latin1.txt',
        'no-newline.txt',
      ])
        expect(paths).toContain(path);
      expect(paths).not.toContain('docs/image.bin');
      expect(expected.length).toBeGreaterThan(30);
    }
  });

  it('a file replaced, grown or deleted during the search is seen whole, before or after, never mixed', async () => {
    const busy = join(tempDir('tally-grep-busy-'), 'proj');
    mkdirSync(join(busy, 'many'), { recursive: true });
    for (let file = 0; file < 3000; file++)
      writeFileSync(join(busy, 'many', `f-${file}.txt`), file % 100 === 0 ? 'needle\n' : 'hay\n');
    const before = 'needle one\nhay\nneedle three\n';
    const after = 'hay\nneedle two\nhay\nhay\nneedle five\n';
    writeFileSync(join(busy, 'replaced.txt'), before);
    writeFileSync(join(busy, 'grown.txt'), 'needle 1\n');
    writeFileSync(join(busy, 'deleted.txt'), 'needle\n');
    const { call } = await workspace(busy, tempLedger());
    let done = false;
    let appended = 1;
    const searching = call('fs_grep', { pattern: 'needle', maxResults: 5000 }).finally(() => {
      done = true;
    });
    // The search runs in a worker: the main thread changes the files meanwhile, the way an
    // editor saves (a new file renamed over the old) and a log grows.
    let round = 0;
    while (!done) {
      const staged = join(busy, `.staged-${round}`);
      writeFileSync(staged, round % 2 === 0 ? after : before);
      renameSync(staged, join(busy, 'replaced.txt'));
      appended += 1;
      appendFileSync(join(busy, 'grown.txt'), `needle ${appended}\n`);
      if (round === 0) rmSync(join(busy, 'deleted.txt'));
      round += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The files really changed while the worker searched.
    expect(round).toBeGreaterThan(2);
    const result = (await searching).result as { matches: Hit[]; count: number };
    const linesOf = (path: string) =>
      result.matches.filter((hit) => hit.path === path).map((hit) => `${hit.line}:${hit.text}`);
    expect([
      ['1:needle one', '3:needle three'],
      ['2:needle two', '5:needle five'],
    ]).toContainEqual(linesOf('replaced.txt'));
    // The file as it stood at one moment: a prefix of the appends, every line whole.
    const grown = linesOf('grown.txt');
    expect(grown.length).toBeGreaterThanOrEqual(1);
    expect(grown.length).toBeLessThanOrEqual(appended);
    expect(grown).toEqual(grown.map((_, index) => `${index + 1}:needle ${index + 1}`));
    expect(linesOf('deleted.txt').length).toBeLessThanOrEqual(1);
    expect(result.matches.filter((hit) => hit.path.startsWith('many/'))).toHaveLength(30);
    expect(result.count).toBe(result.matches.length);
  });

  it('a large tree searched on two threads gives what one thread gives, the cap and the skipped list included', async () => {
    const root = join(tempDir('tally-grep-split-'), 'proj');
    // Over the worker's split threshold (2,000 files), with hits spread over both shares.
    for (let folder = 0; folder < 25; folder++) {
      mkdirSync(join(root, `d-${folder}`), { recursive: true });
      for (let file = 0; file < 100; file++)
        writeFileSync(
          join(root, `d-${folder}`, `f-${file}.txt`),
          (folder * 100 + file) % 13 === 0 ? `hay\nneedle ${folder}-${file}\nneedle again\n` : 'hay\n',
        );
    }
    // More skips than the result lists (20), on both shares: FIFOs are skipped, never opened.
    for (let fifo = 0; fifo < 25; fifo++) execFileSync('mkfifo', [join(root, `d-${fifo}`, 'pipe')]);
    const search = searchRunner();
    const request = (maxResults: number): SearchRequest => ({
      base: root,
      baseRelative: '.',
      pattern: 'needle',
      literal: false,
      caseInsensitive: false,
      maxResults,
    });
    // A worker's first large search runs alone (the helper is started after it answers).
    expect((await search(request(5000))).threads).toBe(1);
    for (const maxResults of [7, 5000]) {
      const oneThread = searchFiles(request(maxResults));
      expect(oneThread.count).toBe(2 * Math.ceil(2500 / 13));
      expect(oneThread).toMatchObject({ filesSearched: 2500, skippedCount: 25 });
      expect(await search(request(maxResults))).toEqual({ ...oneThread, threads: 2 });
    }
  });
});
