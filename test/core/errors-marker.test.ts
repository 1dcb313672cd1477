import { copyFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  errorCode,
  isDeclarationError,
  isTallyError,
  isToolRejectedError,
  LedgerError,
  TallyError,
  ToolRejectedError,
} from '../../src/core/errors.js';
import { FailOpenReasonTakenError } from '../../src/core/fail-open-reasons.js';
import { invokeTool } from '../../src/core/invoke-tool.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { PackDefinitionError } from '../../src/core/pack.js';
import { PackRegistryError } from '../../src/core/pack-registry.js';
import { defineTool } from '../../src/core/tool.js';
import { AgentSurfaceDefinitionError } from '../../src/surfaces/agent-surface.js';
import { describeError } from '../../src/surfaces/cli/describe-error.js';
import { asTallyError } from '../../src/surfaces/cli/pack-modules.js';
import { tempDir, tempLedger } from '../helpers.js';

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

/** A second instance of a source module (its classes new, its imports shared), as another copy of Tally holds. */
async function copyOf<T>(relative: string): Promise<T> {
  const url = pathToFileURL(resolve(import.meta.dirname, '..', '..', 'src', relative)).href;
  return import(`${url}?second-copy`);
}

describe('the error classes callers check are recognised across copies', () => {
  it('isToolRejectedError knows another copy’s refusal, and no other Tally error', async () => {
    const other = await secondCopy();
    const foreign = new other.ToolRejectedError('INVALID_INPUT', 'Refused by the other copy.');
    expect(foreign instanceof ToolRejectedError).toBe(false);
    expect(isToolRejectedError(foreign)).toBe(true);
    expect(isToolRejectedError(new ToolRejectedError('INVALID_INPUT', 'Refused here.'))).toBe(true);
    expect(isToolRejectedError(new other.TallyError('INVALID_INPUT', 'Failed, not refused.'))).toBe(false);
    expect(isToolRejectedError(new TallyError('INVALID_INPUT', 'Failed, not refused.'))).toBe(false);
    expect(isToolRejectedError(Object.assign(new Error('x'), { code: 'INVALID_INPUT' }))).toBe(false);
  });

  it('a tool that throws another copy’s ToolRejectedError is recorded as rejected, with its details', async () => {
    const other = await secondCopy();
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'a', task: 'refuse', meta: {} });
    const tool = defineTool({
      name: 'guarded_write',
      description: 'Writes, unless refused.',
      inputSchema: z.object({ path: z.string() }),
      annotations: {},
      execute: async () => {
        throw new other.ToolRejectedError('INVALID_INPUT', 'That path is off limits. Pick another.', {
          path: '/etc',
        });
      },
    });
    const record = await invokeTool(tool, { path: '/etc' }, { recorder, failOpen: () => {} });
    expect(record.outcome).toBe('rejected');
    expect(record.error).toEqual({
      code: 'INVALID_INPUT',
      message: 'That path is off limits. Pick another.',
      details: { path: '/etc' },
    });
    ledger.close();
  });

  it('declaration errors of another copy (a pack or surface module built against its own Tally) become the CLI’s own, code kept', async () => {
    const pack = await copyOf<typeof import('../../src/core/pack.js')>('core/pack.ts');
    const registry = await copyOf<typeof import('../../src/core/pack-registry.js')>('core/pack-registry.ts');
    const reasons =
      await copyOf<typeof import('../../src/core/fail-open-reasons.js')>('core/fail-open-reasons.ts');
    const surface =
      await copyOf<typeof import('../../src/surfaces/agent-surface.js')>('surfaces/agent-surface.ts');
    expect(pack.PackDefinitionError).not.toBe(PackDefinitionError);
    const foreign = [
      [new pack.PackDefinitionError('Pack "X" has a bad name.'), 'PACK_INVALID'],
      [new registry.PackRegistryError('PACK_TAKEN', 'Pack "x" is registered twice.'), 'PACK_TAKEN'],
      [new reasons.FailOpenReasonTakenError('Reason "y" is core’s.'), 'FAIL_OPEN_REASON_TAKEN'],
      [new surface.AgentSurfaceDefinitionError('Surface "z" has no run.'), 'AGENT_SURFACE_INVALID'],
    ] as const;
    for (const [error, code] of foreign) {
      expect(error instanceof PackDefinitionError || error instanceof PackRegistryError).toBe(false);
      expect(error instanceof FailOpenReasonTakenError || error instanceof AgentSurfaceDefinitionError).toBe(
        false,
      );
      expect(isDeclarationError(error)).toBe(true);
      const converted = asTallyError(error);
      expect(isTallyError(converted)).toBe(true);
      expect(converted).toMatchObject({ code, message: error.message });
      expect(describeError(converted).exit).toBe(2);
    }
    // A plain TypeError with a code is a bug, not a declaration: passed on as it is.
    const bug = Object.assign(new TypeError('x is undefined'), { code: 'PACK_INVALID' });
    expect(isDeclarationError(bug)).toBe(false);
    expect(asTallyError(bug)).toBe(bug);
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
