import type { LedgerEntry } from './ledger/entry.js';

/**
 * What a streamed reader keeps of an entry for the run's summary (net effects, unresolved
 * intents, claims, contract, ending) once its timeline line is written: claims, contracts,
 * intents and the end whole (they are small), a tool call only as its effects and the intents
 * it answers (its input and result, the bulk of a run, are dropped), anything else not at all.
 * `netEffects`, `unresolvedIntents` and the summary read the kept entries as they would the run's.
 */
export function keepForSummary(entry: LedgerEntry): LedgerEntry | undefined {
  if (entry.kind === 'claim' || entry.kind === 'contract' || entry.kind === 'intent' || entry.kind === 'end')
    return entry;
  if (entry.kind !== 'tool_call') return undefined;
  const evidence = entry.data.evidence;
  const effects = entry.outcome === 'ok' && Array.isArray(evidence?.effects) ? evidence.effects : undefined;
  const intents = Array.isArray(entry.data.intents) ? entry.data.intents : undefined;
  if (!effects && !intents) return undefined;
  return {
    ...entry,
    data: {
      tool: entry.data.tool,
      target: entry.data.target,
      ...(effects ? { evidence: { effects, via: evidence?.via } } : {}),
      ...(intents ? { intents } : {}),
    },
  };
}
