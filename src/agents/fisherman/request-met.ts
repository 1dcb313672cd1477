import type { RequestCheckContext } from '../../core/agent/agent-definition.js';
import { createdResources, type NetEffect } from '../../core/effects.js';
import { sameType, singular } from '../../core/type-words.js';
import type { Scope } from '../../packs/http/endpoints/scope.js';
import { parentOf } from './parent-link.js';
import type { DataRequest } from './parse-data-request.js';

const plural = (count: number, word: string) => `${count} ${count === 1 ? singular(word) : word}`;

function name(net: NetEffect): string {
  return `${net.type ?? 'item'} ${net.id ?? net.key}`;
}

/**
 * Whether the run's net effects meet a request of known structure: the right number of
 * each requested type, each child linked to a parent this run created, everything inside
 * the requested scope. Returns what is missing (empty when met).
 */
export function requestProblems(request: DataRequest, scope: Scope, context: RequestCheckContext): string[] {
  const created = createdResources(context.net).filter((net) => net.space === 'http');
  const problems: string[] = [];
  const parents = created.filter((net) => net.type && sameType(request.type, net.type));
  if (parents.length !== request.count)
    problems.push(`asked for ${plural(request.count, request.type)}, this run created ${parents.length}`);
  if (request.children) {
    const { type, count } = request.children;
    const children = created.filter((net) => net.type && sameType(type, net.type) && !parents.includes(net));
    const wanted = count * request.count;
    if (children.length !== wanted)
      problems.push(
        `asked for ${plural(wanted, type)} (${count} per ${singular(request.type)}), this run created ${children.length}`,
      );
    const perParent = new Map<NetEffect, number>();
    for (const child of children) {
      const { parent, claimed } = parentOf(child, request.type, parents);
      if (parent) perParent.set(parent, (perParent.get(parent) ?? 0) + 1);
      else
        problems.push(
          `${name(child)} is not linked to a ${singular(request.type)} this run created${claimed ? ` (it points at ${claimed})` : ''}`,
        );
    }
    for (const parent of parents) {
      const linked = perParent.get(parent) ?? 0;
      if (linked !== count) problems.push(`${name(parent)} has ${linked} of the ${count} ${type} asked for`);
    }
  }
  if (scope.key && !scope.fallback) {
    for (const net of created) {
      const segments = net.key
        .split('/')
        .filter(Boolean)
        .map((segment) => decodeURIComponent(segment));
      if (!segments.includes(scope.key))
        problems.push(`${name(net)} (${net.key}) is outside the requested scope ${scope.path}`);
    }
  }
  return problems;
}
