import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fastFrontmatter, TYPED, typed } from '../../../src/packs/records/fast-frontmatter.js';
import { parseRecord } from '../../../src/packs/records/parse-record.js';

// Tokens chosen to sit on every edge of the fast path: core-schema numbers, booleans and
// nulls, indicators, quotes, comments, colons, brackets, odd keys.
const word = fc.constantFrom(
  'postgres',
  '2026-01-01',
  'acme/shop',
  'DEC-1',
  'a.b',
  'x_y',
  '(1)',
  'v1.2.3',
  '12',
  '-3',
  '+4',
  '0x1F',
  '0o17',
  '1e3',
  '.5',
  '1.',
  '.inf',
  '.NaN',
  'true',
  'False',
  'NULL',
  'null',
  '~',
  'yes',
  'no',
  'on',
  '#c',
  'a #c',
  'a#b',
  'a: b',
  'a:b',
  '"q"',
  "'s'",
  '[x]',
  '{y}',
  '&anchor',
  '*alias',
  '!tag',
  '@at',
  '`tick`',
  '%pct',
  '|',
  '>',
  '-',
  '? q',
  'a  b',
  ' lead',
  'trail ',
  'é',
  '',
  ',',
);
const key = fc.constantFrom(
  'id',
  'kind',
  'date',
  'title',
  'keywords',
  'links',
  'x-y',
  '__proto__',
  '1',
  'true',
  'a b',
  '<<',
  ' id',
  'id ',
);
const value = fc.oneof(
  fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
  fc.array(word, { maxLength: 4 }).map((words) => `[${words.join(', ')}]`),
  fc
    .array(fc.tuple(key, fc.array(word, { maxLength: 3 })), { maxLength: 3 })
    .map((pairs) => `{ ${pairs.map(([name, ids]) => `${name}: [${ids.join(', ')}]`).join(', ')} }`),
  fc.constantFrom('[a, b,]', '{ a: [x], }', '{a: [x]}', '{ a:[x] }', '[ ]', '{}', '[a,b]', '[a , b]'),
);
// Mostly what the fast path accepts, with a few typed values: so it is exercised, not skipped.
const nearlySafe = fc.constantFrom(
  'postgres',
  '2026-01-01',
  'acme/shop',
  'DEC-1',
  'v1.2',
  'x_y',
  '(1)',
  '12',
  'true',
  '~',
  '1.',
  'a  b',
);
const nearlySafeText = fc
  .array(
    fc.tuple(
      fc.constantFrom('id', 'title', 'keywords', 'links', 'x-y', '__proto__'),
      fc.oneof(
        fc.array(nearlySafe, { minLength: 1, maxLength: 2 }).map((words) => words.join(' ')),
        fc.array(nearlySafe, { maxLength: 3 }).map((words) => `[${words.join(', ')}]`),
        fc
          .array(
            fc.tuple(fc.constantFrom('procedures', 'decisions', '1'), fc.array(nearlySafe, { maxLength: 2 })),
            { maxLength: 2 },
          )
          .map((pairs) => `{ ${pairs.map(([name, ids]) => `${name}: [${ids.join(', ')}]`).join(', ')} }`),
      ),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((lines) => lines.map(([name, text]) => `${name}: ${text}`).join('\n'));
const hostileText = fc
  .array(fc.tuple(key, fc.constantFrom(': ', ':  ', ':', ' : '), value), { minLength: 1, maxLength: 6 })
  .map((lines) => lines.map(([name, colon, text]) => `${name}${colon}${text}`).join('\n'));

const yamlOrError = (text: string): unknown => {
  try {
    return { value: parse(text, { logLevel: 'error' }) };
  } catch (error) {
    return { error: (error as Error).name };
  }
};

describe('the fast frontmatter path', () => {
  it('property: whatever it accepts, it reads exactly as the YAML parser does', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(hostileText, nearlySafeText), (text) => {
        const fast = fastFrontmatter(text);
        if (fast === undefined) return;
        accepted += 1;
        expect(yamlOrError(text), text).toEqual({ value: fast });
      }),
      { numRuns: 5000 },
    );
    // The generator must exercise the fast path, not only the fallback.
    expect(accepted).toBeGreaterThan(100);
  });

  it('reads the common record shape and leaves everything else to the parser', () => {
    expect(
      fastFrontmatter(
        'id: fm.x-1\nkind: failure-mode\ndate: 2026-01-10\nkeywords: [lock, schema migration]\nlinks: { procedures: [proc.a], decisions: [] }\nstatus: active',
      ),
    ).toEqual({
      id: 'fm.x-1',
      kind: 'failure-mode',
      date: '2026-01-10',
      keywords: ['lock', 'schema migration'],
      links: { procedures: ['proc.a'], decisions: [] },
      status: 'active',
    });
    for (const text of [
      'id: 12',
      'keywords:\n  - a',
      'title: "quoted"',
      'id: a # note',
      'a: &x [1]',
      'id: a\nid: b',
      '__proto__: x',
    ])
      expect(fastFrontmatter(text), text).toBeUndefined();
    // Through parseRecord, a typed value still comes out as the parser reads it.
    expect(parseRecord('---\nid: 12\nkeywords: [a]\n---\nbody\n').fields.id).toBe('12');
  });
});

describe('the fast path refactors (issue 22: one typed-value pattern, no copies for plain text)', () => {
  it('leaves every core-schema typed form to the parser, as a value and as a key, and keeps near misses', () => {
    const typed = [
      '~',
      'null',
      'Null',
      'NULL',
      'true',
      'TRUE',
      'False',
      '12',
      '-3',
      '+4',
      '0o17',
      '0x1F',
    ].concat([
      '.inf',
      '-.Inf',
      '+.INF',
      '.nan',
      '.NaN',
      '.NAN',
      '1e3',
      '-.5E-2',
      '2.E+1',
      '.5',
      '1.',
      '-1.5',
    ]);
    for (const text of typed) {
      expect(fastFrontmatter(`id: ${text}`), text).toBeUndefined();
      expect(fastFrontmatter(`keywords: [a, ${text}]`), text).toBeUndefined();
      if (/^[A-Za-z_]/.test(text)) expect(fastFrontmatter(`${text}: x`), text).toBeUndefined();
    }
    // Strings that only start or end like a typed value stay on the fast path, as strings.
    for (const text of ['nullx', 'truex', '12a', '0o8', '0xG', '1e', '1.2.3', 'inf', 'e3', 'x12'])
      expect(fastFrontmatter(`id: ${text}`), text).toEqual({ id: text });
  });

  it('reads a record with a byte-order mark and CR or CRLF line ends as the same record without them', () => {
    const plain = '---\nid: a\nkeywords: [x, y]\ntitle: T\n---\n# Heading\r\n\nbody\n';
    const lf = parseRecord(plain.replace('\r\n', '\n'));
    expect(parseRecord(`\uFEFF${plain}`)).toEqual(lf);
    expect(parseRecord(`\uFEFF${plain.replace(/\r?\n/g, '\r\n')}`)).toEqual(lf);
    expect(parseRecord(plain.replace(/\r?\n/g, '\r'))).toEqual(lf);
    // Only a leading mark is removed; one inside the text stays.
    expect(parseRecord(`${plain}\uFEFF`).body).toBe('# Heading\n\nbody\n\uFEFF');
  });

  it('property: the first-character short cut answers exactly as the typed-value pattern', () => {
    // Every first character a typed form can have, and the letters and signs around them.
    const first = fc.constantFrom(...'~.+-_(/0129nNtTfFaAzZmMoOeEiIxX'.split(''), '');
    const rest = fc.string({
      maxLength: 6,
      unit: fc.constantFrom(...'0123456789.eExXoOaAnNlLuUrRsSfFtTiI+-_'.split('')),
    });
    fc.assert(
      fc.property(first, rest, (head, tail) => {
        const text = `${head}${tail}`;
        expect(typed(text), text).toBe(TYPED.test(text));
      }),
      { numRuns: 20_000 },
    );
    for (const text of ['', 'null', 'Null', 'NULL', 'true', 'TRUE', 'False', 'FALSE', 'nan', 'n', 't', 'f'])
      expect(typed(text), text).toBe(TYPED.test(text));
  });
});
