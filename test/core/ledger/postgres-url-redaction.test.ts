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

  it('a percent-encoded userinfo password is scrubbed as written and as decoded', () => {
    const url = 'postgres://app:s%40cr%2Fet@127.0.0.1/tally';
    expect(scrubPassword('auth failed for s@cr/et (given s%40cr%2Fet)', url)).toBe(
      'auth failed for *** (given ***)',
    );
    expect(redactPostgresUrl(url)).toBe('postgres://app:***@127.0.0.1/tally');
  });

  it('both a userinfo and a query password are scrubbed, even when the userinfo does not decode', () => {
    const url = 'postgres://app:bad%zzpass@127.0.0.1/tally?sslpassword=key%20pass&password=hunter2';
    const out = scrubPassword('tried bad%zzpass, then hunter2, key file locked by key pass', url);
    expect(out).toBe('tried ***, then ***, key file locked by ***');
    expect(scrubPassword(`at ${url}`, url)).toBe(
      'at postgres://app:***@127.0.0.1/tally?sslpassword=***&password=***',
    );
  });
});
