import type { LanguageModelV3 } from '@ai-sdk/provider';
import { type Claim, evidenceView } from '../../core/agent/claims.js';
import type { VerifiedItem } from '../../core/agent/ending.js';
import { runAgent } from '../../core/agent/run-agent.js';
import { recordClaimResolver, recordsTools } from '../../packs/records/tools/records-tools.js';
import { correctedLabelNote, FoundBy } from './confirm-labels.js';
import type { ScoutOptions, ScoutReport } from './deterministic-scout.js';
import { createScoutAgent, scoutVerifier } from './scout-agent.js';
import { budgetedScoutTools, SCOUT_TOOL_BUDGET } from './scout-budget.js';
import { findCandidates, type ScoutCall } from './scout-candidates.js';
import { belowFloorLines, relevanceTerms, splitAtFloor } from './scout-relevance.js';
import { resolveScoutRepo } from './scout-repo.js';
import { formatScoutReport, type ScoutReportParts } from './scout-report.js';
import { markSessionOf } from './scout-session.js';
import { establishedPaths, goalTerms } from './scout-terms.js';
import { findUnreachable } from './scout-unreachable.js';

export interface ModelScoutOptions extends ScoutOptions {
  /** A model object or a spec (`openai:gpt-4.1-mini`). */
  model: LanguageModelV3 | string;
  env?: NodeJS.ProcessEnv;
  maxRetries?: number;
  /** Tool calls per goal (default 4): recall, probes, one batch. */
  maxToolCalls?: number;
  /** Ends the model loop early (the caller's abort, a tool deadline when run as a sub-agent). */
  signal?: AbortSignal;
}

const READ_ONLY = new Set(['records_query', 'records_cat', 'records_recall']);

const INSTRUCTIONS = `You are the scout: you find the records that govern a goal before anyone acts on it.
Work in this order, with at most the number of tool calls the task states:
1. records_recall once, with the goal's key terms: what went wrong before.
2. records_query keyword probes only for what recall did not cover (pass the repo as project when there is one).
3. ONE records_cat batch with every plausible record path that recall or the probes returned.
4. finish: governs lists only records you read with records_cat, each with a label saying what found it ("recall" or "keyword: <terms>"); commands are copied verbatim from the records you read. Judge which records govern the goal; leave out those that do not.
Claims not backed by this run's reads are dropped, so never list a record you did not read or a command no record states.`;

/**
 * The scout with a model choosing the probes and judging what governs. The deterministic
 * tier's candidates are computed first (recall and probes, no reads) and the one batch read
 * always includes them; afterwards every candidate that was read but not claimed is verified
 * from the ledger and added — so the model tier never finds fewer GOVERNS than the tier
 * without a model. The budget (4 calls, one batch) is enforced by the tools themselves.
 */
export async function runModelScout(options: ModelScoutOptions): Promise<ScoutReport> {
  const { goal, source, ledger } = options;
  const context = { root: options.root, source };
  const plainTools = recordsTools(context);
  const repo = resolveScoutRepo(goal, options.priorDigests, options.cwd);
  const terms = goalTerms(goal);
  const direct: ScoutCall = async (name, input) => {
    const tool = plainTools.find((candidate) => candidate.name === name);
    if (!tool) return {};
    return tool.execute(tool.inputSchema.parse(input), { runId: 'scout-candidates', failOpen: () => {} });
  };
  const candidates = await findCandidates(direct, terms, repo.repo);
  const read = new Map<string, string>();
  // What found each record, as the system saw it: the tier-without-a-model's searches, then the model's.
  const found = new FoundBy();
  for (const [path, label] of candidates.labels) found.add(label, [path]);
  const maxCalls = options.maxToolCalls ?? SCOUT_TOOL_BUDGET;
  const tools = budgetedScoutTools(plainTools, {
    maxCalls,
    alsoRead: [...candidates.labels.keys()],
    onRead: (records) => {
      for (const record of records) read.set(record.path, record.content);
    },
    onFound: (label, paths) => found.add(label, paths),
  });
  const agent = createScoutAgent(context, {
    tools,
    instructions: INSTRUCTIONS,
    gates: [
      {
        name: 'recall-first',
        kind: 'requires',
        tools: ['records_query', 'records_cat'],
        requires: 'records_recall',
      },
    ],
    // A scout speaks through its report, not to a user: no silence nudges; the round cap bounds it.
    guards: { maxRounds: maxCalls + 3, silence: false },
    found,
  });
  const established = establishedPaths(options.priorDigests);
  const task = [
    `Goal: ${goal}`,
    `Repository: ${repo.repo ? `${repo.repo} (from the ${repo.from})` : 'none named'}`,
    established.size > 0
      ? `Earlier this session the scout established: ${[...established].join(', ')} — a starting point, not coverage: search again.`
      : 'No earlier digest this session: start cold.',
    `Budget: at most ${maxCalls} tool calls, one records_cat batch.`,
  ].join('\n');
  const result = await runAgent(agent, task, {
    ledger,
    model: options.model,
    ...(options.env ? { env: options.env } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    meta: {
      ...options.meta,
      goal,
      repo: repo.repo ?? null,
      priorDigests: options.priorDigests.length,
      tier: 'model',
    },
  });
  const entries = ledger.entries(result.runId);
  // The relevance floor both tiers share: what the model claimed below it does not govern either.
  const { above, below } = splitAtFloor(
    relevanceTerms(terms, repo.repo),
    [...read].map(([path, content]) => ({ path, content })),
  );
  const aboveContent = [...read].filter(([path]) => above.has(path)).map(([, content]) => content);
  const relevant = {
    ...result,
    verified: result.verified.filter((item) =>
      item.type === 'governs'
        ? above.has(item.target)
        : item.type === 'command'
          ? aboveContent.some((content) => content.includes(item.target))
          : true,
    ),
  };
  const aboveLabels = new Map([...candidates.labels].filter(([path]) => above.has(path)));
  const extra = await deterministicFloor(relevant, aboveLabels, context.root, entries);
  const recordCalls = entries.filter(
    (entry) => entry.kind === 'tool_call' && READ_ONLY.has(entry.name ?? ''),
  ).length;
  const returned = [...new Set([...read.keys(), ...candidates.labels.keys()])];
  const readText = aboveContent.join('\n').toLowerCase();
  const added = extra.filter((item) => item.type === 'governs').length;
  const parts: ScoutReportParts = {
    goal,
    repo,
    result: relevant,
    extra,
    established,
    traps: candidates.traps,
    priorDigests: options.priorDigests.length,
    unreachable: [
      ...findUnreachable(
        source,
        returned.filter((path) => !read.has(path) || above.has(path)),
      ),
      ...belowFloorLines(relevanceTerms(terms, repo.repo), below, candidates.queries),
    ],
    notFound: terms.filter((term) => !readText.includes(term)),
    notes: [
      `model tier: ${recordCalls} records tool call(s) of ${maxCalls}, one records_cat batch; ended ${result.endingReason}.`,
      ...relevant.verified.flatMap((item) => correctedLabelNote(item) ?? []),
      ...(added > 0
        ? [
            `${added} governing record(s) the model did not claim were added from the tier without a model (read in this run).`,
          ]
        : []),
    ],
  };
  const records = [...read].map(([path, content]) => ({ path, content }));
  await markSessionOf(options);
  return { result, text: formatScoutReport(parts), parts, tier: 'model', read: records };
}

/** The deterministic tier's candidates this run read but the model did not claim, verified from the ledger. */
async function deterministicFloor(
  result: ScoutReport['result'],
  labels: Map<string, string>,
  root: string,
  entries: Parameters<typeof evidenceView>[1],
): Promise<VerifiedItem[]> {
  const claimed = new Set(
    result.verified.filter((item) => item.type === 'governs').map((item) => item.target),
  );
  const view = evidenceView(result.runId, entries, READ_ONLY);
  const missing = [...labels.keys()].filter(
    (path) => !claimed.has(path) && view.net.get(`record:${path}`)?.read,
  );
  if (missing.length === 0) return [];
  const commandsOf = (path: string) =>
    (view.net.get(`record:${path}`)?.observed.commands as string[] | undefined) ?? [];
  const claimedCommands = new Set(
    result.verified.filter((item) => item.type === 'command').map((item) => item.target),
  );
  const claims: Claim[] = [
    ...missing.map((path) => ({
      target: path,
      type: 'governs',
      label: `${labels.get(path)}; deterministic tier`,
    })),
    ...[...new Set(missing.flatMap(commandsOf))]
      .filter((command) => !claimedCommands.has(command))
      .map((command) => ({ target: command, type: 'command' })),
  ];
  const verdicts = await scoutVerifier(recordClaimResolver(root))(claims, view);
  return verdicts.flatMap((verdict) => (verdict.verified ? [verdict.item] : []));
}
