import { z } from 'zod';
import { netEffects } from '../effects.js';
import { unresolvedIntents, unresolvedIntentWords } from '../intents.js';
import type { LedgerEntry, RunRecord } from '../ledger/entry.js';
import {
  type Claim,
  type ClaimVerdict,
  type ClaimVerifier,
  evidenceView,
  verifyAgainstEffects,
} from './claims.js';
import { ENDING_REASONS, type EndingReason, type RunStatus, type VerifiedItem } from './ending.js';
import { type SessionEnd, sessionEndSchema, sessionFacts } from './recompute-session.js';
import { callsWithoutIntentKey, unrecoveredFailures } from './run-status.js';
import { decideVerdict, type VerdictEnding, type VerdictInputs } from './run-verdict.js';
import { overCounts } from './summary-counts.js';
import { unbackedContent } from './verify-finish.js';

/** One thing in the ledger that does not agree with the verdict recomputed from it. */
export interface VerifyMismatch {
  /** The entry it is about (`seq`), when there is one. */
  seq?: number;
  /** The entry's kind (`claim`, `end`, `tool_call`…), or `missing` for an entry that is not there. */
  kind: string;
  /** The tool whose evidence is involved, when one is. */
  tool?: string;
  /** What disagrees, in words. */
  what: string;
  recorded?: unknown;
  recomputed?: unknown;
}

/** The parts of a verdict that `tally verify` compares. */
export interface VerdictSummary {
  status: RunStatus;
  reason: EndingReason;
  unmet: string[];
  verified: number;
  dropped: number;
  duplicates: number;
  /** A session's calls (a run that claimed nothing): its status is counted from them. */
  calls?: { toolCalls: number; failures: number };
}

export interface RecomputedRun {
  runId: string;
  agent: string;
  /** The `end` entry's verdict; undefined when the run has none. */
  recorded?: VerdictSummary;
  recomputed?: VerdictSummary;
  /** True only when the recomputed verdict is the recorded one and every claim entry agrees. */
  matches: boolean;
  mismatches: VerifyMismatch[];
  /** Inputs of the rule taken as the end entry records them, with why they could not be re-checked. */
  notRechecked: string[];
  /** The net effects the run left, for a live re-check. */
  net: ReturnType<typeof netEffects>;
}

export interface RecomputeOptions {
  /** The agent's claim verifier, rebuilt without live resources (default: the effect verifier). */
  verifier?: ClaimVerifier;
}

const statusSchema = z.enum(['success', 'partial', 'failed']);
const reasonSchema = z.enum(ENDING_REASONS);
const strings = z.array(z.string());

// The end entry is read as data from outside: a hand-edited ledger may hold anything.
const endSchema = z.object({
  status: statusSchema,
  reason: reasonSchema,
  unmet: strings.optional(),
  verified: z.number().int().nonnegative(),
  dropped: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative().optional(),
  failed: z
    .array(z.object({ target: z.string().optional(), type: z.string().optional(), reason: z.string() }))
    .optional(),
  contract: z.unknown().optional(),
  checks: z
    .object({
      ending: z.enum(['finish', 'answer', 'other']),
      reason: reasonSchema,
      summary: z.string().optional(),
      request: strings.optional(),
      contract: strings.optional(),
      types: strings.optional(),
      plan: z.boolean().optional(),
      review: z
        .object({
          status: statusSchema.optional(),
          unmet: strings.optional(),
          recovery: z.object({ reason: reasonSchema, summary: z.string() }).optional(),
        })
        .optional(),
    })
    .optional(),
});

type EndData = z.infer<typeof endSchema>;

/** Sequence numbers a run's entries skip: entries removed from the ledger. */
function missingSeqs(entries: readonly LedgerEntry[]): number[] {
  const missing: number[] = [];
  let expected = 1;
  for (const entry of entries) {
    for (; expected < entry.seq && missing.length < 50; expected += 1) missing.push(expected);
    expected = entry.seq + 1;
  }
  return missing;
}

/** The claims of the finish that ended the run: the last unbroken run of `claim` entries before the end. */
function finishClaims(entries: readonly LedgerEntry[]): LedgerEntry[] {
  const claims: LedgerEntry[] = [];
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index] as LedgerEntry;
    // The finish call's own entry (and any fail-open) may follow its claims; an earlier batch was a rejected finish.
    if (entry.kind === 'claim') claims.unshift(entry);
    else if (claims.length > 0) break;
  }
  return claims;
}

/** A claim as the verifier sees it again: a verified one is re-checked at the resource it was resolved to. */
function claimOf(entry: LedgerEntry): Claim {
  const claim = (entry.data.claim ?? {}) as Claim;
  const resource = entry.data.resource;
  // The key the run resolved the claim to (a verified claim's, or the one a duplicate repeats):
  // spellings (`./src/b.ts`, `src/../src/b.ts`) were resolved by the live run, not again here.
  return (entry.outcome === 'verified' || entry.outcome === 'duplicate') && typeof resource === 'string'
    ? { ...claim, target: resource }
    : claim;
}

function outcomeOf(verdict: ClaimVerdict): string {
  return verdict.verified ? 'verified' : verdict.duplicate ? 'duplicate' : 'dropped';
}

const toolAt = (entries: readonly LedgerEntry[], seq: unknown): string | undefined => {
  const entry = entries.find((candidate) => candidate.seq === seq);
  return entry?.kind === 'tool_call' ? String(entry.data.tool) : undefined;
};

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** The ending kind of a run recorded before `checks` existed: read from its reason and its claims. */
function guessEnding(end: EndData, claims: readonly LedgerEntry[]): VerdictEnding {
  if (end.reason !== 'finished') return 'other';
  return claims.length > 0 ? 'finish' : 'answer';
}

/**
 * Recomputes a past run's verdict from its ledger entries alone — net effects, claims, the
 * contract, the status rule (`decideVerdict`, the function `finalize` used) — and lists each
 * way the ledger disagrees with its `end` entry, naming the entry. Pure: reads nothing else.
 */
export async function recomputeVerdict(
  run: RunRecord,
  options: RecomputeOptions = {},
): Promise<RecomputedRun> {
  const entries = [...run.entries].sort((a, b) => a.seq - b.seq);
  const mismatches: VerifyMismatch[] = [];
  const notRechecked: string[] = [];
  for (const seq of missingSeqs(entries))
    mismatches.push({
      seq,
      kind: 'missing',
      what: `entry #${seq} is not in the ledger (removed after the run)`,
    });
  const endIndex = entries.findIndex((entry) => entry.kind === 'end');
  const before = endIndex === -1 ? entries : entries.slice(0, endIndex);
  const net = netEffects(before);
  const base = { runId: run.run.id, agent: run.run.agent, net, notRechecked };
  if (endIndex === -1) {
    mismatches.push({
      kind: 'end',
      what: 'the run has no end entry: it never ended, or its end was removed',
    });
    return { ...base, matches: false, mismatches };
  }
  const endEntry = entries[endIndex] as LedgerEntry;
  const parsed = endSchema.safeParse(endEntry.data);
  const session = parsed.success ? undefined : sessionEndSchema.safeParse(endEntry.data);
  if (session?.success && endEntry.data.verified === undefined)
    return { ...base, ...recomputeSession(endEntry, session.data, before, mismatches) };
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    mismatches.push({
      seq: endEntry.seq,
      kind: 'end',
      what: `the end entry is not a verdict: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
    });
    return { ...base, matches: false, mismatches };
  }
  const end = parsed.data;
  if (end.reason !== endEntry.outcome)
    mismatches.push({
      seq: endEntry.seq,
      kind: 'end',
      what: `the end entry's outcome says "${String(endEntry.outcome)}" but its data says "${end.reason}"`,
      recorded: endEntry.outcome,
      recomputed: end.reason,
    });
  const recorded: VerdictSummary = {
    status: end.status,
    reason: end.reason,
    unmet: end.unmet ?? [],
    verified: end.verified,
    dropped: end.dropped,
    duplicates: end.duplicates ?? 0,
  };
  const claimEntries = finishClaims(before);
  const checks = end.checks;
  if (!checks)
    notRechecked.push(
      "the end entry has no recorded checks (a run from before `tally verify`): the agent's request and contract checks and its review are taken from the recorded unmet reasons",
    );
  const ending = checks?.ending ?? guessEnding(end, claimEntries);
  const reason = checks?.reason ?? end.reason;

  // Claims: each one is matched again against the net effects of the entries as they are now.
  const items: VerifiedItem[] = [];
  let verdicts: ClaimVerdict[] = [];
  if (ending === 'finish') {
    const verifier = options.verifier ?? verifyAgainstEffects();
    const claims = claimEntries.map(claimOf);
    // A `contains` checked against the file itself at finish: the ledger holds the file's sha256,
    // not its text. The rest of the claim is matched again; the text check is named, not redone.
    const unreadable = claims.map((claim, index) => {
      if (claim.contains === undefined || claimEntries[index]?.outcome !== 'verified') return false;
      const content = [...net.values()].find((effect) => effect.key === claim.target)?.observed.content;
      return typeof content !== 'string';
    });
    const asked = claims.map((claim, index) => {
      if (!unreadable[index]) return claim;
      const { contains: _contains, ...rest } = claim;
      return rest;
    });
    verdicts = (await verifier(asked, evidenceView(run.run.id, before, new Set()))).map((verdict, index) =>
      // The summary's named content is judged against the claims as made.
      unreadable[index] ? { ...verdict, claim: claims[index] as Claim } : verdict,
    );
    unreadable.forEach((skipped, index) => {
      if (skipped)
        notRechecked.push(
          `claim #${claimEntries[index]?.seq} (${String(claims[index]?.target)}): its text ("${String(claims[index]?.contains).slice(0, 40)}") was checked in the file at finish; the ledger holds only the file's sha256`,
        );
    });
    verdicts.forEach((verdict, index) => {
      const entry = claimEntries[index] as LedgerEntry;
      if (verdict.verified) items.push(verdict.item);
      const evidenceSeq = entry.data.evidenceSeq;
      if (
        entry.outcome === 'verified' &&
        typeof evidenceSeq === 'number' &&
        evidenceSeq > 0 &&
        !toolAt(before, evidenceSeq)
      )
        mismatches.push({
          seq: entry.seq,
          kind: 'claim',
          what: `claim ${String(verdictTarget(entry))} cites evidence #${evidenceSeq}, which is not a tool call in the ledger`,
        });
      if (outcomeOf(verdict) !== entry.outcome)
        mismatches.push({
          seq: entry.seq,
          kind: 'claim',
          ...(verdict.verified
            ? { tool: toolAt(before, verdict.item.evidenceSeq) }
            : typeof evidenceSeq === 'number' && toolAt(before, evidenceSeq)
              ? { tool: toolAt(before, evidenceSeq) }
              : {}),
          what: `claim ${String(verdictTarget(entry))} is recorded ${String(entry.outcome)}, but the ledger makes it ${outcomeOf(verdict)}${verdict.verified ? ` (${verdict.item.via})` : `: ${verdict.why}`}`,
          recorded: entry.outcome,
          recomputed: outcomeOf(verdict),
        });
    });
  } else if (ending === 'other') {
    // Items the agent took from the ledger when no finish was verified: its own code, not a claim.
    notRechecked.push(
      `the ${end.verified} item(s) the agent took from the ledger without a verified finish are taken as recorded (the agent's code chose them)`,
    );
  }
  const summary = checks?.summary;
  if (ending === 'finish' && summary === undefined && checks)
    notRechecked.push('the finish summary was not recorded: its counts and named content are not re-checked');
  const failures = unrecoveredFailures(before, []);
  const unkeyed = callsWithoutIntentKey(before);
  if (unkeyed.length > 0)
    notRechecked.push(
      `${unkeyed.length} tool call(s) (${unkeyed
        .slice(0, 5)
        .map((seq) => `#${seq}`)
        .join(
          ', ',
        )}${unkeyed.length > 5 ? ', …' : ''}) carry no intent key (recorded before it existed): whether they failed unrecovered is not re-checked`,
    );
  if (checks?.contract?.length)
    notRechecked.push(
      "the contract's check (agent code over a live scope or the project's files) is taken as recorded",
    );
  if (checks?.request?.length) notRechecked.push("the agent's request check is taken as recorded");
  if (checks?.review)
    notRechecked.push("the agent's review is taken as recorded (it may only lower the status)");
  const contractEntries = before.filter((entry) => entry.kind === 'contract');
  const lastContract = contractEntries.at(-1);
  if (
    end.contract !== undefined &&
    (!lastContract || JSON.stringify(lastContract.data) !== JSON.stringify(end.contract))
  )
    mismatches.push({
      ...(lastContract ? { seq: lastContract.seq } : {}),
      kind: 'contract',
      what: lastContract
        ? `the contract entry #${lastContract.seq} is not the contract the end entry records`
        : 'the end entry records a contract, but no contract entry is in the ledger',
    });
  const inputs: VerdictInputs = {
    ending,
    reason,
    verified: ending === 'finish' ? items.length : ending === 'other' ? end.verified : 0,
    dropped:
      ending === 'finish' ? verdicts.filter((verdict) => !verdict.verified && !verdict.duplicate).length : 0,
    failures,
    reported: end.failed ?? [],
    request: checks ? (checks.request ?? []) : [],
    contract: checks ? (checks.contract ?? []) : [],
    planMissing: Boolean(checks?.plan) && contractEntries.length === 0,
    unbacked: ending === 'finish' && summary !== undefined ? unbackedContent(summary, verdicts) : [],
    overCounts:
      ending === 'finish' && summary !== undefined ? overCounts(summary, items, checks?.types ?? []) : [],
    unresolved: unresolvedIntents(before).map(unresolvedIntentWords),
    ...(checks?.review ? { review: checks.review } : {}),
  };
  const verdict = decideVerdict(inputs);
  let unmet = verdict.unmet;
  if (!checks) {
    // Without recorded checks, the recorded reasons the rule did not find are the agent's own (taken as recorded).
    const extra = recorded.unmet.filter((line) => !unmet.includes(line));
    unmet = [...unmet, ...extra];
  }
  const recomputed: VerdictSummary = {
    status: checks
      ? verdict.status
      : worseOf(verdict.status, unmet.length > verdict.unmet.length ? 'partial' : undefined),
    reason: verdict.reason,
    unmet,
    verified: inputs.verified,
    dropped: inputs.dropped,
    duplicates:
      ending === 'finish'
        ? verdicts.filter((one) => !one.verified && one.duplicate).length
        : recorded.duplicates,
  };
  compareVerdicts(endEntry, recorded, recomputed, failures, mismatches);
  return { ...base, recorded, recomputed, matches: mismatches.length === 0, mismatches };
}

/** A session's end (no claims, a status over its calls) against the rule run again on its entries. */
function recomputeSession(
  endEntry: LedgerEntry,
  end: SessionEnd,
  before: readonly LedgerEntry[],
  mismatches: VerifyMismatch[],
): { recorded: VerdictSummary; recomputed: VerdictSummary; matches: boolean; mismatches: VerifyMismatch[] } {
  const facts = sessionFacts(before, end.transportError === true);
  const summary = (status: RunStatus, unmet: string[], toolCalls: number, failures: number) => ({
    status,
    reason: end.reason,
    unmet,
    verified: 0,
    dropped: 0,
    duplicates: 0,
    calls: { toolCalls, failures },
  });
  const recorded = summary(end.status, end.unmet ?? [], end.counts.toolCalls, end.counts.failures);
  const recomputed = summary(facts.status, facts.unmet, facts.toolCalls, facts.failures);
  const at = { seq: endEntry.seq, kind: 'end' } as const;
  if (end.reason !== endEntry.outcome)
    mismatches.push({
      ...at,
      what: `the end entry's outcome says "${String(endEntry.outcome)}" but its data says "${end.reason}"`,
    });
  const fields = [
    ['status', end.status, facts.status],
    ['tool calls', end.counts.toolCalls, facts.toolCalls],
    ['failures', end.counts.failures, facts.failures],
  ] as const;
  for (const [field, was, is] of fields)
    if (was !== is)
      mismatches.push({
        ...at,
        what: `the end entry records ${field} ${String(was)}, the ledger gives ${String(is)}`,
        recorded: was,
        recomputed: is,
      });
  if (!sameList(recorded.unmet, recomputed.unmet))
    mismatches.push({ ...at, what: "the end entry's unmet reasons are not the ledger's unresolved intents" });
  return { recorded, recomputed, matches: mismatches.length === 0, mismatches };
}

const RANK: Record<RunStatus, number> = { success: 0, partial: 1, failed: 2 };
const worseOf = (a: RunStatus, b: RunStatus | undefined): RunStatus =>
  b !== undefined && RANK[b] > RANK[a] ? b : a;

function verdictTarget(entry: LedgerEntry): unknown {
  const claim = entry.kind === 'claim' ? entry.data.claim : undefined;
  return `${claim?.type ? `${String(claim.type)} ` : ''}${String(claim?.target ?? '?')}`;
}

function compareVerdicts(
  endEntry: LedgerEntry,
  recorded: VerdictSummary,
  recomputed: VerdictSummary,
  failures: ReturnType<typeof unrecoveredFailures>,
  mismatches: VerifyMismatch[],
): void {
  const at = { seq: endEntry.seq, kind: 'end' } as const;
  for (const field of ['status', 'reason', 'verified', 'dropped', 'duplicates'] as const)
    if (recorded[field] !== recomputed[field])
      mismatches.push({
        ...at,
        what: `the end entry records ${field} ${String(recorded[field])}, the ledger gives ${String(recomputed[field])}`,
        recorded: recorded[field],
        recomputed: recomputed[field],
      });
  if (sameList(recorded.unmet, recomputed.unmet)) return;
  for (const line of recomputed.unmet.filter((reason) => !recorded.unmet.includes(reason))) {
    // A failure the rule finds names its tool call.
    const failure = failures.find((one) => line.startsWith(one.description));
    mismatches.push({
      ...(failure ? { seq: failure.seq, kind: 'tool_call', tool: failure.tool } : at),
      what: `unmet in the ledger but not in the end entry: ${line}`,
    });
  }
  for (const line of recorded.unmet.filter((reason) => !recomputed.unmet.includes(reason)))
    mismatches.push({
      ...at,
      what: `the end entry records an unmet reason the ledger does not give: ${line}`,
    });
  if (
    recorded.unmet.length === recomputed.unmet.length &&
    recorded.unmet.every((line) => recomputed.unmet.includes(line))
  )
    mismatches.push({ ...at, what: 'the end entry lists the same unmet reasons in another order' });
}
