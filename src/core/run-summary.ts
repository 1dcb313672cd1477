import { foldEntryEffects, type NetEffects } from './effects.js';
import { type UnresolvedIntent, UnresolvedIntentsFold } from './intents.js';
import type { LedgerEntry, TypedEntry } from './ledger/entry.js';

/**
 * What a run's summary shows (`runs show`'s tail, the top of `report`): the net effects, the
 * intents no call answered, the claims, the first contract and the first end.
 */
export interface RunSummary {
  nets: NetEffects;
  unresolved: UnresolvedIntent[];
  claims: TypedEntry<'claim'>[];
  contract: TypedEntry<'contract'> | undefined;
  end: TypedEntry<'end'> | undefined;
}

/**
 * A run's summary folded one entry at a time, so a reader streaming a run of any length holds
 * the net state (one record per resource with its history, the unanswered intents, the claims)
 * and never the entries themselves — a tool call's input, result and evidence go with its page.
 */
export class RunSummaryFold {
  private readonly nets: NetEffects = new Map();
  private readonly intents = new UnresolvedIntentsFold();
  private readonly claims: TypedEntry<'claim'>[] = [];
  private contract: TypedEntry<'contract'> | undefined;
  private end: TypedEntry<'end'> | undefined;

  add(entry: LedgerEntry): void {
    foldEntryEffects(this.nets, entry);
    this.intents.add(entry);
    if (entry.kind === 'claim') this.claims.push(entry);
    else if (entry.kind === 'contract') this.contract ??= entry;
    else if (entry.kind === 'end') this.end ??= entry;
  }

  result(): RunSummary {
    return {
      nets: this.nets,
      unresolved: this.intents.result(),
      claims: this.claims,
      contract: this.contract,
      end: this.end,
    };
  }
}

/** The summary of a whole run held in memory. */
export function summarizeRun(entries: readonly LedgerEntry[]): RunSummary {
  const fold = new RunSummaryFold();
  for (const entry of entries) fold.add(entry);
  return fold.result();
}
