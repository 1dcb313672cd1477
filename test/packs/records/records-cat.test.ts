import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCatPaths } from '../../../src/packs/records/cat-records.js';
import { parseRecord } from '../../../src/packs/records/parse-record.js';
import { RecordsUsageError } from '../../../src/packs/records/records-error.js';
import { tempDir } from '../../helpers.js';
import { corpus, tally } from './records-fixture.js';

const cat = (root: string, ...paths: string[]) =>
  tally(['records', 'query', '--root', root, '--cat', ...paths]);
const GOOD = 'references/decisions/use-postgres.md';

describe('--cat', () => {
  it('dumps each record as "==> path <==" then the file verbatim, deduplicated, in the caller’s order, uncapped', async () => {
    const root = corpus();
    const result = await cat(root, 'plans/q4-search.md', `./${GOOD}`, join(root, GOOD), 'plans/q4-search.md');
    expect(result.code).toBe(0);
    expect(result.stdout.match(/^==> .* <==$/gm)).toEqual(['==> plans/q4-search.md <==', `==> ${GOOD} <==`]);
    expect(result.stdout).toContain('---\nid: PLAN-q4-search\nkind: plan');
    const crlf = await cat(root, 'references/procedures/run-a-schema-migration.md');
    expect(crlf.stdout).toContain('---\r\nid: PROC-migrate\r\n');
  });

  const outsideSetup = (root: string) => {
    const outside = join(tempDir(), 'outside.md');
    writeFileSync(outside, '---\nid: X\n---\nTOP SECRET OUTSIDE\n');
    symlinkSync(outside, join(root, 'plans', 'link-out.md'));
    mkdirSync(join(root, '..', 'corpus-evil', 'plans'), { recursive: true });
    writeFileSync(join(root, '..', 'corpus-evil', 'plans', 'x.md'), 'TOP SECRET SIBLING\n');
    return outside;
  };

  const hostile: [string, (root: string, outside: string) => string[]][] = [
    ['traversal', () => ['../corpus-evil/plans/x.md']],
    ['deep traversal', () => ['plans/../../../../etc/passwd']],
    ['absolute outside root', () => ['/etc/passwd']],
    ['absolute outside file', (_root, outside) => [outside]],
    ['sibling prefix dir', (root) => [`${root}-evil/plans/x.md`]],
    ['symlinked file pointing outside', () => ['plans/link-out.md']],
    ['archived path', () => ['references/decisions/_archived/use-mysql.md']],
    ['INDEX.md', () => ['references/decisions/INDEX.md']],
    ['missing file', () => ['plans/nope.md']],
    ['empty argument', () => ['']],
    ['glob characters', () => ['plans/*.md']],
    ['dash-leading name', () => ['-plans.md']],
    ['a newline-smuggled second path', () => [`${GOOD}\n/etc/passwd`]],
    ['a good path then a bad one', () => [GOOD, '../corpus-evil/plans/x.md']],
    ['a non-record file in a store', () => ['mistakes.jsonl']],
  ];

  for (const [name, paths] of hostile) {
    it(`refuses the whole batch with exit 2 and prints no record: ${name}`, async () => {
      const root = corpus();
      const outside = outsideSetup(root);
      const result = await cat(root, GOOD, ...paths(root, outside));
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/--cat refused|unknown option|error: /);
    });
  }

  it('property: checking never accepts a path outside the allowed set, whatever the input', () => {
    const allowed = new Set([GOOD, 'plans/q4-search.md']);
    const piece = fc.oneof(
      fc.constantFrom(
        GOOD,
        'plans/q4-search.md',
        './',
        '../',
        '/',
        '\n',
        '\r\n',
        '*',
        '-',
        '\0',
        '_archived/',
      ),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 4 }).map((parts) => parts.join('')),
          { minLength: 1, maxLength: 4 },
        ),
        (args) => {
          try {
            const accepted = checkCatPaths('/root', args, allowed);
            return accepted.every((path) => allowed.has(path));
          } catch (error) {
            return error instanceof RecordsUsageError;
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('frontmatter parsing, fuzzed', () => {
  it('property: any text parses to fields or reasons, never a crash', () => {
    const yamlish = fc.oneof(
      fc.string(),
      fc.constantFrom(
        'id: [',
        'keywords: {a: b}',
        'links: [1, 2]',
        'date: 2026-01-01',
        'title: "unterminated',
        '? complex\n: key',
        '*alias',
        '&anchor x',
        'links:\n  a: [b]',
        'keywords: a, b, c',
      ),
    );
    fc.assert(
      fc.property(fc.array(yamlish, { maxLength: 6 }), fc.string(), fc.boolean(), (lines, body, crlf) => {
        let text = `---\n${lines.join('\n')}\n---\n${body}`;
        if (crlf) text = text.replace(/\n/g, '\r\n');
        const parsed = parseRecord(text);
        return (
          Array.isArray(parsed.fields.keywords) &&
          typeof parsed.fields.links === 'object' &&
          parsed.fields.keywords.every((keyword) => typeof keyword === 'string')
        );
      }),
      { numRuns: 1000 },
    );
  });
});
