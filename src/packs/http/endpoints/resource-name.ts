import { sameType, singular, typeWords } from '../../../core/type-words.js';

export { singular };

/** True when a requested or claimed type names a collection's resource (`suite` / `suites`, `test case` / `tests`). */
export function sameResource(claimed: string, actual: string): boolean {
  return sameType(claimed, actual);
}

const canonical = (name: string) => typeWords(name).join(' ');

/**
 * The resources a requested type names: the ones it names exactly if any (`groups` is
 * `/groups`, not `/user-groups` beside it), else every looser match (`groups` → `/user-groups`).
 */
export function resourcesNamed(type: string, resources: Iterable<string>): string[] {
  const loose = [...new Set(resources)].filter((resource) => sameType(type, resource));
  const exact = loose.filter((resource) => canonical(resource) === canonical(type));
  return exact.length > 0 ? exact : loose;
}

/** Why a requested type picks no one resource: it names several (`groups` → `/user-groups`, `/admin-groups`) and none exactly. */
export function ambiguousResource(type: string, resources: Iterable<string>): string | undefined {
  const named = resourcesNamed(type, resources);
  if (new Set(named.map(canonical)).size <= 1) return undefined;
  return `"${type}" could be any of ${named.join(', ')}, and names none of them exactly: say which`;
}
