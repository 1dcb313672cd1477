/** A flag as one line: the Coder's `{ spelling, said, truth }`, or whatever a review gave. */
export function flagLine(flag: Record<string, unknown>): string {
  if (typeof flag.spelling === 'string')
    return `the reply says ${flag.spelling} was ${String(flag.said)}; the ledger shows: ${String(flag.truth)}`;
  return JSON.stringify(flag);
}
