import { describe, expect, it } from 'vitest';
import { redactPostgresUrl, scrubPassword } from '../../../src/core/ledger/postgres-url.js';

describe('a PostgreSQL URL as printed: no password in any spelling libpq accepts', () => {
  it('masks the userinfo password and password-like query parameters, keeping the rest', () => {
    expect(redactPostgresUrl('postgres://postgres@127.0.0.1:55432/tally?password=hunter2')).toBe(
      'postgres://postgres@127.0.0.1:55432/tally?password=***',
    );
    const both = redactPostgresUrl(
      'postgres://u:x-top@127.0.0.1/t?password=hunter2&sslpassword=key-pass&application_name=tally',
    );
    expect(both).not.toMatch(/hunter2|key-pass|x-top/);
    expect(both).toContain('application_name=tally');
  });

  it("a driver's message that echoes the URL or the query password is scrubbed", () => {
    const url = 'postgres://postgres@127.0.0.1:55432/tally?password=hunter2';
    expect(scrubPassword(`could not connect to ${url}: password hunter2 rejected`, url)).toBe(
      'could not connect to postgres://postgres@127.0.0.1:55432/tally?password=***: password *** rejected',
    );
  });
});
