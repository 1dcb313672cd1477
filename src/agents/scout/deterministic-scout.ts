import type { RunResult } from '../../core/agent/ending.js';
import { runPlan } from '../../core/agent/run-plan.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import type { RecordSource } from '../../packs/records/record-query.js';
import { createScoutAgent, type ScoutFinish } from './scout-agent.js';
import { findCandidates } from './scout-candidates.js';
import { belowFloorLines, relevanceTerms, splitAtFloor } from './scout-relevance.js';
import { resolveScoutRepo } from './scout-repo.js';
import { formatScoutReport, type ScoutReportParts } from './scout-report.js';
import { markSessionOf } from './scout-session.js';
import { establishedPaths, goalTerms } from './scout-terms.js';
import { findUnreachable } from './scout-unreachable.js';

export interface ScoutOptions {
  goal: string;
  root: string;
  source: RecordSource;
  ledger: Ledger;
  /** Digests of earlier scout runs in this session (newest first). */
  priorDigests: string[];
  cwd?: string;
  /** Added to the run's meta: a sub-run names its parent here (`parentRunId`). */
  meta?: Record<string, unknown>;
  /** Aborting it (an interrupt) stops the run between calls; it ends `aborted`. */
  signal?: AbortSignal;
  /** How long calls in flight at an abort get to settle (default 5 s). */
  graceMs?: number;
}

export interface ScoutReport {
  result: RunResult;
  text: string;
  /** What the text was made of, for a caller that wants it structured (the scout tool). */
  parts: ScoutReportParts;
  /** Which tier ran: with a model, or the same retrieval without one. */
  tier: 'model' | 'deterministic';
  /** The records the one batch read, verbatim (path and content). */
  read: { path: string; content: string }[];
}

/**
 * The scout without a model: warm start from this session's digests, recall first, keyword
 * probes only for the gaps, then ONE records_cat batch. Every call is in the ledger and the
 * report goes through the same verifier a model's would.
 */
export async function runDeterministicScout(options: ScoutOptions): Promise<ScoutReport> {
  const { goal, source } = options;
  const agent = createScoutAgent({ root: options.root, source });
  const repo = resolveScoutRepo(goal, options.priorDigests, options.cwd);
  const terms = goalTerms(goal);
  let traps: string[] = [];
  let unreachable: string[] = [];
  let notFound: string[] = [];
  let read: { path: string; content: string }[] = [];

  const result = await runPlan(
    agent,
    goal,
    async (call) => {
      const candidates = await findCandidates(call, terms, repo.repo);
      traps = candidates.traps;
      const plausible = [...candidates.labels.keys()];
      if (plausible.length === 0) {
        notFound = terms;
        return { stop: `No record matches "${goal}" (terms: ${terms.join(', ') || 'none'}).` };
      }
      const cat = await call('records_cat', { paths: plausible });
      read = ((cat.result as { records?: { path: string; content: string }[] } | undefined)?.records ??
        []) as { path: string; content: string }[];
      // Read is not governing: only records above the relevance floor govern (and give commands).
      const { above, below } = splitAtFloor(relevanceTerms(terms, repo.repo), read);
      const governing = plausible.filter((path) => above.has(path));
      unreachable = [
        ...findUnreachable(source, governing),
        ...belowFloorLines(relevanceTerms(terms, repo.repo), below, candidates.queries),
      ];
      const matchedText = read
        .filter((record) => above.has(record.path))
        .map((record) => record.content.toLowerCase())
        .join('\n');
      notFound = terms.filter((term) => !matchedText.includes(term));
      if (governing.length === 0)
        return { stop: `No record matches enough of "${goal}" to govern it (terms: ${terms.join(', ')}).` };
      const commands = [
        ...new Set(
          ((cat.evidence?.files as { path: string; commands: string[] }[] | undefined) ?? [])
            .filter((file) => above.has(file.path))
            .flatMap((file) => file.commands),
        ),
      ];
      const finish: ScoutFinish = {
        summary: `${governing.length} record(s) govern "${goal}".`,
        governs: governing.map((path) => ({ path, label: candidates.labels.get(path) as string })),
        commands,
      };
      return { finish };
    },
    {
      ledger: options.ledger,
      meta: { ...options.meta, goal, repo: repo.repo ?? null, priorDigests: options.priorDigests.length },
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
    },
  );
  const parts: ScoutReportParts = {
    goal,
    repo,
    result,
    established: establishedPaths(options.priorDigests),
    traps,
    priorDigests: options.priorDigests.length,
    unreachable,
    notFound,
  };
  await markSessionOf(options);
  return { result, text: formatScoutReport(parts), parts, tier: 'deterministic', read };
}
