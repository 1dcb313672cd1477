import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretName, REDACTED } from '../../src/core/redact.js';

describe('redaction', () => {
  it('knows secret header and field names, and leaves ordinary ones alone', () => {
    for (const name of [
      'Authorization',
      'cookie',
      'Set-Cookie',
      'x-api-key',
      'X-CSRF-Token',
      'proxy-authorization',
      'password',
      'accessToken',
      'client_secret',
      'api_key',
      'apiKey',
      'session_id',
      // The session id at the end of a longer name is still the session itself.
      'user_session_id',
      'X-Session-Id',
      'refresh-token',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of [
      'title',
      'author',
      'id',
      'status',
      'inputTokens',
      'keywords',
      'description',
      'tokenizer_name'.replace('_name', 's'),
      // Names about a secret, not the secret: ids are evidence and must stay readable.
      'apiKeyId',
      'api_key_id',
      'token_type',
      'password_updated_at',
      'secretCount',
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it('redacts headers, JSON string bodies, form bodies and HAR-style name/value pairs', () => {
    const redactor = createRedactor();
    const out = redactor.redact({
      headers: { authorization: 'Bearer abcdef123456', accept: 'application/json' },
      body: '{"name":"x","password":"p4ssw0rd!"}',
      form: 'user=bob&password=p4ssw0rd!',
      har: [
        { name: 'Cookie', value: 'sid=s3ss10nvalue' },
        { name: 'Accept', value: '*/*' },
      ],
    });
    expect(out.headers).toEqual({ authorization: REDACTED, accept: 'application/json' });
    expect(JSON.parse(out.body)).toEqual({ name: 'x', password: REDACTED });
    expect(out.form).toBe('user=bob&password=%5Bredacted%5D');
    expect(out.har).toEqual([
      { name: 'Cookie', value: REDACTED },
      { name: 'Accept', value: '*/*' },
    ]);
  });

  it('scrubs later echoes of a secret it has seen, and bearer tokens anywhere', () => {
    const redactor = createRedactor();
    redactor.redact({ headers: { 'x-api-key': 'key-0123456789' } });
    expect(redactor.redactText('I used key-0123456789 to call it')).toBe(`I used ${REDACTED} to call it`);
    expect(redactor.redactText('header was Bearer eyJhbGciOi.abc.def')).toBe(`header was Bearer ${REDACTED}`);
  });

  it('can keep equal secrets comparable with a short hash', () => {
    const redactor = createRedactor({ hashSecrets: true });
    const out = redactor.redact({
      a: { token: 'same-secret' },
      b: { token: 'same-secret' },
      c: { token: 'other-secret' },
    });
    expect(out.a.token).toMatch(/^\[redacted:[0-9a-f]{6}\]$/);
    expect(out.a.token).toBe(out.b.token);
    expect(out.c.token).not.toBe(out.a.token);
  });

  it('property: a secret under a secret-named key never survives anywhere in the output', () => {
    const secretKey = fc.constantFrom(
      'password',
      'token',
      'authorization',
      'x-api-key',
      'cookie',
      'clientSecret',
    );
    const secret = fc
      .string({ minLength: 8, maxLength: 40 })
      .filter((value) => /^[\x21-\x7e]+$/.test(value) && !value.includes('redacted'));
    fc.assert(
      fc.property(secretKey, secret, fc.string(), (key, value, noise) => {
        const redactor = createRedactor();
        const out = redactor.redact({
          headers: { [key]: value },
          body: JSON.stringify({ [key]: value, noise }),
          echo: `${noise} ${value}`,
        });
        return !JSON.stringify(out).includes(JSON.stringify(value).slice(1, -1));
      }),
      { numRuns: 300 },
    );
  });

  it('property: never throws and never changes values under ordinary keys that hold no secrets', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const redactor = createRedactor();
        const out = redactor.redact({ data: value });
        return JSON.stringify(out).length > 0;
      }),
      { numRuns: 300 },
    );
  });
});

describe('secret-named pairs inside prose (issue 19, finding 5 follow-up)', () => {
  it.each([
    ['connecting with password=hunter22 to db', `connecting with password=${REDACTED} to db`],
    ['Error: token=abcdef123 rejected', `Error: token=${REDACTED} rejected`],
    ['login as bob, db_password=s3cr3t!x failed', `login as bob, db_password=${REDACTED} failed`],
    ['X-Api-Key: K3Yvalue! was refused', `X-Api-Key: ${REDACTED} was refused`],
    ['token:abc and more', `token:${REDACTED} and more`],
    // Echoed from a command line.
    ['ran psql --password=hunter22 -h db', `ran psql --password=${REDACTED} -h db`],
    // An echoed JSON body inside a message: the quotes stay, the value goes.
    [
      'upstream said {"access_token":"tok-123456","n":1}',
      `upstream said {"access_token":"${REDACTED}","n":1}`,
    ],
    ["retry with client_secret='my pw' later", `retry with client_secret='${REDACTED}' later`],
    // A URL inside prose stays a URL: the pair ends at `&`.
    ['see http://h/x?token=abc&page=2 ok', `see http://h/x?token=${REDACTED}&page=2 ok`],
    // `Authorization: Bearer …` keeps its scheme word; the token is masked.
    ['sent Authorization: Bearer abcdefgh', `sent Authorization: Bearer ${REDACTED}`],
    // An unterminated quote is part of an unquoted value.
    ['then password="half', `then password=${REDACTED}`],
    ['then password=" x', `then password=${REDACTED} x`],
    // A value that starts and ends with the same character is not quoted for that.
    ['token=s3cr3ts sent', `token=${REDACTED} sent`],
  ])('%j → %j', (text, redacted) => {
    const redactor = createRedactor();
    expect(redactor.redact(text)).toBe(redacted);
    expect(redactor.redactText(text)).toBe(redacted);
  });

  it.each([
    // The name is the whole word before `=`: `count` is not a secret word, nor is `mytoken`.
    'token count=3',
    'the token_count=3 and token_type: bearer',
    'mytoken=abc, passwordless=true',
    // About a secret, not the secret: system ids stay readable.
    'api_key_id=ak_123 in use',
    // No value after the separator, or one already redacted.
    'password: ',
    'password= (empty)',
    `password=${REDACTED} retried`,
    "password='' is empty",
    // Times and ordinary colons.
    'started 12:30, ratio a:b',
    'ordinary words with no pairs',
  ])('leaves %j as it is', (text) => {
    expect(createRedactor().redact(text)).toBe(text);
  });

  it('a value after `=` or in quotes is learned: a later echo is scrubbed, sentence punctuation or not', () => {
    const redactor = createRedactor();
    expect(redactor.redact('login failed for password=hunter22.')).toBe(
      `login failed for password=${REDACTED}`,
    );
    expect(redactor.redact({ later: 'retried with hunter22 and hunter22.' })).toEqual({
      later: `retried with ${REDACTED} and ${REDACTED}`,
    });
    expect(redactor.redact('also password=second22).')).toBe(`also password=${REDACTED}`);
    expect(redactor.redactText('second22 again')).toBe(`${REDACTED} again`);
    redactor.redact('{"secret":"quoted-value-1"} x');
    expect(redactor.redactText('echo quoted-value-1')).toBe(`echo ${REDACTED}`);
  });

  it('only punctuation at the end is dropped from what is learned, never from the middle', () => {
    const redactor = createRedactor();
    expect(redactor.redact('password=pass.word1 x')).toBe(`password=${REDACTED} x`);
    expect(redactor.redactText('my password1 and pass.word1')).toBe(`my password1 and ${REDACTED}`);
  });

  it('after `name: ` an unquoted value is masked where it stands but not learned (prose, not a value)', () => {
    const redactor = createRedactor();
    expect(redactor.redact('Secret: credentials live in the vault')).toBe(
      `Secret: ${REDACTED} live in the vault`,
    );
    expect(redactor.redact('the credentials were rotated')).toBe('the credentials were rotated');
  });

  it('with hashSecrets, equal values in prose get equal labels', () => {
    const redactor = createRedactor({ hashSecrets: true });
    const one = redactor.redact('password=hunter22 x');
    const two = redactor.redact('Password: hunter22 y');
    const label = /\[redacted:[0-9a-f]{6}\]/.exec(one)?.[0];
    expect(label).toMatch(/^\[redacted:[0-9a-f]{6}\]$/);
    expect(two).toBe(`Password: ${label} y`);
    expect(redactor.redact(`password=${label} again`)).toBe(`password=${label} again`);
  });

  it('a long word or a long run of pairs is scanned in linear time (a hang guard, not a benchmark)', () => {
    const redactor = createRedactor();
    const started = performance.now();
    const word = 'a'.repeat(1_000_000);
    expect(redactor.redactText(`${word}=x`)).toBe(`${word}=x`);
    expect(redactor.redactText(`x ${'-a'.repeat(500_000)}: y`)).toBe(`x ${'-a'.repeat(500_000)}: y`);
    expect(redactor.redactText('token=v '.repeat(100_000))).toBe(`token=${REDACTED} `.repeat(100_000));
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('extra secret names apply in prose too', () => {
    expect(createRedactor({ secretNames: ['otp'] }).redact('code otp=654321 sent')).toBe(
      `code otp=${REDACTED} sent`,
    );
    expect(createRedactor().redact('code otp=654321 sent')).toBe('code otp=654321 sent');
  });

  it('a standalone URL keeps its path pairs (only query and fragment values are secret there)', () => {
    expect(createRedactor().redact('http://h/a/token=1?x=2')).toBe('http://h/a/token=1?x=2');
  });
});

describe('redaction of repeated strings', () => {
  it('redacts a string seen before again once a secret it holds becomes known', () => {
    const redactor = createRedactor();
    const echo = { note: 'abc-token-9876' };
    // Redacted (and remembered) while the value is not yet known as a secret: kept as is.
    expect(redactor.redact(echo)).toEqual(echo);
    expect(redactor.redact(echo)).toEqual(echo);
    // Learned from a secret-named field: the same string seen again is now scrubbed.
    redactor.redact({ password: 'abc-token-9876' });
    expect(redactor.redact(echo)).toEqual({ note: REDACTED });
    redactor.remember('later-secret-42');
    expect(redactor.redact({ note: 'later-secret-42' })).toEqual({ note: REDACTED });
  });

  it('gives the same result for a repeated string as for its first redaction', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 20 }), (texts) => {
        const fresh = (text: string) => createRedactor({ knownSecrets: ['s3cret-value'] }).redact({ text });
        const shared = createRedactor({ knownSecrets: ['s3cret-value'] });
        for (const text of [...texts, ...texts]) {
          // Alone, the text teaches nothing to another redactor; so it must read the same here.
          const alone = fresh(text);
          const before = shared.redact({ probe: 's3cret-value' });
          expect(before).toEqual({ probe: REDACTED });
          const again = shared.redact({ text });
          if (JSON.stringify(alone) === JSON.stringify({ text })) expect(again).toEqual(alone);
        }
      }),
    );
  });
});
