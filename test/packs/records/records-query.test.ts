import { appendFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cutAtCharacter, glossOf } from '../../../src/packs/records/gloss.js';
import { tempDir } from '../../helpers.js';
import { corpus, tally } from './records-fixture.js';

const q = (root: string, ...args: string[]) => tally(['records', 'query', '--root', root, ...args]);

describe('tally records query: survey and filters', () => {
  it('--keyword ranks by BM25 over keywords, title and gloss; survey lines are "path — gloss"', async () => {
    const root = corpus();
    const result = await q(root, '--keyword', 'migration lock');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').sort()).toEqual([
      'references/failure-modes/migration-lock.md — A migration took an ACCESS EXCLUSIVE lock during peak traffic and checkout stalled for 9 minutes.',
      'references/procedures/run-a-schema-migration.md — Run a schema migration safely',
    ]);
    // A keyword hit beats a gloss-only hit: "semver" is a keyword of exactly one record.
    expect((await q(root, '--keyword', 'semver version')).stdout.split('\n')[0]).toBe(
      'references/decisions/semantic-versioning.md — Every package follows semantic versioning; breaking changes need a major version.',
    );
    // The index and a plain scan agree.
    for (const terms of ['migration lock', 'database postgres', 'release version', 'retry']) {
      expect((await q(root, '--keyword', terms, '--no-index')).stdout.split('\n').sort(), terms).toEqual(
        (await q(root, '--keyword', terms)).stdout.split('\n').sort(),
      );
    }
  });

  it('--kind, --id, --links-to and --project filter, combined with AND; --limit caps', async () => {
    const root = corpus();
    expect((await q(root, '--kind', 'procedure')).stdout.trim().split('\n')).toHaveLength(3);
    expect((await q(root, '--id', 'DEC-postgres')).stdout).toMatch(
      /^references\/decisions\/use-postgres\.md — We use Postgres 16/,
    );
    expect(
      (await q(root, '--links-to', 'DEC-postgres')).stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' — ')[0]),
    ).toEqual([
      'plans/q4-search.md',
      'references/procedures/rotate-database-credentials.md',
      'references/procedures/run-a-schema-migration.md',
      'references/solutions/retry-idempotent-payments.md',
    ]);
    // exact owner/repo, or just the repo part
    // exact, or by the repo part on either side: project "shop" is acme/shop's repo
    expect((await q(root, '--project', 'acme/shop')).stdout.trim().split('\n')).toHaveLength(3);
    expect((await q(root, '--project', 'shop')).stdout.trim().split('\n')).toHaveLength(3);
    expect((await q(root, '--project', 'acme/payments')).stdout.trim().split('\n')).toHaveLength(1);
    expect(
      (await q(root, '--kind', 'procedure', '--project', 'shop', '--keyword', 'database')).stdout,
    ).toMatch(/^references\/procedures\/rotate-database-credentials\.md/);
    expect((await q(root, '--kind', 'procedure', '--limit', '1')).stdout.trim().split('\n')).toHaveLength(1);
  });

  it('excludes INDEX.md and anything under _archived; reads CRLF files and flow or block lists', async () => {
    const root = corpus();
    const decisions = await q(root, '--kind', 'decision', '--json');
    const rows = JSON.parse(decisions.stdout) as { path: string }[];
    expect(rows.map((row) => row.path)).toEqual([
      'references/decisions/semantic-versioning.md',
      'references/decisions/use-postgres.md',
    ]);
    const crlf = JSON.parse((await q(root, '--id', 'PROC-migrate', '--json')).stdout)[0];
    expect(crlf).toMatchObject({
      title: 'Run a schema migration',
      keywords: ['migration', 'schema', 'lock timeout'],
      links: { 'failure-modes': ['FM-migration-lock'], decisions: ['DEC-postgres'] },
      gloss: 'Run a schema migration safely',
    });
    const block = JSON.parse((await q(root, '--id', 'PROC-rotate-db', '--json')).stdout)[0];
    expect(block.keywords).toEqual(['database', 'credentials', 'rotation', 'postgres']);
  });

  it('an empty result is a real miss: exit 0 with no output', async () => {
    const result = await q(corpus(), '--keyword', 'kubernetes');
    expect(result).toMatchObject({ code: 0, stdout: '' });
  });

  it('glosses are cut at a character boundary, never inside a combined character or an emoji', () => {
    expect(cutAtCharacter('naïve café 🙈 done', 12)).toBe('naïve café 🙈...');
    expect(cutAtCharacter('cafe\u0301s', 4)).toBe('cafe\u0301...');
    expect(glossOf('\n\n## Heading here\nbody')).toBe('Heading here');
    const wide = glossOf(
      'Ｕｎｉｃｏｄｅ wide gloss: retry payment captures with an idempotency key so a timeout never charges twice, even when',
    );
    expect(wide.endsWith('...')).toBe(true);
    expect(wide).not.toContain('\uFFFD');
  });

  it('--full dumps up to 10 records after the survey, then points at --cat', async () => {
    const root = corpus();
    const few = await q(root, '--kind', 'decision', '--full');
    expect(few.stdout).toMatch(
      /— Every package follows semantic versioning.*\n.*use-postgres\.md — .*\n\n==> references\/decisions\/semantic-versioning\.md <==\n---\nid: DEC-semver/,
    );
    for (let index = 0; index < 12; index++) {
      writeFileSync(
        join(root, 'plans', `extra-${index}.md`),
        `---\nid: PLAN-${index}\nkind: plan\ndate: 2026-01-01\nstatus: draft\nkeywords: [bulk]\nlinks: {}\n---\nBulk plan ${index}\n`,
      );
    }
    const many = await q(root, '--keyword', 'bulk', '--full');
    expect(many.stdout.match(/^==> /gm)).toHaveLength(10);
    expect(many.stdout.trim().split('\n').at(-1)).toBe(
      '(12 records matched; dumped the first 10 — dump the rest with --cat PATH…)',
    );
  });

  it('--list-stores shows every store with its count; --json everywhere is machine-readable', async () => {
    const root = corpus();
    const stores = await q(root, '--list-stores');
    expect(stores.stdout).toContain('references/procedures\t3 records');
    expect(stores.stdout).toContain('references/research\t(missing)');
    const json = JSON.parse((await q(root, '--list-stores', '--json')).stdout);
    expect(json.find((store: { store: string }) => store.store === 'plans')).toMatchObject({
      exists: true,
      records: 1,
    });
  });

  it('extra stores come from TALLY_RECORDS_STORES; unsafe names are refused loudly (exit 2)', async () => {
    const root = corpus();
    writeFileSync(join(tempDir(), 'x'), '');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(root, 'notes', 'team'), { recursive: true });
    writeFileSync(
      join(root, 'notes', 'team', 'standup.md'),
      '---\nid: N-1\nkind: note\ndate: 2026-01-01\nstatus: active\nkeywords: [standup]\nlinks: {}\n---\nDaily standup notes\n',
    );
    const extra = await tally(['records', 'query', '--root', root, '--keyword', 'standup'], {
      env: { TALLY_RECORDS_STORES: 'notes/team' },
    });
    expect(extra.stdout).toBe('notes/team/standup.md — Daily standup notes\n');
    for (const bad of ['/etc', '../outside', 'notes/*', '-rf', 'notes/../..']) {
      const refused = await tally(['records', 'query', '--root', root, '--keyword', 'x'], {
        env: { TALLY_RECORDS_STORES: bad },
      });
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr).toContain('TALLY_RECORDS_STORES takes relative directory names');
    }
  });

  it('usage errors exit 2 with a message', async () => {
    const root = corpus();
    expect((await q(root)).code).toBe(2);
    expect((await q(root, '--cat', 'plans/q4-search.md', '--kind', 'plan')).code).toBe(2);
    expect((await q(root, '--limit', 'many', '--kind', 'plan')).code).toBe(2);
    expect((await q(root, '--recall', ' ')).code).toBe(2);
  });

  it('a missing root is exit 3 with a message, for every mode', async () => {
    const missing = join(tempDir(), 'nope');
    for (const args of [
      ['--keyword', 'x'],
      ['--kind', 'plan'],
      ['--cat', 'plans/q4-search.md'],
      ['--recall', 'x'],
      ['--list-stores'],
      ['--id', 'x', '--full'],
    ]) {
      const result = await q(missing, ...args);
      expect(result.code, args.join(' ')).toBe(3);
      expect(result.stderr).toContain(`The records root ${missing} does not exist`);
      expect(result.stdout).toBe('');
    }
    expect((await tally(['records', 'lint', '--root', missing])).code).toBe(3);
  });

  it('the index follows every change: added, removed, renamed and edited-in-place records', async () => {
    const root = corpus();
    expect((await q(root, '--keyword', 'zeppelin')).stdout).toBe('');
    const path = join(root, 'references', 'solutions', 'zeppelin.md');
    writeFileSync(
      path,
      '---\nid: SOL-z\nkind: solution\ndate: 2026-01-01\nstatus: active\nkeywords: [zeppelin]\nlinks: {}\n---\nFly the zeppelin\n',
    );
    expect((await q(root, '--keyword', 'zeppelin')).stdout).toBe(
      'references/solutions/zeppelin.md — Fly the zeppelin\n',
    );
    // In place, same size, same second: only the content (and mtime) differ.
    const before = (await import('node:fs')).statSync(path);
    writeFileSync(
      path,
      '---\nid: SOL-z\nkind: solution\ndate: 2026-01-01\nstatus: active\nkeywords: [airship]\nlinks: {}\n---\nFly the airship!\n',
    );
    utimesSync(path, before.atime, new Date(before.mtimeMs + 1500));
    expect((await q(root, '--keyword', 'zeppelin')).stdout).toBe('');
    expect((await q(root, '--keyword', 'airship')).stdout).toBe(
      'references/solutions/zeppelin.md — Fly the airship!\n',
    );
    (await import('node:fs')).rmSync(path);
    expect((await q(root, '--keyword', 'airship')).stdout).toBe('');
    appendFileSync(join(root, 'plans', 'q4-search.md'), '\nzeppelin appendix\n');
    expect((await q(root, '--no-index', '--keyword', 'search')).stdout).toContain('plans/q4-search.md');
  });

  it('a symlinked record is never part of the queryable set', async () => {
    const root = corpus();
    const outside = join(tempDir(), 'secret.md');
    writeFileSync(
      outside,
      '---\nid: S\nkind: secret\ndate: 2026-01-01\nstatus: x\nkeywords: [secret]\nlinks: {}\n---\nTOP SECRET\n',
    );
    symlinkSync(outside, join(root, 'plans', 'linked.md'));
    expect((await q(root, '--keyword', 'secret')).stdout).toBe('');
  });
});

describe('--recall', () => {
  it('searches the failure log and failure-mode records with whole words; a-b matches the phrase', async () => {
    const root = corpus();
    const result = await q(root, '--recall', 'race-condition');
    expect(result.stdout.split('\n')[0]).toBe('recall: 2 matched');
    expect(result.stdout).toContain('references/failure-modes/migration-lock.md — ');
    expect(result.stdout).toContain(
      'mistakes.jsonl:4 — [concurrency] A race condition between two workers double-charged a card → Use an idempotency key',
    );
    expect(result.stderr).toContain('skipped 1 malformed line in mistakes.jsonl (line 3: not a JSON object)');
    // Whole words: "lock" does not match "locked"/"lock_timeout"-only text by substring.
    const words = await q(root, '--recall', 'loc');
    expect(words.stdout).toBe('recall: 0 matched\n');
  });

  it('ranks by terms matched and caps with a notice', async () => {
    const root = corpus();
    const ranked = await q(root, '--recall', 'migration lock peak', '--limit', '1');
    expect(ranked.stdout.split('\n')).toEqual([
      'recall: 2 matched',
      expect.stringMatching(/^(references\/failure-modes\/migration-lock\.md|mistakes\.jsonl:1) — /),
      '(showing 1 of 2; add terms or raise --limit)',
      '',
    ]);
  });
});

describe('tally records lint', () => {
  it('reports missing keys, empty keywords, duplicate ids and unresolved links; exit 1', async () => {
    const root = corpus();
    writeFileSync(
      join(root, 'plans', 'broken.md'),
      '---\nid: DEC-postgres\nkind: plan\nkeywords: []\nlinks:\n  decisions: [DEC-nope]\n---\nBroken\n',
    );
    writeFileSync(join(root, 'plans', 'no-frontmatter.md'), 'just text\n');
    const result = await tally(['records', 'lint', '--root', root]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'references/decisions/use-postgres.md: duplicate id "DEC-postgres" (also in plans/broken.md)',
    );
    expect(result.stdout).toContain('plans/broken.md: keywords is empty: add at least one');
    expect(result.stdout).toContain('plans/broken.md: missing required key "date"');
    expect(result.stdout).toContain('plans/broken.md: link decisions/DEC-nope does not resolve to a record');
    expect(result.stdout).toContain('plans/no-frontmatter.md: no frontmatter block');
    expect(result.stdout).toContain(
      'plans/q4-search.md: link solutions/SOL-missing does not resolve to a record',
    );
  });
});
