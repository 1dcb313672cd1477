import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintRecords } from '../../src/packs/records/lint-records.js';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import { parseRecord } from '../../src/packs/records/parse-record.js';
import { listStores } from '../../src/packs/records/stores.js';
import { tempDir } from '../helpers.js';
import { LIMIT_MS, runBounded } from '../packs/records/hostile-fixture.js';

const name = fc.constantFrom('a', 'b', 's', 'x1');
const scalar = fc.oneof(
  fc.constantFrom('postgres', '2026-01-01', '~', 'null', '.inf', '0x1F', '1e400', '"quoted"', "'single'", ''),
  fc.string({ maxLength: 12 }).map((text) => JSON.stringify(text)),
);
const tag = fc.constantFrom(
  '',
  '!!str ',
  '!!int ',
  '!!binary ',
  '!!set ',
  '!!map ',
  '!!omap ',
  '!!timestamp ',
  '!custom ',
  '!!seq ',
);

/** YAML values built from anchors, aliases (including into their own anchor), tags, flow and block forms. */
const yamlValue: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    name.map((alias) => `*${alias}`),
    fc.tuple(tag, name, tie('value')).map(([t, anchor, value]) => `${t}&${anchor} ${value}`),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
    fc
      .array(fc.tuple(fc.oneof(name, scalar), tie('value')), { maxLength: 3 })
      .map((pairs) => `{${pairs.map(([key, value]) => `${key}: ${value}`).join(', ')}}`),
    fc.tuple(tag, scalar).map(([t, value]) => `${t}${value}`),
  ),
})).value;

const frontmatterLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        'id',
        'kind',
        'date',
        'status',
        'title',
        'project',
        'keywords',
        'links',
        'self',
        '__proto__',
        '<<',
      ),
      yamlValue,
    )
    .map(([key, value]) => `${key}: ${value}`),
  fc.constantFrom(
    'self: &s [*s]',
    'm: &m {k: *m}',
    '? [a, b]\n: c',
    'links:\n  decisions: &d [*d]',
    '%YAML 1.2',
    '---',
    '...',
  ),
  fc.string({ maxLength: 30 }),
);

const frontmatter = fc
  .tuple(fc.array(frontmatterLine, { maxLength: 6 }), fc.string({ maxLength: 40 }), fc.boolean())
  .map(([lines, body, crlf]) => {
    const text = `---\n${lines.join('\n')}\n---\n${body}`;
    return crlf ? text.replace(/\n/g, '\r\n') : text;
  });

describe('frontmatter, fuzzed in process', () => {
  it('property: any frontmatter parses to JSON-safe fields or a reason, never a throw', () => {
    fc.assert(
      fc.property(frontmatter, (text) => {
        const parsed = parseRecord(text);
        expect(() => JSON.stringify(parsed.fields)).not.toThrow();
        expect(parsed.fields.keywords.every((keyword) => typeof keyword === 'string')).toBe(true);
        if (parsed.unrepresentable !== undefined) expect(parsed.errors.length).toBeGreaterThan(0);
        expect(Object.getPrototypeOf(parsed.fields.extra)).toBe(Object.prototype);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a store of fuzzed records indexes, queries and lints; the well-formed record stays findable', () => {
    fc.assert(
      fc.property(fc.array(frontmatter, { minLength: 1, maxLength: 5 }), fc.boolean(), (texts, noIndex) => {
        const root = tempDir('tally-fuzz-');
        mkdirSync(join(root, 'plans'));
        writeFileSync(
          join(root, 'plans', 'anchor.md'),
          '---\nid: P-anchor\nkind: plan\ndate: 2026-01-01\nstatus: ok\nkeywords: [zebra]\nlinks: {}\n---\nAnchor.\n',
        );
        texts.forEach((text, index) => {
          writeFileSync(join(root, 'plans', `fuzz-${index}.md`), text);
        });
        const stores = listStores(root, {});
        const source = openRecordSource(root, stores, { noIndex, env: {} });
        try {
          expect(source.query({ keyword: 'zebra' }).map((row) => row.path)).toContain('plans/anchor.md');
          source.query({ kind: 'plan' });
          source.recallCandidates();
          const skipped = source.skipped?.() ?? [];
          const problems = lintRecords(
            source.rows(),
            stores.map((store) => store.store),
            skipped,
          );
          for (const record of skipped)
            expect(problems.map((problem) => problem.path)).toContain(record.path);
        } finally {
          source.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('frontmatter, fuzzed through the built CLI (a handful: each spawn costs ~100 ms)', () => {
  it('property: query exits 0 and lint 0 or 1, each within the limit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frontmatter, { minLength: 1, maxLength: 3 }), async (texts) => {
        const root = tempDir('tally-fuzz-');
        mkdirSync(join(root, 'plans'));
        texts.forEach((text, index) => {
          writeFileSync(join(root, 'plans', `fuzz-${index}.md`), text);
        });
        const run = await runBounded(['records', 'query', '--root', root, '--kind', 'plan', '--json']);
        expect(run.signal).toBeNull();
        expect(run.code, run.stderr).toBe(0);
        expect(run.ms).toBeLessThan(LIMIT_MS);
        const lint = await runBounded(['records', 'lint', '--root', root]);
        expect([0, 1], lint.stderr).toContain(lint.code);
        expect(lint.ms).toBeLessThan(LIMIT_MS);
      }),
      { numRuns: 4 },
    );
  }, 120_000);
});
