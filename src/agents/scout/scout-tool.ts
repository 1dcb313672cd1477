import { createHash } from 'node:crypto';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { z } from 'zod';
import type { EndingReason } from '../../core/agent/ending.js';
import { type Effect, netEffects } from '../../core/effects.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { defineTool, type ToolDefinition } from '../../core/tool.js';
import { openRecordSource } from '../../packs/records/open-record-source.js';
import type { RecordSource } from '../../packs/records/record-query.js';
import { listStores } from '../../packs/records/stores.js';
import { recordClaimResolver } from '../../packs/records/tools/records-tools.js';
import { runDeterministicScout, type ScoutOptions, type ScoutReport } from './deterministic-scout.js';

export const SCOUT_TOOL = 'scout';

export interface ScoutToolOptions {
  /** The records root the scout searches. */
  root: string;
  /** The ledger the caller's run is in: the scout's sub-run goes into the same one. */
  ledger: Ledger;
  /**
   * The scout's OWN model (an object or a spec): the model tier runs with it. Never taken
   * from the calling agent — a sub-agent does not inherit its parent's model — so without
   * one the deterministic tier runs (the same retrieval, no model call).
   */
  model?: LanguageModelV3 | string;
  env?: NodeJS.ProcessEnv;
  maxRetries?: number;
  /** Where the repository of a goal that names none is looked up (its git origin). */
  cwd?: string;
  /** Opens the records source for one call (default: the root's stores, index checked afresh). */
  openSource?: () => RecordSource;
  /** Deadline of one scout call in ms (default 120 s: a model tier makes up to 7 model calls). */
  timeoutMs?: number;
}

/** One governing record, as the scout's sub-run read it. */
export interface ScoutGoverning {
  path: string;
  /** What found it: `recall`, `keyword: …`, `…; deterministic tier`. */
  label: string;
  title?: string;
  /** sha256 of the content the sub-run read (from its records_cat evidence). */
  sha256: string;
  /** Commands the record states verbatim. */
  commands: string[];
  /** The record verbatim, as the sub-run read it. */
  content?: string;
  /** The sub-run's ledger entry that read it. */
  evidenceSeq: number;
}

export interface ScoutToolResult {
  ok: boolean;
  /** The scout's own run in the same ledger (its meta names the caller's run as `parentRunId`). */
  subRunId: string;
  tier: 'model' | 'deterministic';
  endingReason: EndingReason;
  status: string;
  goal: string;
  repo: { name: string; from: string } | null;
  /** Only records the sub-run verified AND its ledger shows it read with records_cat. */
  governs: ScoutGoverning[];
  /** Verbatim in a record the sub-run read (its ledger shows the read). */
  commands: string[];
  traps: string[];
  unreachable: string[];
  notFound: string[];
  /** What the sub-run claimed and could not back (never listed under governs or commands). */
  dropped: { target: string; why: string }[];
  /** The scout's report as `tally scout` prints it. */
  report: string;
}

/** Endings after which the scout has no report worth acting on: the call failed. */
const FAILED_ENDINGS = new Set<EndingReason>(['model_error', 'aborted', 'tool_failure']);

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The tool's result and evidence from a finished scout sub-run. GOVERNS are the sub-run's
 * verified items re-checked against the sub-run's own ledger entries: a path is reported only
 * when a successful records_cat of that run read it. The evidence carries those reads as
 * `read` effects (with the sub-run id), so the CALLER's verifier can back an "I read X" claim
 * with them — and a record the sub-run never read, or claimed and had dropped, backs nothing.
 */
export function scoutOutcome(
  report: ScoutReport,
  ledger: Ledger,
  source: Pick<RecordSource, 'rows'>,
): { result: ScoutToolResult; evidence: { via: string; effects: Effect[]; subRun: object } } {
  const { result, parts } = report;
  const subRunId = result.runId;
  const nets = netEffects(ledger.entries(subRunId));
  const contents = new Map(report.read.map((record) => [record.path, record.content]));
  const titles = new Map(source.rows().map((row) => [row.path, row.title]));
  const items = [...result.verified, ...(parts.extra ?? [])];
  const governs: ScoutGoverning[] = [];
  for (const item of items) {
    if (item.type !== 'governs') continue;
    const path = String(item.resource ?? item.target);
    const net = nets.get(`record:${path}`);
    if (!net?.read || governs.some((known) => known.path === path)) continue;
    const sha256 = String(net.observed.sha256 ?? '');
    const content = contents.get(path);
    governs.push({
      path,
      label: String(item.label ?? ''),
      ...(titles.get(path) ? { title: titles.get(path) as string } : {}),
      sha256,
      commands: (net.observed.commands as string[] | undefined) ?? [],
      // The content goes back only when it is what the ledger says was read.
      ...(content !== undefined && sha256Of(content) === sha256 ? { content } : {}),
      evidenceSeq: item.evidenceSeq,
    });
  }
  // As the sub-run's verifier has it: verbatim in a record its ledger shows it read.
  const stated = new Set(
    [...nets.values()].flatMap((net) =>
      net.space === 'record' && net.read ? ((net.observed.commands as string[] | undefined) ?? []) : [],
    ),
  );
  const commands = [
    ...new Set(
      items.filter((item) => item.type === 'command' && stated.has(item.target)).map((item) => item.target),
    ),
  ];
  const tier = report.tier;
  const toolResult: ScoutToolResult = {
    ok: !FAILED_ENDINGS.has(result.endingReason),
    subRunId,
    tier,
    endingReason: result.endingReason,
    status: result.status,
    goal: parts.goal,
    repo: parts.repo.repo ? { name: parts.repo.repo, from: parts.repo.from ?? 'unknown' } : null,
    governs,
    commands,
    traps: parts.traps,
    unreachable: [...new Set(parts.unreachable)],
    notFound: parts.notFound,
    dropped: result.dropped.map((entry) => ({ target: String(entry.claim.target), why: entry.why })),
    report: report.text,
  };
  const effects: Effect[] = governs.map((record) => ({
    kind: 'read',
    space: 'record',
    key: record.path,
    id: record.path,
    type: 'record',
    observed: {
      sha256: record.sha256,
      commands: record.commands,
      subRunId,
      subRunSeq: record.evidenceSeq,
    },
  }));
  return {
    result: toolResult,
    evidence: {
      via: `scout run ${subRunId}`,
      subRun: { runId: subRunId, agent: 'scout', tier, endingReason: result.endingReason },
      effects,
    },
  };
}

/**
 * The scout as a sub-agent tool: one call runs the scout on a goal as its own run in the
 * caller's ledger (meta `parentRunId` = the caller's run) and returns its verified report.
 * What the caller may claim rests on the sub-run's evidence: see `scoutOutcome`.
 */
export function scoutTool(options: ScoutToolOptions): ToolDefinition {
  const open = options.openSource ?? (() => openRecordSource(options.root, listStores(options.root)));
  return defineTool({
    name: SCOUT_TOOL,
    description:
      'Before acting on a goal a record may govern (a release, a migration, a deploy, a rule of the project), ask the scout: it finds the knowledge records that govern the goal (recall, keyword probes, one batch read) in its own verified run and returns them — each read, with its content and the commands it states verbatim — plus the repository it resolved, traps, and records reachable by a link that no query found (UNREACHABLE).',
    inputSchema: z.object({
      goal: z.string().min(1).describe('What you are about to do, e.g. "release a version of acme/shop".'),
      session: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe(
          "The client's session id when a Tally gate asked for this scout run: the gate finds the run in the ledger by it.",
        ),
    }),
    annotations: { readOnly: true },
    target: (input) => `scout ${input.goal.replace(/\s+/g, ' ').trim().slice(0, 120)}`,
    timeoutMs: options.timeoutMs ?? 120_000,
    claimResolver: recordClaimResolver(options.root),
    // The ledger keeps the report, not the records' text (the sub-run's evidence has their hashes).
    ledgerView: (result) => ({
      ...(result as ScoutToolResult),
      governs: (result as ScoutToolResult).governs.map(({ content: _content, ...record }) => record),
    }),
    execute: async (input, context) => {
      const source = open();
      try {
        const base: ScoutOptions = {
          goal: input.goal,
          root: options.root,
          source,
          ledger: options.ledger,
          priorDigests: [],
          ...(options.cwd ? { cwd: options.cwd } : {}),
          // The session is what the how-do-i gate looks the run up by, as for `tally scout --session`.
          meta: {
            parentRunId: context.runId,
            calledAs: 'tool',
            ...(input.session ? { session: input.session } : {}),
          },
        };
        const report = options.model
          ? await (await import('./model-scout.js')).runModelScout({
              ...base,
              model: options.model,
              ...(options.env ? { env: options.env } : {}),
              ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
              ...(context.signal ? { signal: context.signal } : {}),
            })
          : await runDeterministicScout(base);
        return scoutOutcome(report, options.ledger, source);
      } finally {
        source.close();
      }
    },
  });
}
