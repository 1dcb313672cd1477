/** A flag as one line: the Coder's `{ spelling, said, truth }`, or whatever a review gave. */
export function flagLine(flag: unknown): string {
  const coder = (flag ?? {}) as { spelling?: unknown; said?: unknown; truth?: unknown; source?: unknown };
  if (typeof coder.spelling === 'string')
    return `the ${coder.source === 'finish' ? 'finish summary' : 'reply'} says ${coder.spelling} was ${String(coder.said)}; the ledger shows: ${String(coder.truth)}`;
  return JSON.stringify(flag);
}
