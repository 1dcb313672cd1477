import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretName, MIN_KNOWN_SECRET_LENGTH, REDACTED } from '../../src/core/redact.js';

describe('which names are secret', () => {
  it('every secret word makes a name secret on its own or inside a longer name', () => {
    for (const name of [
      'passwd',
      'pwd',
      'passphrase',
      'secret',
      'token',
      'apikey',
      'credential',
      'credentials',
      'authorizationHeader',
      'sessionCookie',
      'csrf',
      'xsrf',
      'sessionid',
      'privateKey',
      'private_key',
      'sessionId',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
  });

  it('every camelCase break splits words, digits included', () => {
    expect(isSecretName('myDbPassword')).toBe(true);
    expect(isSecretName('db2Password')).toBe(true);
    expect(isSecretName('MY_DB_PASSWORD')).toBe(true);
    // Without the splits these would be one unknown word.
    expect(isSecretName('userApiKey')).toBe(true);
  });

  it('a name ending in a descriptive word names something about a secret, not the secret', () => {
    for (const name of [
      'secret_id',
      'tokenIds',
      'token_uuid',
      'secretGuid',
      'token_type',
      'secretKind',
      'token_count',
      'password_changed_at',
      'passwordLength',
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it('separators around a name do not change what it names', () => {
    expect(isSecretName('_token_type_')).toBe(false);
    expect(isSecretName('-api-key-id-')).toBe(false);
    expect(isSecretName('__password__')).toBe(true);
    expect(isSecretName('')).toBe(false);
    expect(isSecretName('---')).toBe(false);
  });
});

describe('bearer-style credentials in text', () => {
  it('scrubs Bearer, Basic and Token credentials, every occurrence, whatever the spacing', () => {
    const redactor = createRedactor();
    expect(redactor.redactText('a Basic dXNlcjpwYXNz b')).toBe(`a Basic ${REDACTED} b`);
    expect(redactor.redactText('Token abcdef1234 then Bearer zyx987654')).toBe(
      `Token ${REDACTED} then Bearer ${REDACTED}`,
    );
    expect(redactor.redactText('Bearer   abc.d_e~f+g/h=i-j')).toBe(`Bearer ${REDACTED}`);
  });

  it('leaves short values and words that merely end in a scheme name alone', () => {
    const redactor = createRedactor();
    expect(redactor.redactText('Bearer abc')).toBe('Bearer abc');
    expect(redactor.redactText('myToken abcdefgh12')).toBe('myToken abcdefgh12');
    expect(redactor.redactText('Bearer: abcdefgh12')).toBe('Bearer: abcdefgh12');
  });
});

describe('values under secret names', () => {
  it('masks every kind of value, keeps null and undefined, and remembers string elements', () => {
    const redactor = createRedactor();
    const out = redactor.redact({
      password: ['abcdefgh-1', 42],
      token: null,
      secret: undefined,
      apiKey: 123456789,
      cookie: { nested: 'x' },
      note: 'later abcdefgh-1',
    });
    expect(out).toEqual({
      password: [REDACTED, REDACTED],
      token: null,
      secret: undefined,
      apiKey: REDACTED,
      cookie: REDACTED,
      note: `later ${REDACTED}`,
    });
    expect(redactor.redactText('echo abcdefgh-1')).toBe(`echo ${REDACTED}`);
  });

  it('a HAR-style pair is masked only when its name is secret', () => {
    const redactor = createRedactor();
    expect(redactor.redact({ name: 'X-Api-Key', value: 'k-123456789' })).toEqual({
      name: 'X-Api-Key',
      value: REDACTED,
    });
    expect(redactor.redactText('k-123456789')).toBe(REDACTED);
    const plain = { name: 'Accept', value: 'text/html' };
    expect(redactor.redact(plain)).toBe(plain);
  });

  it('remembers the value part of a cookie or an authorization header, not its attributes', () => {
    const redactor = createRedactor();
    redactor.redact({
      'set-cookie': 'sid=abc123; HttpOnly; Secure; SameSite=Strict; Max-Age; Expires; Domain; httponly',
      authorization: 'Bearer tokvalue123 ',
      cookie: 'a=SecureToken1; b=TokenSecure; c=spaced-value1 ',
    });
    expect(redactor.redactText('id abc123,')).toBe(`id ${REDACTED},`);
    expect(redactor.redactText('tokvalue123')).toBe(REDACTED);
    expect(redactor.redactText('SecureToken1 TokenSecure spaced-value1.')).toBe(
      `${REDACTED} ${REDACTED} ${REDACTED}.`,
    );
    const attributes = 'HttpOnly Secure SameSite Strict Max-Age Expires Domain httponly';
    expect(redactor.redactText(attributes)).toBe(attributes);
  });

  it('keeps equal secrets comparable with a six-character hash', () => {
    const out = createRedactor({ hashSecrets: true }).redact({ token: 'same-secret' });
    const hash = createHash('sha256').update('same-secret').digest('hex').slice(0, 6);
    expect(out.token).toBe(`[redacted:${hash}]`);
  });
});

describe('known secrets', () => {
  it('a value of exactly the minimum length is remembered; a shorter one, or a non-string, is not', () => {
    expect(MIN_KNOWN_SECRET_LENGTH).toBe(6);
    const redactor = createRedactor();
    redactor.remember('abcdef');
    redactor.remember('abcde');
    redactor.remember(12345678 as unknown as string);
    expect(redactor.redactText('abcdef abcde 12345678')).toBe(`${REDACTED} abcde 12345678`);
  });

  it('remembers the value part of a known cookie too', () => {
    const redactor = createRedactor({ knownSecrets: ['sid=sessvalue9'] });
    expect(redactor.redactText('got sessvalue9')).toBe(`got ${REDACTED}`);
  });

  it('a secret learned after text was already scrubbed is scrubbed from then on', () => {
    const redactor = createRedactor();
    expect(redactor.redactText('late-secret-1')).toBe('late-secret-1');
    redactor.remember('late-secret-1');
    expect(redactor.redactText('late-secret-1')).toBe(REDACTED);
  });

  it('a secret that contains another is scrubbed whole, not leaving a tail', () => {
    const redactor = createRedactor({ knownSecrets: ['abcdef', 'abcdefgh', 'abcdefghijkl'] });
    expect(redactor.redactText('x abcdefghijkl y abcdefgh z')).toBe(`x ${REDACTED} y ${REDACTED} z`);
  });

  it('an echo inside the same value that taught the secret is scrubbed too', () => {
    const redactor = createRedactor();
    expect(redactor.redact({ note: 'sent k-0000abcd', headers: { 'x-api-key': 'k-0000abcd' } })).toEqual({
      note: `sent ${REDACTED}`,
      headers: { 'x-api-key': REDACTED },
    });
  });
});

describe('strings that hold structured bodies', () => {
  it('redacts JSON arrays as well as objects, and keeps the formatting of a body with nothing to redact', () => {
    const redactor = createRedactor();
    expect(JSON.parse(redactor.redact('[{"token":"abcdefgh"},1]'))).toEqual([{ token: REDACTED }, 1]);
    const pretty = '{ "title": "x",  "n": [1, 2] }';
    expect(redactor.redact(pretty)).toBe(pretty);
    expect(redactor.redact(' [ 1, 2 ] ')).toBe(' [ 1, 2 ] ');
  });

  it('text that only looks like JSON is scrubbed as text', () => {
    const redactor = createRedactor({ knownSecrets: ['hunter22'] });
    expect(redactor.redact('{not json hunter22}')).toBe(`{not json ${REDACTED}}`);
    expect(redactor.redact('[hunter22')).toBe(`[${REDACTED}`);
  });

  it('a form body has its secret fields masked; prose with an equals sign is not a form', () => {
    const redactor = createRedactor();
    expect(redactor.redact('a=1&token=abcdefgh&b=')).toBe('a=1&token=%5Bredacted%5D&b=');
    expect(redactor.redactText('abcdefgh')).toBe(REDACTED);
    expect(redactor.redact('a=1&b=2')).toBe('a=1&b=2');
    const prose = 'Password reset requested for user=bob';
    expect(redactor.redact(prose)).toBe(prose);
  });

  it('returns the very same object when nothing needed redacting', () => {
    const value = { a: [1, 'two', { b: null }], c: 'text' };
    expect(createRedactor().redact(value)).toBe(value);
  });

  it('copies only what changed, leaving the input untouched', () => {
    const input = { list: ['keep', { password: 'abcdefgh' }], other: { x: 1 } };
    const out = createRedactor().redact(input);
    expect(out.list[0]).toBe('keep');
    expect(out.other).toBe(input.other);
    expect(input.list[1]).toEqual({ password: 'abcdefgh' });
  });
});

describe('edges of structured values', () => {
  it('a JSON object body is redacted on its own, surrounding whitespace included', () => {
    const redactor = createRedactor();
    expect(redactor.redact('{"token":"abcdefgh"}')).toBe('{"token":"[redacted]"}');
    expect(createRedactor().redact('\n {"token":"abcdefgh"} \n')).toBe('{"token":"[redacted]"}');
  });

  it('a form body with nothing secret keeps its exact encoding', () => {
    const redactor = createRedactor();
    expect(redactor.redact('q=%41&b=x%20y')).toBe('q=%41&b=x%20y');
  });

  it('undefined and null under ordinary names are kept as they are', () => {
    const value = { note: undefined, other: null, n: 1, flag: true };
    expect(createRedactor().redact(value)).toBe(value);
  });

  it('a record is a name/value pair only when it has both a string name and a value', () => {
    const redactor = createRedactor();
    const nameOnly = { name: 'password', label: 'x' };
    expect(redactor.redact(nameOnly)).toBe(nameOnly);
    const valueOnly = { value: 'abcdefgh' };
    expect(redactor.redact(valueOnly)).toBe(valueOnly);
    const numbered = { name: 5, value: 'abcdefgh' };
    expect(redactor.redact(numbered)).toBe(numbered);
  });
});

describe('what a secret value teaches', () => {
  it('the last word of a scheme-prefixed credential is remembered, not the words before it', () => {
    const redactor = createRedactor();
    redactor.redact({ authorization: 'Custom scheme tokvalue999' });
    expect(redactor.redactText('tokvalue999 scheme')).toBe(`${REDACTED} scheme`);
  });

  it('a six-character value under a secret name is hunted in a later echo, spaces and all', () => {
    const redactor = createRedactor({ secretNames: ['otp'] });
    expect(redactor.redact({ otp: '654321', password: 'my pw!' })).toEqual({
      otp: REDACTED,
      password: REDACTED,
    });
    expect(redactor.redact({ message: 'code 654321 accepted; tried my pw! twice' })).toEqual({
      message: `code ${REDACTED} accepted; tried ${REDACTED} twice`,
    });
  });

  it('short cookie values and very short secrets are not remembered', () => {
    const redactor = createRedactor();
    redactor.redact({ cookie: 'lang=en; sid=abcdefgh1', password: 'ab' });
    expect(redactor.redactText('en ab abcdefgh1')).toBe(`en ab ${REDACTED}`);
  });

  it('a known secret is scrubbed percent-encoded too', () => {
    const redactor = createRedactor({ knownSecrets: ['p w!secret'] });
    expect(redactor.redact('q=p%20w!secret')).toBe(`q=${REDACTED}`);
  });
});

describe('what redaction must not destroy (found by mutation testing)', () => {
  it('a short value under a secret name is masked in place but not hunted elsewhere', () => {
    const redactor = createRedactor();
    const out = redactor.redact({
      password: 'alpha',
      csrf: '1001',
      note: 'the alpha-shop project',
      path: '/items/articles/1001',
    });
    expect(out).toEqual({
      password: '[redacted]',
      csrf: '[redacted]',
      note: 'the alpha-shop project',
      path: '/items/articles/1001',
    });
  });

  it("a cookie's attributes are not its secret: an Expires date elsewhere survives", () => {
    const redactor = createRedactor();
    const out = redactor.redact({
      'set-cookie': 'sid=abcdef123456; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly',
      note: 'valid until Wed, 21 Oct 2026 07:28:00 GMT',
      echo: 'session abcdef123456 seen',
    });
    expect(out).toMatchObject({
      note: 'valid until Wed, 21 Oct 2026 07:28:00 GMT',
      echo: 'session [redacted] seen',
    });
  });

  it('hostile nesting is cut, never a stack overflow', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 100_000; level++) deep = { next: deep };
    const redactor = createRedactor();
    expect(() => redactor.redact(deep)).not.toThrow();
    expect(JSON.stringify(redactor.redact({ a: { b: { c: 'x' } } }))).toBe('{"a":{"b":{"c":"x"}}}');
  });
});
