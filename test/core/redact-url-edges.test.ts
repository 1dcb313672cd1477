import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../src/core/redact.js';

// Issue 19, item 5, edge by edge (mutation testing of the URL-aware redaction, acceptance 3):
// the URL keeps every byte that is not a secret, and every secret it held is remembered.
describe('URL-aware redaction, edge by edge', () => {
  it.each([
    // Whitespace around the URL is kept where it stood.
    ['  http://h/x?token=abcdefgh \n', `  http://h/x?token=${REDACTED} \n`],
    ['   http://h/x?token=abcdefgh\n', `   http://h/x?token=${REDACTED}\n`],
    // A pair without `=` whose name holds a secret word is not a value; a value that is a secret word is not a name.
    ['/x?tokenZ&a=1', '/x?tokenZ&a=1'],
    ['/x?kind=token&y=1', '/x?kind=token&y=1'],
    // An empty user with a password: the password still goes.
    ['http://:secretpw1@h/x?y=1', 'http://@h/x?y=1'],
    // Scheme and parameter names in any case.
    ['HTTPS://h/x?Token=abcdefgh', `HTTPS://h/x?Token=${REDACTED}`],
    // A parameter name percent-encoded is read decoded.
    ['/x?api%5Fkey=abcdefgh', `/x?api%5Fkey=${REDACTED}`],
    // A pair without `=`, an empty value and an already redacted one stay as they are.
    ['/x?flag&token=abcdefgh', `/x?flag&token=${REDACTED}`],
    ['/x?token=&a=1', '/x?token=&a=1'],
    [`/x?token=${REDACTED}&a=1`, `/x?token=${REDACTED}&a=1`],
    // A fragment without `=` is kept; one with pairs is read like a query.
    ['http://h/x?token=abcdefgh#section', `http://h/x?token=${REDACTED}#section`],
    ['http://h/x#frag', 'http://h/x#frag'],
    ['http://h/x#a=1&id_token=abcdefgh', `http://h/x#a=1&id_token=${REDACTED}`],
    // A `?` after the `#` belongs to the fragment.
    ['http://h/x#s?token=abcdefgh', `http://h/x#s?token=${REDACTED}`],
    // An `@` in the path is not userinfo.
    ['http://h/@user?token=abcdefgh', `http://h/@user?token=${REDACTED}`],
    // Userinfo: a user alone stays; an empty password is dropped with its colon.
    ['http://user@h/x?y=1', 'http://user@h/x?y=1'],
    ['http://user:@h/x?y=1', 'http://user@h/x?y=1'],
    ['ftp://u:pass-word-9@h/f', 'ftp://u@h/f'],
    // Not a URL: text with spaces, and a path-less host reference, are scrubbed as text.
    ['what? a=1', 'what? a=1'],
  ])('%j → %j', (input, output) => {
    expect(createRedactor().redact(input)).toBe(output);
  });

  it('remembers a query value decoded and as sent, `+` as a space and broken escapes as they stand', () => {
    const redactor = createRedactor();
    expect(redactor.redact('/x?token=a+b%2Bcdefg&y=1')).toBe(`/x?token=${REDACTED}&y=1`);
    expect(redactor.redact('echo a b+cdefg')).toBe(`echo ${REDACTED}`);
    expect(redactor.redact('echo a+b%2Bcdefg')).toBe(`echo ${REDACTED}`);
    expect(redactor.redact('/x?secret=%ZZabcdef')).toBe(`/x?secret=${REDACTED}`);
    expect(redactor.redact('was %ZZabcdef')).toBe(`was ${REDACTED}`);
  });

  it('remembers a userinfo password decoded and as written', () => {
    const redactor = createRedactor();
    expect(redactor.redact('http://u:p%40ssword1@h/')).toBe('http://u@h/');
    expect(redactor.redact('p@ssword1 / p%40ssword1')).toBe(`${REDACTED} / ${REDACTED}`);
  });

  it('scrubs known secrets in the rest of the URL (path, other values)', () => {
    const redactor = createRedactor({ knownSecrets: ['sekrit-path-value'] });
    expect(redactor.redact('http://h/sekrit-path-value?page=2')).toBe(`http://h/${REDACTED}?page=2`);
    expect(redactor.redact('http://h/a?next=sekrit-path-value#x')).toBe(`http://h/a?next=${REDACTED}#x`);
  });

  it('a URL with `=` in its path and no query stays a URL (was percent-encoded as a form body)', () => {
    const redactor = createRedactor({ knownSecrets: ['sekrit-path-value'] });
    expect(redactor.redact('http://h/sekrit-path-value/token=1')).toBe(`http://h/${REDACTED}/token=1`);
  });
});

describe('redaction beyond URLs (mutation testing, acceptance 3)', () => {
  it('extra secret names are matched whatever their case', () => {
    const redactor = createRedactor({ secretNames: ['Favourite-Colour'] });
    expect(
      redactor.redact({ 'favourite-colour': 'teal-blue', FAVOURITE_COLOUR: 'x', other: 'teal' }),
    ).toEqual({
      'favourite-colour': REDACTED,
      FAVOURITE_COLOUR: 'x',
      other: 'teal',
    });
    expect(createRedactor().redact({ 'favourite-colour': 'teal-blue' })).toEqual({
      'favourite-colour': 'teal-blue',
    });
  });

  it('JSON text in an array is parsed and redacted field by field', () => {
    expect(createRedactor().redact('[{"password":"hunter22x"}]')).toBe(`[{"password":"${REDACTED}"}]`);
  });

  it('a known secret is learned by its value part: `=value` and a trailing word that only looks like a cookie attribute', () => {
    const redactor = createRedactor({ knownSecrets: ['=abcdefgh12', 'sid=abcdefgh34; HttpOnlyX'] });
    expect(redactor.redact('a abcdefgh12 b abcdefgh34 c HttpOnlyX')).toBe(
      `a ${REDACTED} b ${REDACTED} c ${REDACTED}`,
    );
  });

  it('nesting is cut exactly past 200 levels, strings and containers alike', () => {
    const nest = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : [nest(depth - 1, leaf)]);
    const redactor = createRedactor();
    const kept = nest(200, 'x');
    expect(redactor.redact(kept)).toBe(kept);
    expect(redactor.redact(nest(201, 'x'))).toEqual(nest(201, '[too deeply nested]'));
    expect(redactor.redact(nest(202, 'x'))).toEqual(nest(201, '[too deeply nested]'));
    expect(redactor.redact(nest(200, []))).toEqual(nest(200, []));
  });
});
