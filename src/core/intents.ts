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
  const answered = new Set<string>();
  for (const entry of entries)
    if (entry.kind === 'tool_call' && Array.isArray(entry.data.intents))
      for (const id of entry.data.intents) answered.add(String(id));
  return entries.flatMap((entry) => {
    if (entry.kind !== 'intent') return [];
    const intentId = String(entry.data.intentId);
    if (answered.has(intentId)) return [];
    return [
      {
        seq: entry.seq,
        intentId,
        tool: String(entry.data.tool ?? entry.name),
        action: String(entry.data.action),
        resources: resourcesOf(entry.data.resources),
      },
    ];
  });
}

/** `save_file intended to write file a.txt, but no outcome was recorded (…)`: one unmet reason. */
export function unresolvedIntentWords(intent: UnresolvedIntent): string {
  const what = intent.resources.map((resource) => `${resource.space} ${resource.key}`).join(', ');
  return `${intent.tool} intended to ${intent.action} ${what || 'something'}, but no outcome was recorded (its process stopped in between): whether the change happened is unknown until the resource is checked`;
}
