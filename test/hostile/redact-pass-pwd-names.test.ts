// `pass` and `pwd` name passwords (`DB_PASS=…`, `"pwd":"…"`, `dbpasswd`, `PGPASSWORD`), but `PWD`
// is also the shell's working directory and `pass` a test count: a setting under such a name
// (a path, a number, a boolean) is evidence and stays, as secretEnvironmentValues keeps it.
import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretName, REDACTED, secretEnvironmentValues } from '../../src/core/redact.js';

describe('pass and pwd name secrets', () => {
  it('names built on pass, pwd, passwd and a glued password are secret; words that merely hold them are not', () => {
    for (const name of ['DB_PASS', 'pass', 'pwd', 'dbpasswd', 'dbpwd', 'PGPASSWORD', 'mysqlPwd', 'smtp-pass'])
      expect(isSecretName(name), name).toBe(true);
    for (const name of [
      'passport',
      'compass',
      'bypass',
      'passes',
      'GIT_ASKPASS',
      'pass_count',
      'passthrough',
    ])
      expect(isSecretName(name), name).toBe(false);
  });

  it('masks their values in environment-like lines, JSON, forms, URLs and prose', () => {
    const redactor = createRedactor();
    const dump = [
      'PWD=/home/me/project',
      'DB_PASS=s3cret-db',
      'PGPASSWORD=pg-Secret9',
      'dbpasswd=glued-pass1',
      'OLDPWD=/home/me',
    ].join('\n');
    const out = redactor.redactText(dump);
    expect(out).toBe(
      [
        'PWD=/home/me/project',
        `DB_PASS=${REDACTED}`,
        `PGPASSWORD=${REDACTED}`,
        `dbpasswd=${REDACTED}`,
        'OLDPWD=/home/me',
      ].join('\n'),
    );
    expect(redactor.redact({ pwd: 'x', user: 'me' })).toEqual({ pwd: REDACTED, user: 'me' });
    expect(redactor.redact('{"pwd":"x","user":"me"}')).toBe(`{"pwd":"${REDACTED}","user":"me"}`);
    expect(redactor.redactText('log: "pwd":"hunter2x" sent')).toBe(`log: "pwd":"${REDACTED}" sent`);
    expect(redactor.redact('user=me&dbpwd=form-pass9')).not.toContain('form-pass9');
    expect(redactor.redact('http://h/login?pass=query-pass9&next=/')).toBe(
      `http://h/login?pass=${REDACTED}&next=/`,
    );
    // Learned: a later echo anywhere is scrubbed too.
    expect(redactor.redactText('auth failed for s3cret-db and pg-Secret9')).toBe(
      `auth failed for ${REDACTED} and ${REDACTED}`,
    );
  });

  it('keeps a setting under pass or pwd: a path, a count, a boolean', () => {
    const redactor = createRedactor();
    expect(redactor.redact('PWD=/home/me/project')).toBe('PWD=/home/me/project');
    expect(redactor.redactText('cd failed, PWD=/home/me/project OLDPWD=~/work')).toBe(
      'cd failed, PWD=/home/me/project OLDPWD=~/work',
    );
    expect(redactor.redact({ pass: 12, fail: 0, pwd: '/srv/app', skip: true })).toEqual({
      pass: 12,
      fail: 0,
      pwd: '/srv/app',
      skip: true,
    });
    expect(redactor.redact([{ name: 'PWD', value: '/tmp/x' }])).toEqual([{ name: 'PWD', value: '/tmp/x' }]);
    // Under an unambiguous name a path-like or numeric value is still masked.
    expect(redactor.redact({ password: '/etc/x', DB_PASSWORD: 12345678 })).toEqual({
      password: REDACTED,
      DB_PASSWORD: REDACTED,
    });
    // The kept path was not learned: it is not scrubbed elsewhere.
    expect(redactor.redactText('wrote /home/me/project/out.txt')).toBe('wrote /home/me/project/out.txt');
  });

  it('pass names a password only as the last word, and a test status is no pair', () => {
    const redactor = createRedactor();
    expect(isSecretName('pass_word')).toBe(true);
    expect(isSecretName('pass_phrase')).toBe(true);
    for (const name of ['passWithNoTests', 'pass_rate', 'pwd_hint'])
      expect(isSecretName(name), name).toBe(false);
    const goTest = '--- PASS: TestLogin (0.00s)\nPASS\nok  \tgithub.com/me/app\t0.012s';
    expect(redactor.redactText(goTest)).toBe(goTest);
    const command = 'npx vitest run --passWithNoTests src/login.test.ts';
    expect(redactor.redactText(command)).toBe(command);
    // A mailer's config still loses its password, unquoted (YAML) or quoted (JS).
    expect(redactor.redactText('smtp:\n  user: me\n  pass: mail-Pass9')).toBe(
      `smtp:\n  user: me\n  pass: ${REDACTED}`,
    );
    expect(redactor.redactText("{ user: 'me', pass: 'mail-Pass8' }")).toBe(
      `{ user: 'me', pass: '${REDACTED}' }`,
    );
  });

  it('the environment rule agrees: pass and pwd credentials are hunted, their settings are not', () => {
    expect(
      secretEnvironmentValues({
        PWD: '/home/me/project',
        OLDPWD: '/home/me',
        DB_PASS: 's3cret-db',
        PGPASSWORD: 'pg-Secret9',
        SMTP_PWD: 'mail-Pwd42',
        TESTS_PASS: '12345678',
      }),
    ).toEqual(['s3cret-db', 'pg-Secret9', 'mail-Pwd42']);
  });
});
