import type { LedgerEntry } from './ledger/entry.js';
import { sameType } from './type-words.js';

/** What a successful tool call did to one resource. A failed call has no effects. */
export type EffectKind = 'created' | 'updated' | 'deleted' | 'read';

export const EFFECT_KINDS: readonly EffectKind[] = ['created', 'updated', 'deleted', 'read'];

/**
 * One effect on one resource. `space` + `key` is the canonical identity, built by the
 * system (never the model): `http` + `/items/articles/1`, `file` + `src/a.ts`,
 * `record` + `references/x.md`. `id` and `type` are how a person names it (`article 1`).
 */
export interface Effect {
  kind: EffectKind;
  space: string;
  key: string;
  id?: string;
  type?: string;
  /**
   * What the system observed about the resource: status, server fields, bytes, sha256, links;
   * `titleMarker`: the run's marker that ends the observed title (a claim may leave it out).
   */
  observed?: Record<string, unknown>;
  /** A move: the other end (the destination of a `deleted`, the source of a `created`). */
  movedTo?: string;
  movedFrom?: string;
  /**
   * A create whose id its answer did not give (lost, or a 2xx without one), found afterwards by
   * a read carrying this run's marker: the call that made it, with why, as the pack words it.
   */
  reconciledFrom?: string;
  /** The failed call this effect shows succeeded after all (its tool and intent). */
  recovers?: { tool: string; intent: string };
}

/** One change in a resource's history, in ledger order. */
export interface EffectStep {
  kind: EffectKind;
  seq: number;
  via: string;
  movedTo?: string;
  reconciledFrom?: string;
}

/** The final state of one resource after a whole run, folded from its effects in order. */
export interface NetEffect {
  space: string;
  key: string;
  id?: string;
  type?: string;
  /** The net change this run made; undefined when it only read (or created then deleted). */
  change?: 'created' | 'updated' | 'deleted';
  /** Whether this run read it (a read never proves a change). */
  read: boolean;
  /** True when the run saw it existing before it changed it (so a later "create" is an update). */
  preExisting: boolean;
  /** The latest observation (a later update's facts replace a create's). */
  observed: Record<string, unknown>;
  history: EffectStep[];
}

export type NetEffects = Map<string, NetEffect>;

export function resourceId(space: string, key: string): string {
  return `${space}:${key}`;
}

function fold(net: NetEffect, effect: Effect, step: EffectStep): void {
  net.history.push(step);
  if (effect.id !== undefined) net.id = effect.id;
  if (effect.type !== undefined) net.type = effect.type;
  if (effect.kind === 'read') {
    net.read = true;
    // Seen existing before any change of ours: it predates the run — unless it carries this
    // run's marker: then it is a create of ours whose answer had not come back when a read
    // running beside it (another create's look-up) listed it.
    if (
      net.change === undefined &&
      effect.observed?.titleMarker === undefined &&
      !net.history.some((earlier) => earlier.kind !== 'read')
    )
      net.preExisting = true;
    if (effect.observed && net.change !== 'deleted') net.observed = { ...net.observed, ...effect.observed };
    return;
  }
  if (effect.observed) net.observed = { ...net.observed, ...effect.observed };
  switch (effect.kind) {
    case 'created':
      // Re-created after our delete, or "created" while it already existed: net, an update.
      net.change = net.change === 'deleted' || net.preExisting ? 'updated' : 'created';
      break;
    case 'updated':
      if (net.change !== 'created') {
        net.change = 'updated';
        net.preExisting = true;
      }
      break;
    case 'deleted':
      // Created and deleted in the same run: nothing of ours is left.
      net.change = net.change === 'created' ? undefined : 'deleted';
      if (net.change === 'deleted') net.preExisting = true;
      break;
  }
}

/**
 * The well-formed effects a call's evidence lists: an object with a string key and a known kind.
 * The ledger keeps effects as they were written; one that is not well formed is skipped here,
 * and the call's other effects still count.
 */
export function effectsOf(evidence: { effects?: unknown[] } | undefined): Effect[] {
  // An entry built in memory (not read from the store) may hold anything here.
  if (!Array.isArray(evidence?.effects)) return [];
  return evidence.effects.filter(
    (effect): effect is Effect =>
      effect !== null &&
      typeof effect === 'object' &&
      typeof (effect as Effect).key === 'string' &&
      EFFECT_KINDS.includes((effect as Effect).kind),
  );
}

/**
 * Folds a run's effects, in ledger order, into one final state per resource. Computed from
 * the ledger alone (successful `tool_call` entries and their `evidence.effects`), so anyone
 * can recompute it.
 */
export function netEffects(entries: readonly LedgerEntry[]): NetEffects {
  const nets: NetEffects = new Map();
  for (const entry of entries) foldEntryEffects(nets, entry);
  return nets;
}

/**
 * Folds one entry's effects into `nets` (`netEffects`, one entry at a time: a reader streaming
 * a run keeps the folded state, not the entries).
 */
export function foldEntryEffects(nets: NetEffects, entry: LedgerEntry): void {
  if (entry.kind !== 'tool_call' || entry.outcome !== 'ok') return;
  const evidence = entry.data.evidence;
  if (!Array.isArray(evidence?.effects)) return;
  const via = evidence.via ?? `${String(entry.data.tool)} ${entry.data.target ?? ''}`;
  for (const effect of effectsOf(evidence)) {
    const id = resourceId(effect.space, effect.key);
    let net = nets.get(id);
    if (!net) {
      net = {
        space: effect.space,
        key: effect.key,
        read: false,
        preExisting: false,
        observed: {},
        history: [],
      };
      nets.set(id, net);
    }
    fold(net, effect, {
      kind: effect.kind,
      seq: entry.seq,
      via,
      ...(effect.movedTo ? { movedTo: effect.movedTo } : {}),
      ...(effect.reconciledFrom !== undefined ? { reconciledFrom: effect.reconciledFrom } : {}),
    });
  }
}

/** Every resource this run created and that still exists at the end, in creation order. */
export function createdResources(nets: NetEffects): NetEffect[] {
  return [...nets.values()]
    .filter((net) => net.change === 'created')
    .sort((a, b) => firstChange(a) - firstChange(b));
}

/** Sequence number of the first non-read step. */
export function firstChange(net: NetEffect): number {
  return net.history.find((step) => step.kind !== 'read')?.seq ?? net.history[0]?.seq ?? 0;
}

/** The step that made the net change (the latest write), for citing it. */
export function changingStep(net: NetEffect): EffectStep | undefined {
  return [...net.history].reverse().find((step) => step.kind !== 'read');
}

/** An id as a server reads it from a path: digits without their leading zeros (`0101` is `101`). */
function idAsRead(id: string): string {
  return /^\d+$/.test(id) ? id.replace(/^0+(?=\d)/, '') : id;
}

/**
 * Resources this run changed after it made `net` that may be `net` under another spelling of
 * its path: the same space, type and id at another key (`/api/projects/x/suites/101` beside
 * `/api/x/suites/101`, `…/suites/0101` beside `…/suites/101`), updated or deleted. The ledger
 * keys resources by path, so it cannot tell whether `net` still holds what its create observed:
 * a claim of it, or a count that includes it, is not backed.
 */
export function changedUnderAnotherPath(net: NetEffect, nets: NetEffects): NetEffect[] {
  if (net.id === undefined || net.type === undefined) return [];
  const id = idAsRead(net.id);
  const type = net.type;
  const made = firstChange(net);
  return [...nets.values()].filter(
    (other) =>
      other !== net &&
      other.space === net.space &&
      other.key !== net.key &&
      (other.change === 'updated' || other.change === 'deleted') &&
      other.id !== undefined &&
      idAsRead(other.id) === id &&
      other.type !== undefined &&
      sameType(type, other.type) &&
      (changingStep(other)?.seq ?? 0) > made,
  );
}
