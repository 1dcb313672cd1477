import { sameType, singular } from '../../../core/type-words.js';

export { singular };

/** True when two resource words name the same type (`suite` / `suites`, `test case` / `test_cases`). */
export function sameResource(a: string, b: string): boolean {
  return sameType(a, b);
}
