import type { LedgerEntry } from './ledger/entry.js';

/**
 * An `intent` entry no `tool_call` entry answers: the call declared a change and committed
 * that before making it, and then no outcome was recorded — its process was killed or lost
 * the ledger in between. The change may or may not have happened; only the resource can say.
 */
export interface UnresolvedIntent {
  seq: number;
  intentId: string;
  tool: string;
  action: string;
  resources: { space: string; key: string }[];
}

function resourcesOf(value: unknown): { space: string; key: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) =>
    item && typeof item === 'object' && typeof item.space === 'string' && typeof item.key === 'string'
      ? [{ space: item.space, key: item.key }]
      : [],
  );
}

/** Intents of a run without an outcome, in ledger order. */
export function unresolvedIntents(entries: readonly LedgerEntry[]): UnresolvedIntent[] {
  const fold = new UnresolvedIntentsFold();
  for (const entry of entries) fold.add(entry);
  return fold.result();
}

/**
 * `unresolvedIntents` one entry at a time, holding only the intents not answered so far and
 * the ids answered (an answer may come before its intent, or an id twice: the whole-run rule
 * is "no tool_call anywhere answers it").
 */
export class UnresolvedIntentsFold {
  private readonly answered = new Set<string>();
  /** By id, each with its place among the intents added (the order the whole-run rule lists them in). */
  private readonly pending = new Map<string, { place: number; intent: UnresolvedIntent }[]>();
  private places = 0;

  add(entry: LedgerEntry): void {
    if (entry.kind === 'tool_call' && Array.isArray(entry.data.intents))
      for (const id of entry.data.intents) {
        const intentId = String(id);
        this.answered.add(intentId);
        this.pending.delete(intentId);
      }
    if (entry.kind !== 'intent') return;
    const intentId = String(entry.data.intentId);
    if (this.answered.has(intentId)) return;
    const intent = {
      place: this.places++,
      intent: {
        seq: entry.seq,
        intentId,
        tool: String(entry.data.tool ?? entry.name),
        action: String(entry.data.action),
        resources: resourcesOf(entry.data.resources),
      },
    };
    const same = this.pending.get(intentId);
    if (same) same.push(intent);
    else this.pending.set(intentId, [intent]);
  }

  /** The intents no entry added so far answers, in ledger order. */
  result(): UnresolvedIntent[] {
    return [...this.pending.values()]
      .flat()
      .sort((a, b) => a.place - b.place)
      .map((pending) => pending.intent);
  }
}

/** `save_file intended to write file a.txt, but no outcome was recorded (…)`: one unmet reason. */
export function unresolvedIntentWords(intent: UnresolvedIntent): string {
  const what = intent.resources.map((resource) => `${resource.space} ${resource.key}`).join(', ');
  return `${intent.tool} intended to ${intent.action} ${what || 'something'}, but no outcome was recorded (its process stopped in between): whether the change happened is unknown until the resource is checked`;
}
