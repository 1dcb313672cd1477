import { execFileSync } from 'node:child_process';
import { cpSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import { listStores } from '../../src/packs/records/stores.js';
import { recordsTools } from '../../src/packs/records/tools/records-tools.js';
import { tempDir } from '../helpers.js';
import { LIMIT_MS, mkfifo, runBounded } from '../packs/records/hostile-fixture.js';
import { corpus } from '../packs/records/records-fixture.js';

const query = (root: string, ...args: string[]) => runBounded(['records', 'query', '--root', root, ...args]);
const GOOD = 'references/decisions/use-postgres.md';

const SELF_ALIAS = '---\nid: DEC-self\nkind: decision\nself: &s [*s]\nkeywords: [postgres]\n---\nLooping.\n';
const LAUGHS = `---\nid: DEC-lol\nkind: decision\nkeywords: [postgres]\na: &a [x,x,x,x,x,x,x,x,x]\n${'bcdefghi'
  .split('')
  .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[index]}`).join(',')}]`)
  .join('\n')}\n---\nLaughing.\n`;

describe('a record whose frontmatter cannot be represented', () => {
  for (const noIndex of [false, true]) {
    it(`a self-referencing alias is skipped by queries, the others still found${noIndex ? ' (--no-index)' : ''}`, async () => {
      const root = corpus();
      writeFileSync(join(root, 'references', 'decisions', 'self.md'), SELF_ALIAS);
      const flags = noIndex ? ['--no-index'] : [];
      const run = await query(root, '--keyword', 'postgres', ...flags);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(GOOD);
      expect(run.stdout).not.toContain('self.md');
      const json = await query(root, '--kind', 'decision', '--json', ...flags);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout).map((row: { path: string }) => row.path)).toContain(GOOD);
      const refused = await query(root, '--cat', 'references/decisions/self.md', ...flags);
      expect(refused.code).toBe(2);
    });
  }

  it('lint reports it with its path and why, and still lints the rest', async () => {
    const root = corpus();
    writeFileSync(join(root, 'references', 'decisions', 'self.md'), SELF_ALIAS);
    const run = await runBounded(['records', 'lint', '--root', root]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^references\/decisions\/self\.md: frontmatter cannot be represented as data: a self-referencing alias at self\[0\]/m,
    );
    expect(run.stdout).toMatch(/plans\/q4-search\.md: link solutions\/SOL-missing does not resolve/);
  });

  it('an alias bomb (billion laughs) is refused by the parser in bounded time and reported by lint', async () => {
    const root = corpus();
    writeFileSync(join(root, 'references', 'decisions', 'lol.md'), LAUGHS);
    const run = await query(root, '--keyword', 'postgres');
    expect(run.code, run.stderr).toBe(0);
    expect(run.ms).toBeLessThan(LIMIT_MS);
    expect(run.stdout).toContain(GOOD);
    const lint = await runBounded(['records', 'lint', '--root', root]);
    expect(lint.stdout).toMatch(/lol\.md: frontmatter is not valid YAML: Excessive alias count/);
  });
});

describe('record names and first lines that would forge or drive the output', () => {
  const FORGED = 'a\nfake.md — forged gloss.md';
  const store = (root: string) => join(root, 'references', 'decisions');
  const record = (id: string, body: string) =>
    `---\nid: ${id}\nkind: decision\ndate: 2024-01-01\nkeywords: [postgres]\nlinks: {}\nstatus: active\n---\n${body}\n`;

  for (const noIndex of [false, true]) {
    it(`a path holding a newline is no record; a gloss's controls are shown, not obeyed${noIndex ? ' (--no-index)' : ''}`, async () => {
      const root = corpus();
      writeFileSync(join(store(root), FORGED), record('DEC-forged', 'Forged postgres note.'));
      writeFileSync(
        join(store(root), 'title.md'),
        record('DEC-title', '\u001b]0;pwned\u0007\u001b[2J postgres note'),
      );
      const run = await query(root, '--keyword', 'postgres', ...(noIndex ? ['--no-index'] : []));
      expect(run.code, run.stderr).toBe(0);
      // Every line is one record's `path — gloss`: none starts with the forged name's second part.
      for (const line of run.stdout.trimEnd().split('\n'))
        expect(line).toMatch(/^(references|plans)\/\S+\.md — /);
      expect(run.stdout).not.toContain('fake.md');
      expect(run.stdout).toContain(GOOD);
      expect(run.stdout).not.toContain('\u001b');
      expect(run.stdout).toContain('references/decisions/title.md — ␛]0;pwned␇␛[2J postgres note');
    });
  }

  it('lint names the path on one line, controls made visible, and says to rename it', async () => {
    const root = corpus();
    writeFileSync(join(store(root), FORGED), record('DEC-forged', 'Forged.'));
    const run = await runBounded(['records', 'lint', '--root', root]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'references/decisions/a␊fake.md — forged gloss.md: its path holds a control character (U+000A)',
    );
    expect(run.stdout).toContain('Rename the file');
  });
});

describe('--keyword with nothing to search for', () => {
  it.each([[''], ['   '], ['!!! ... ???'], ['—']])(
    '--keyword %j exits 2 with a usage message',
    async (keyword) => {
      const run = await query(corpus(), '--keyword', keyword);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/--keyword .* has no word to search for .* Pass terms, e\.g\. --keyword/);
    },
  );
});

describe('special files inside a store', () => {
  for (const noIndex of [false, true]) {
    it(`a FIFO named like a record is skipped, never opened blocking${noIndex ? ' (--no-index)' : ''}`, async () => {
      const root = corpus();
      await mkfifo(join(root, 'plans', 'pipe.md'));
      const flags = noIndex ? ['--no-index'] : [];
      const run = await query(root, '--kind', 'plan', ...flags);
      expect(run).toMatchObject({ code: 0, signal: null });
      expect(run.stdout).not.toContain('pipe.md');
      const cat = await query(root, '--cat', 'plans/pipe.md', ...flags);
      expect(cat).toMatchObject({ code: 2, stdout: '' });
    });
  }

  it('a FIFO mistakes.jsonl does not block --recall', async () => {
    const root = corpus();
    rmSync(join(root, 'mistakes.jsonl'));
    await mkfifo(join(root, 'mistakes.jsonl'));
    const run = await query(root, '--recall', 'migration');
    expect(run).toMatchObject({ code: 0, signal: null });
    expect(run.stdout).toMatch(/^recall: \d+ matched/);
  });

  it('a character device named like a record is skipped', async (context) => {
    const root = corpus();
    try {
      execFileSync('mknod', [join(root, 'plans', 'zero.md'), 'c', '1', '5'], { stdio: 'ignore' });
    } catch (error) {
      context.skip(`mknod is not permitted here (${(error as Error).message.split('\n')[0]})`);
    }
    const run = await query(root, '--kind', 'plan');
    expect(run).toMatchObject({ code: 0, signal: null });
    expect(run.stdout).not.toContain('zero.md');
  });
});

describe('records_cat (the MCP and agent path) re-checks at read time', () => {
  const context = { runId: 'r', failOpen: () => {} };
  const catTool = (root: string) => {
    const source = openRecordSource(root, listStores(root));
    const tool = recordsTools({ root, source }).find((candidate) => candidate.name === 'records_cat');
    if (!tool) throw new Error('records_cat is missing');
    return { tool, source };
  };

  it('reads a record with a read effect per record (the verification model)', async () => {
    const root = corpus();
    const { tool, source } = catTool(root);
    const outcome = await tool.execute({ paths: [GOOD] }, context);
    source.close();
    expect(outcome.evidence?.effects).toEqual([
      expect.objectContaining({ kind: 'read', space: 'record', key: GOOD, type: 'record' }),
    ]);
  });

  it('refuses a record replaced by a symlink after the source was opened', async () => {
    const root = corpus();
    const { tool, source } = catTool(root);
    const outside = join(tempDir(), 'secret.md');
    writeFileSync(outside, 'TOP SECRET OUTSIDE\n');
    rmSync(join(root, GOOD));
    symlinkSync(outside, join(root, GOOD));
    await expect(tool.execute({ paths: [GOOD] }, context)).rejects.toMatchObject({
      code: 'CAT_REFUSED',
      message: expect.stringContaining('is now a symbolic link'),
    });
    source.close();
  });

  it('refuses a record whose store folder was replaced by a symlink out of the root', async () => {
    const root = corpus();
    const { tool, source } = catTool(root);
    const elsewhere = join(tempDir(), 'decisions');
    cpSync(join(root, 'references', 'decisions'), elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, 'use-postgres.md'), 'TOP SECRET OUTSIDE\n');
    renameSync(join(root, 'references', 'decisions'), join(root, 'references', 'decisions-old'));
    symlinkSync(elsewhere, join(root, 'references', 'decisions'));
    await expect(tool.execute({ paths: [GOOD] }, context)).rejects.toMatchObject({
      code: 'CAT_REFUSED',
      message: expect.stringContaining('is now behind a symbolic link'),
    });
    source.close();
  });

  it('refuses a record replaced by a FIFO after the source was opened, without blocking', async () => {
    const root = corpus();
    const { tool, source } = catTool(root);
    rmSync(join(root, GOOD));
    await mkfifo(join(root, GOOD));
    await expect(tool.execute({ paths: [GOOD] }, context)).rejects.toMatchObject({
      message: expect.stringContaining('is now a FIFO'),
    });
    source.close();
  });
});

describe('the index folder', () => {
  it('a symlinked .tally is not written through: the index lives in the cache folder (issue 12)', async () => {
    const root = corpus();
    const target = tempDir('tally-victim-');
    symlinkSync(target, join(root, '.tally'));
    const run = await query(root, '--keyword', 'postgres');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(GOOD);
    expect(execFileSync('ls', ['-A', target]).toString()).toBe('');
  });

  it('a root of /proc answers in bounded time (no mkdir -p there)', async () => {
    const run = await query('/proc', '--keyword', 'anything');
    expect(run.signal).toBeNull();
    expect([0, 3]).toContain(run.code);
  });
});
