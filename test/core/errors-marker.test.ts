import { copyFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  errorCode,
  isTallyError,
  LedgerError,
  TallyError,
  ToolRejectedError,
} from '../../src/core/errors.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { describeError } from '../../src/surfaces/cli/describe-error.js';
import { tempDir } from '../helpers.js';

const source = resolve(import.meta.dirname, '..', '..', 'src', 'core', 'errors.ts');

/** A second copy of the errors module, as a second bundled copy of Tally would carry. */
async function secondCopy(): Promise<typeof import('../../src/core/errors.js')> {
  const copy = join(tempDir(), 'errors.ts');
  copyFileSync(source, copy);
  return import(pathToFileURL(copy).href);
}

describe('Tally errors are recognised across copies of the package', () => {
  it('isTallyError knows an error from another copy of the class, where instanceof does not', async () => {
    const other = await secondCopy();
    const foreign = new other.ToolRejectedError('INVALID_INPUT', 'Refused by the other copy.', {
      field: 'id',
    });
    expect(other.TallyError).not.toBe(TallyError);
    expect(foreign instanceof TallyError).toBe(false);
    expect(isTallyError(foreign)).toBe(true);
    expect(other.isTallyError(new ToolRejectedError('LEDGER_BUSY', 'Refused by this copy.'))).toBe(true);
    expect(errorCode(foreign)).toBe('INVALID_INPUT');
    // The CLI prints it as a Tally error (its code, exit 2), not as an unforeseen bug.
    expect(describeError(foreign)).toMatchObject({
      code: 'INVALID_INPUT',
      exit: 2,
      details: { field: 'id' },
    });
  });

  it('does not take a look-alike for a Tally error', () => {
    const lookalike = Object.assign(new Error('mine'), { code: 'INVALID_INPUT' });
    expect(isTallyError(lookalike)).toBe(false);
    expect(isTallyError({ [Symbol('tally.error')]: true, code: 'X' })).toBe(false);
    expect(isTallyError(null)).toBe(false);
    expect(isTallyError('INVALID_INPUT')).toBe(false);
  });

  it('maps a code from the exit table to exit 3 whichever copy threw it', async () => {
    const other = await secondCopy();
    const error = new other.TallyError('LEDGER_UNAVAILABLE', 'Cannot open the ledger.');
    expect(describeError(error).exit).toBe(3);
  });
});

describe('a Tally error keeps the error underneath as its cause', () => {
  it('TallyError passes cause through; without one there is none', () => {
    const underneath = new Error('EACCES: permission denied');
    expect(new TallyError('LEDGER_UNAVAILABLE', 'x', {}, { cause: underneath }).cause).toBe(underneath);
    expect('cause' in new TallyError('LEDGER_UNAVAILABLE', 'x')).toBe(false);
  });

  it('Ledger.open on a file that is not a database keeps the driver error as the cause', () => {
    const path = join(tempDir(), 'not-a-ledger.db');
    writeFileSync(path, 'this is a text file, not SQLite '.repeat(200));
    let thrown: unknown;
    try {
      Ledger.open(path).close();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LedgerError);
    expect((thrown as LedgerError).code).toBe('LEDGER_UNAVAILABLE');
    const cause = (thrown as LedgerError).cause;
    expect(cause).toBeInstanceOf(Error);
    // The message keeps the driver's words; the cause keeps the driver's error itself.
    expect((thrown as LedgerError).message).toContain((cause as Error).message);
  });

  it('a code no one declared fails the type check', () => {
    // @ts-expect-error 'NOT_A_DECLARED_CODE' is in no TallyErrorCodes declaration
    const error = new TallyError('NOT_A_DECLARED_CODE', 'x');
    expect(error.code).toBe('NOT_A_DECLARED_CODE');
  });
});
