import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../src/core/redact.js';
import { loadCaptures } from '../../src/packs/http/captures/load-captures.js';
import { redactHar } from '../../src/packs/http/captures/redact-har.js';
import { tempDir, tempLedger } from '../helpers.js';
import { type HarEntry, harEntry, writeHar } from '../packs/http/har-fixtures.js';

describe('URL-aware redaction (issue 19, item 5)', () => {
  it('a URL with a secret-named query parameter stays a URL, the value redacted in place', () => {
    const redactor = createRedactor();
    expect(redactor.redact('http://h/api/x?token=abcdefgh')).toBe(`http://h/api/x?token=${REDACTED}`);
    expect(redactor.redact('https://h:8443/a/b?page=2&api_key=K3Y-VALUE-1&q=a%20b#top')).toBe(
      `https://h:8443/a/b?page=2&api_key=${REDACTED}&q=a%20b#top`,
    );
    expect(redactor.redact('/api/x?access_token=abc&y=2')).toBe(`/api/x?access_token=${REDACTED}&y=2`);
    expect(redactor.redact('https://h/cb#access_token=IMPLICIT-GRANT&state=1')).toBe(
      `https://h/cb#access_token=${REDACTED}&state=1`,
    );
    // The value is remembered: an echo of it elsewhere is scrubbed too.
    expect(redactor.redact({ note: 'was K3Y-VALUE-1' })).toEqual({ note: `was ${REDACTED}` });
    // Still parseable, still the same origin and path.
    const url = new URL(redactor.redact('http://h/api/x?token=abcdefgh&n=1'));
    expect([url.origin, url.pathname, url.searchParams.get('n')]).toEqual(['http://h', '/api/x', '1']);
    // Form bodies keep their old treatment.
    expect(redactor.redact('user=a&password=hunter22')).toBe('user=a&password=%5Bredacted%5D');
  });

  it('userinfo passwords are stripped (and scrubbed wherever they reappear)', () => {
    const redactor = createRedactor();
    expect(redactor.redact('http://u:PW1234567@h/x?y=1')).toBe('http://u@h/x?y=1');
    expect(redactor.redact('postgres://admin:s3cr%40tpass@db:5432/app')).toBe('postgres://admin@db:5432/app');
    expect(redactor.redact('login failed with PW1234567 and s3cr@tpass')).toBe(
      `login failed with ${REDACTED} and ${REDACTED}`,
    );
  });

  it('ledger evidence keeps a location URL readable', () => {
    const ledger = tempLedger();
    const run = ledger.startRun({ agent: 'test', task: 't' });
    run.append({
      kind: 'tool_call',
      outcome: 'ok',
      name: 'request',
      data: { location: 'http://h/api/items/7?token=SECRETSECRET', status: 201 },
    });
    const stored = JSON.stringify(run.entries());
    expect(stored).toContain(`http://h/api/items/7?token=${REDACTED}`);
    expect(stored).not.toContain('SECRETSECRET');
    expect(stored).not.toContain('http%3A');
  });
});

describe('capture redaction: CSRF, OTP and PIN names, userinfo (issue 19, item 5)', () => {
  function hostileHar(): { log: { entries: HarEntry[] } } {
    const login: HarEntry = {
      ...harEntry('POST', 'http://admin:UserInfoPass1@127.0.0.1:4010/login?otp=654321&next=/projects', 302),
      request: {
        method: 'POST',
        url: 'http://admin:UserInfoPass1@127.0.0.1:4010/login?otp=654321&next=/projects',
        headers: [{ name: 'content-type', value: 'application/x-www-form-urlencoded' }],
        postData: {
          mimeType: 'application/x-www-form-urlencoded',
          text: 'authenticity_token=RailsTok3n%2B%3D&_csrf=ExpressCsrf9&csrf_token=FlaskCsrf77&otp=112233&pin=9876&email=a%40b.c',
        },
      },
    };
    login.response.headers.push({
      name: 'Location',
      value: 'http://127.0.0.1:4010/projects?csrf_token=LocCsrf123',
    });
    const page = harEntry('GET', 'http://127.0.0.1:4010/projects/new?authenticity_token=QueryRails9', 200);
    page.response.content = {
      mimeType: 'text/html',
      text: '<form><input type="hidden" name="authenticity_token" value="HiddenRails42"><input value="HiddenCsrf55" name="_csrf"></form>',
    };
    const api = harEntry('POST', 'http://127.0.0.1:4010/api/alpha/suites?token=ApiQueryTok1', 201, {
      body: { title: 'S', pin: 'JsonPin', otp: '445566' },
      response: { id: 7, title: 'S' },
    });
    return { log: { entries: [login, page, api] } };
  }

  const SECRETS = [
    'UserInfoPass1',
    '654321',
    'RailsTok3n',
    'ExpressCsrf9',
    'FlaskCsrf77',
    '112233',
    '9876',
    'LocCsrf123',
    'QueryRails9',
    'HiddenRails42',
    'HiddenCsrf55',
    'ApiQueryTok1',
    'JsonPin',
    '445566',
  ];

  it('no secret survives, and `tally fish` loads the HAR `tally capture` wrote', () => {
    const redacted = redactHar(hostileHar());
    const text = JSON.stringify(redacted);
    for (const secret of SECRETS) expect(text, secret).not.toContain(secret);
    expect(redacted.log.entries[0]?.request.url).toBe(
      `http://admin@127.0.0.1:4010/login?otp=${REDACTED}&next=/projects`,
    );
    expect(redacted.log.entries[2]?.request.url).toBe(
      `http://127.0.0.1:4010/api/alpha/suites?token=${REDACTED}`,
    );

    const path = writeHar(tempDir(), 'captured.har', redacted.log.entries);
    expect(readFileSync(path, 'utf8')).not.toContain('http%3A');
    const loaded = loadCaptures([path]);
    expect(loaded.apiOrigin).toBe('http://127.0.0.1:4010');
    expect(loaded.captures.map((capture) => `${capture.method} ${capture.path}`)).toContain(
      'POST /api/alpha/suites',
    );
  });
});
