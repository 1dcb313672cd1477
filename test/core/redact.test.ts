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
