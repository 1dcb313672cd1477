import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isTallyError, type LedgerError } from '../../../src/core/errors.js';
import { openLedger } from '../../../src/core/ledger/ledger.js';
import { scrubbedCause } from '../../../src/core/ledger/postgres-url.js';
import { describePostgres } from '../../support/describe-postgres.js';

const RIGHT = 'pw-Right-SECRET';
const WRONG = 'pw-Wrong-SECRET@/x';

async function openFailure(url: string): Promise<LedgerError> {
  const failure = await openLedger(url, { busyLimitMs: 3_000 }).then(
    async (ledger) => {
      await ledger.close();
      throw new Error('the ledger opened');
    },
    (error: unknown) => error,
  );
  expect(isTallyError(failure)).toBe(true);
  return failure as LedgerError;
}

/** Everything a log or an error tracker could show of the error: message, stack, cause and its fields. */
const shown = (error: unknown) => inspect(error, { depth: 10, showHidden: true });

describePostgres(
  'PostgreSQL open errors keep the driver error as cause, without the password',
  (server) => {
    it('the right password opens the ledger (the server does check it)', async () => {
      const ledger = await openLedger(server.createDatabase('right'));
      await ledger.close();
    });

    it('a wrong password: LEDGER_UNAVAILABLE with the driver error as cause (code 28P01); no password anywhere', async () => {
      const url = server
        .createDatabase('wrong')
        .replace(`:${encodeURIComponent(RIGHT)}@`, `:${encodeURIComponent(WRONG)}@`);
      expect(url).toContain(encodeURIComponent(WRONG));
      const error = await openFailure(url);
      expect(error.code).toBe('LEDGER_UNAVAILABLE');
      expect(error.message).toContain('password authentication failed');
      expect(error.message).toContain('postgres://postgres:***@127.0.0.1');
      const cause = error.cause as Error & { code?: string; severity?: string };
      expect(cause).toBeInstanceOf(Error);
      expect(cause.code).toBe('28P01');
      expect(cause.severity).toBe('FATAL');
      expect(cause.message).toContain('password authentication failed for user "postgres"');
      for (const secret of [WRONG, encodeURIComponent(WRONG), RIGHT]) {
        expect(error.message).not.toContain(secret);
        expect(cause.message).not.toContain(secret);
        expect(shown(error)).not.toContain(secret);
      }
    });

    it('a server that is not there: the cause keeps ECONNREFUSED, the password is nowhere', async () => {
      const url = `postgres://postgres:${encodeURIComponent(WRONG)}@127.0.0.1:1/none`;
      const error = await openFailure(url);
      expect(error.code).toBe('LEDGER_UNAVAILABLE');
      expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
      for (const secret of [WRONG, encodeURIComponent(WRONG)]) expect(shown(error)).not.toContain(secret);
    });
  },
  { password: RIGHT },
);

describe('scrubbedCause', () => {
  it('scrubs the URL and its password from message, stack, string fields and nested causes; keeps codes', () => {
    const url = 'postgres://ann:s3cret-PW@db.example:5432/ledger';
    const inner = Object.assign(new Error(`connect to ${url} failed`), { code: 'ECONNRESET', errno: -104 });
    const driver = Object.assign(new Error(`bad login s3cret-PW for ${url}`, { cause: inner }), {
      code: '28P01',
      detail: 'password was s3cret-PW',
      severity: 'FATAL',
      client: { password: 's3cret-PW' },
    });
    const cause = scrubbedCause(driver, url) as Error & Record<string, unknown>;
    expect(cause).not.toBe(driver);
    expect(cause.message).toBe('bad login *** for postgres://ann:***@db.example:5432/ledger');
    expect(cause).toMatchObject({ code: '28P01', severity: 'FATAL', detail: 'password was ***' });
    // An object field (a driver's client, its config) is not kept at all.
    expect(cause.client).toBeUndefined();
    expect((cause.cause as Error & { code?: string }).code).toBe('ECONNRESET');
    expect(shown(cause)).not.toContain('s3cret-PW');
    expect(shown(cause)).toContain('28P01');
  });
});
