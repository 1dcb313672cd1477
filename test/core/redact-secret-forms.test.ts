import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, secretEnvironmentValues } from '../../src/core/redact.js';

describe('a known secret is scrubbed in the forms it travels in', () => {
  it.each([
    ['a JSON string (escaped quote and backslash)', 'pa"ss\\word42', 'body {"echo":"pa\\"ss\\\\word42"} end'],
    ['a form body (`+` for a space)', 'my pass word', 'sent user=a&pw=my+pass+word'],
    ["a query string (URLSearchParams encodes !'())", "pw!'()x12", 'q=pw%21%27%28%29x12'],
    ['an HTML page', 'p<&>"ss12', '<input value="p&lt;&amp;&gt;&quot;ss12">'],
    ['base64', 'hunter2222', `blob ${Buffer.from('hunter2222').toString('base64')} end`],
    ['base64 without padding', 'hunter222', `blob ${Buffer.from('hunter222').toString('base64url')}.sig`],
  ])('%s', (_form, secret, text) => {
    const redactor = createRedactor({ knownSecrets: [secret] });
    const out = redactor.redactText(text);
    expect(out).toContain(REDACTED);
    expect(out).not.toMatch(/word42|pass\+word|x12|ss12|aHVudGVy/);
  });

  it('a value masked under a secret name is learned in those forms too', () => {
    const redactor = createRedactor();
    redactor.redact({ password: 'sw"rdfish9' });
    expect(redactor.redactText('{"echo":"sw\\"rdfish9"}')).toBe(`{"echo":"${REDACTED}"}`);
  });
});

describe('every cookie of a Set-Cookie value is learned', () => {
  it.each([
    ['quoted', 'sid="abcdef123"; Path=/', ['abcdef123']],
    ['folded with `, `', 'a=value11111; Path=/, b=value22222; HttpOnly', ['value11111', 'value22222']],
    [
      'folded after Expires',
      'a=value33333; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=value44444',
      ['value44444'],
    ],
    ['folded with a newline', 'a=value55555\nb=value66666', ['value55555', 'value66666']],
    ['percent-encoded', 'sid=s%3Aabc%2Bdef%3D; Path=/', ['s:abc+def=']],
  ])('%s', (_how, header, echoed) => {
    const redactor = createRedactor();
    const out = redactor.redact({ headers: { 'set-cookie': header }, body: `echo ${echoed.join(' ')}` });
    expect(out.body).toBe(`echo ${echoed.map(() => REDACTED).join(' ')}`);
  });
});

describe('secret-named pairs in prose: more shapes', () => {
  it.each([
    // An auth scheme in any case: the credentials after it go, the scheme word stays.
    ['authorization: bearer abcdef123456', `authorization: bearer ${REDACTED}`],
    [
      'GET /x Authorization: Digest username="bob", response="6629fae4"',
      `GET /x Authorization: Digest ${REDACTED}`,
    ],
    ['proxy-authorization: basic Ym9iOnB3', `proxy-authorization: basic ${REDACTED}`],
    // A cookie header: every pair.
    ['Cookie: lang=en; sid=abcdef123', `Cookie: ${REDACTED}`],
    ['set-cookie: sid=abcdef123; Path=/; HttpOnly', `set-cookie: ${REDACTED}`],
    // Spaces around `=` (TOML, INI, AWS credentials, Python) and before `:`.
    ['password = "hunter22"', `password = "${REDACTED}"`],
    ["api_key = 'k-123456'", `api_key = '${REDACTED}'`],
    ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG', `aws_secret_access_key = ${REDACTED}`],
    ['  "token" : "abcdef123"', `  "token" : "${REDACTED}"`],
    // A command line's flag and its value.
    ['ran psql --password hunter22 -h db', `ran psql --password ${REDACTED} -h db`],
  ])('%j → %j', (text, redacted) => {
    expect(createRedactor().redactText(text)).toBe(redacted);
  });

  it.each([
    'if (token == expected) return',
    'const check = (password) => password.length',
    'password= (empty)',
    'use -password hunter22 (one dash is not a long flag)',
    'token count and password policy',
  ])('leaves %j as it is', (text) => {
    expect(createRedactor().redactText(text)).toBe(text);
  });

  it('a bearer token after a lowercase scheme is learned: a later echo is scrubbed', () => {
    const redactor = createRedactor();
    redactor.redactText('authorization: bearer tok-abcdef12');
    expect(redactor.redactText('retry with tok-abcdef12')).toBe(`retry with ${REDACTED}`);
  });
});

describe('secretEnvironmentValues', () => {
  it('takes the values of secret-named variables only, long enough to hunt', () => {
    expect(
      secretEnvironmentValues({
        OPENAI_API_KEY: '0a1b2c3d4e5f',
        GITHUB_TOKEN: ' ghtoken123 ',
        DB_PASSWORD: 'abc',
        TOKEN_TYPE: 'bearer-token',
        HOME: '/home/someone',
        EMPTY_SECRET: undefined,
        // Paths, not secrets: the working directory is named like a password.
        PWD: '/tmp/project',
        OLDPWD: '/home/someone/work',
        SSH_AUTH_SOCK: '/tmp/ssh-abc/agent.1',
        GOOGLE_APPLICATION_CREDENTIALS: '~/keys/service.json',
        // Settings, not credentials: scrubbing them would erase the word or id from every body.
        AUTH_MODE: 'production',
        SESSION_SECRET_ROTATION: 'Disabled',
        API_KEY_ID: '123456789',
        TOKEN_LIFETIME_SECONDS: '86400000',
        STRIPE_SECRET_KEY: 'sk_test_51Habc',
        // A session id names a session (Tally files digests under it); a session secret is one.
        CLAUDE_SESSION_ID: '1a973282-69a0-45d6-8916-eb13377cabb8',
        TALLY_SESSION_ID: 'a1b2c3d4e5f6',
        SESSION_SECRET: 'Zz9-session-signing',
      }),
    ).toEqual(['0a1b2c3d4e5f', 'ghtoken123', 'sk_test_51Habc', 'Zz9-session-signing']);
  });
});
