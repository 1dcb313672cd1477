import { withoutMarker } from '../../core/agent/claims.js';
import type { NetEffect } from '../../core/effects.js';

// Case stays: a title the request quotes is the user's wording ("API" is not "api"). Only
// Unicode composition and runs of white space are not the user's choice.
const normalize = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ');

/**
 * The observed title is the quoted one, or is it followed by the run's marker (every tier
 * stamps the marker on the titles it sends). Never a title that merely contains it:
 * "Not Checkout" is not a suite called "Checkout".
 */
export function hasTitle(net: NetEffect, title: string): boolean {
  const observed = net.observed.title;
  if (typeof observed !== 'string') return false;
  const want = normalize(title);
  if (normalize(observed) === want) return true;
  const rest = withoutMarker(observed, net.observed.titleMarker);
  return rest !== undefined && normalize(rest) === want;
}

/**
 * Each quoted title on a distinct resource: a maximum bipartite matching (augmenting paths),
 * so "A" never takes the only resource "AB" could have. Returns the titles left unmatched
 * and, per title index, the resource it got.
 */
export function matchTitles(
  titles: readonly string[],
  resources: readonly NetEffect[],
): { matched: Map<number, NetEffect>; unmatched: string[] } {
  const owner = new Map<NetEffect, number>();
  const augment = (title: number, seen: Set<NetEffect>): boolean => {
    for (const resource of resources) {
      if (seen.has(resource) || !hasTitle(resource, titles[title] as string)) continue;
      seen.add(resource);
      const holder = owner.get(resource);
      if (holder === undefined || augment(holder, seen)) {
        owner.set(resource, title);
        return true;
      }
    }
    return false;
  };
  const unmatched: string[] = [];
  titles.forEach((title, index) => {
    if (!augment(index, new Set())) unmatched.push(title);
  });
  const matched = new Map<number, NetEffect>();
  for (const [resource, title] of owner) matched.set(title, resource);
  return { matched, unmatched };
}
