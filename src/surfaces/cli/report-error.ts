import { TallyError } from '../../core/errors.js';
import { EXIT } from './exit-codes.js';

const UNAVAILABLE = new Set([
  'LEDGER_UNAVAILABLE',
  'ROOT_NOT_FOUND',
  'STORE_UNREADABLE',
  'INDEX_UNAVAILABLE',
]);

/** Prints an error the user can act on and picks the stable exit code for it. */
export function reportError(error: unknown): number {
  if (error instanceof TallyError) {
    process.stderr.write(`tally: ${error.message}\n`);
    return UNAVAILABLE.has(error.code) ? EXIT.unavailable : EXIT.usage;
  }
  if (error instanceof RangeError) {
    process.stderr.write(`tally: ${error.message}\n`);
    return EXIT.usage;
  }
  process.stderr.write(
    `tally: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT.unavailable;
}
