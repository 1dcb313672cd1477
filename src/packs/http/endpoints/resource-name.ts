import { sameType, singular } from '../../../core/type-words.js';

export { singular };

/** True when a requested or claimed type names a collection's resource (`suite` / `suites`, `test case` / `tests`). */
export function sameResource(claimed: string, actual: string): boolean {
  return sameType(claimed, actual);
}
