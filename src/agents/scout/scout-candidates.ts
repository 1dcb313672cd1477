import { createRedactor } from '../../core/redact.js';
import type { RecallHit } from '../../packs/records/recall.js';
import type { RecordRow } from '../../packs/records/record-query.js';
import { queryLabel } from './confirm-labels.js';

/** A records tool call, through the ledger (runPlan) or straight to the tool. */
export type ScoutCall = (toolName: string, input: unknown) => Promise<{ result?: unknown }>;

export interface ScoutCandidates {
  /** Plausible record path → the evidence label that found it (`recall`, `keyword: …`). */
  labels: Map<string, string>;
  traps: string[];
  probeTerms: string[];
  /** The queries run, as a user would type them (for the report's UNREACHABLE lines). */
  queries: string[];
}

/**
 * The deterministic retrieval: recall first, then keyword probes only for the terms recall
 * left uncovered (scoped to the repo when there is one, else plain). No records are read here.
 */
export async function findCandidates(
  call: ScoutCall,
  terms: string[],
  repo: string | undefined,
): Promise<ScoutCandidates> {
  const labels = new Map<string, string>();
  const queries = [`records query --recall "${terms.join(' ')}"`];
  const recalled = await call('records_recall', { terms: terms.join(' '), limit: 20 });
  const hits = ((recalled.result as { hits?: RecallHit[] } | undefined)?.hits ?? []) as RecallHit[];
  for (const hit of hits) if (hit.source === 'record') labels.set(hit.where, 'recall');
  // Shown and kept in digests: scrubbed as the ledger scrubs (a mistake line may quote a token).
  const redactor = createRedactor();
  const traps = hits.map((hit) => redactor.redactText(`${hit.where} — ${hit.text}`));
  const recallText = hits.map((hit) => hit.text.toLowerCase()).join(' ');
  const gaps = terms.filter((term) => !recallText.includes(term));
  const probeTerms = gaps.length > 0 ? gaps : terms;
  let probed: RecordRow[] = [];
  if (probeTerms.length > 0) {
    const withProject = repo
      ? await call('records_query', { keyword: probeTerms.join(' '), project: repo, limit: 8 })
      : undefined;
    if (repo) queries.push(`records query --keyword "${probeTerms.join(' ')}" --project ${repo}`);
    probed = ((withProject?.result as { records?: RecordRow[] } | undefined)?.records ?? []) as RecordRow[];
    if (probed.length === 0) {
      queries.push(`records query --keyword "${probeTerms.join(' ')}"`);
      const plain = await call('records_query', { keyword: probeTerms.join(' '), limit: 8 });
      probed = ((plain.result as { records?: RecordRow[] } | undefined)?.records ?? []) as RecordRow[];
    }
  }
  // Labelled as the model tier's own queries are (confirm-labels.ts), so the two compare.
  const probeLabel = queryLabel({ keyword: probeTerms.join(' ') });
  for (const row of probed) if (!labels.has(row.path)) labels.set(row.path, probeLabel);
  return { labels, traps, probeTerms, queries };
}
