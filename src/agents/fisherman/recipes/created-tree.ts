import { createdResources, netEffects } from '../../../core/effects.js';
import type { LedgerEntry } from '../../../core/ledger/entry.js';
import { sameType } from '../../../core/type-words.js';
import { linkStem, namesParent } from '../../../packs/http/link-field.js';
import type { ParentLink } from '../planned-link.js';

/** One resource a run created and still had at its end, with the request that made it. */
export interface CreatedNode {
  /** The resource URL path (`/api/alpha-shop/suites/101`). */
  key: string;
  type: string;
  id: string;
  title?: string;
  method: string;
  /** The path the create was sent to, as sent. */
  path: string;
  body: Record<string, unknown>;
  /** The earlier node this one is linked to, and how (a path segment or a body field). */
  parent?: { index: number; link: ParentLink };
}

function inputOf(
  entry: LedgerEntry | undefined,
): { method: string; path: string; body: Record<string, unknown> } | undefined {
  const input = entry?.data.input as { method?: unknown; path?: unknown; body?: unknown } | undefined;
  if (!input || typeof input.method !== 'string' || typeof input.path !== 'string') return undefined;
  const body = input.body && typeof input.body === 'object' && !Array.isArray(input.body) ? input.body : {};
  return { method: input.method, path: input.path, body: body as Record<string, unknown> };
}

/** The earlier node a new one sits under: by its path (`…/suites/101/tests`), else by a body field named after the parent's type. */
function parentOf(
  nodes: CreatedNode[],
  observed: Record<string, unknown>,
  path: string,
  body: Record<string, unknown>,
): CreatedNode['parent'] {
  const pathParents = (observed.parents as string[] | undefined) ?? [];
  for (let index = nodes.length - 1; index >= 0; index--) {
    const node = nodes[index] as CreatedNode;
    if (pathParents.includes(node.key) && path.split('?')[0]?.startsWith(`${node.key}/`))
      return { index, link: { kind: 'path', index: node.key.split('/').filter(Boolean).length - 1 } };
  }
  const links = (observed.links as Record<string, string> | undefined) ?? {};
  for (const [field, value] of Object.entries(links)) {
    if (!(field in body)) continue;
    const stem = linkStem(field);
    for (let index = nodes.length - 1; index >= 0; index--) {
      const node = nodes[index] as CreatedNode;
      if (node.id === value && (sameType(stem, node.type) || namesParent(field)))
        return { index, link: { kind: 'body', field, numeric: typeof body[field] === 'number' } };
    }
  }
  return undefined;
}

/**
 * What a run created, in order, rebuilt from its LEDGER alone — the net `created` effects,
 * each with the request input that made it and the parent links the system observed — so a
 * recipe or emitted setup code repeats what happened, not what the model said happened.
 * Reconciled creates (found again after a lost response) have no replayable request and
 * are left out.
 */
export function createdTree(entries: readonly LedgerEntry[]): CreatedNode[] {
  const bySeq = new Map(entries.map((entry) => [entry.seq, entry]));
  const nodes: CreatedNode[] = [];
  for (const net of createdResources(netEffects(entries))) {
    if (net.space !== 'http' || net.id === undefined || !net.type) continue;
    const step = net.history.find((candidate) => candidate.kind === 'created');
    if (!step || step.reconciledFrom !== undefined) continue;
    const input = inputOf(bySeq.get(step.seq));
    if (input?.method !== 'POST') continue;
    const parent = parentOf(nodes, net.observed, input.path, input.body);
    nodes.push({
      key: net.key,
      type: net.type,
      id: net.id,
      ...(typeof net.observed.title === 'string' ? { title: net.observed.title } : {}),
      ...input,
      ...(parent ? { parent } : {}),
    });
  }
  return nodes;
}
