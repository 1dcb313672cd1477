import type { NetEffect } from '../../core/effects.js';

const normalize = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/** The observed title carries the quoted one (the run's marker is appended to every title it sends). */
export function hasTitle(net: NetEffect, title: string): boolean {
  const observed = net.observed.title;
  return typeof observed === 'string' && normalize(observed).includes(normalize(title));
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
