import type { Command } from 'commander';
import { readRunForVerify } from '../../core/agent/read-run-for-verify.js';
import {
  type RecomputedRun,
  recomputeVerdict,
  type VerdictSummary,
} from '../../core/agent/recompute-verdict.js';
import type { NetEffects } from '../../core/effects.js';
import { type EffectRechecker, type LiveCheck, recheckEffects } from '../../core/recheck-effects.js';
import { httpRechecker } from '../../packs/http/recheck-resource.js';
import { recordRechecker } from '../../packs/records/recheck-record.js';
import { fileRechecker } from '../../packs/workspace/recheck-file.js';
import { EXIT } from './exit-codes.js';
import { headersFrom, loginFrom } from './fish-options.js';
import { findRun, ledgerPathHolding } from './known-ledgers.js';
import { ledgerLabel, openExistingLedgerAt } from './open-ledger.js';
import { verifierFor } from './verify-rules.js';

export interface VerifyFlags {
  json?: boolean;
  live?: boolean;
  root?: string;
  login?: string;
  header?: string[];
  captures?: string[];
  baseUrl?: string;
}

/** What a session to the run's API is opened from: its own meta, or (a cleanup run) the cleaned run's. */
interface SessionMeta {
  root?: unknown;
  baseUrl?: string;
  captures?: string[];
  specs?: string[];
  login?: string;
  cleans?: string;
}

/** HTTP effects marked as not checkable, with why (never reported unchanged). */
function uncheckable(why: string): EffectRechecker {
  return { space: 'http', recheck: async () => ({ state: 'unchecked', what: why }) };
}

/** The packs' re-checks, wired to what the run recorded (its base URL, captures, login, root). */
async function recheckersFor(
  meta: SessionMeta,
  net: NetEffects,
  options: VerifyFlags,
): Promise<EffectRechecker[]> {
  const root = options.root ?? (typeof meta.root === 'string' ? meta.root : process.cwd());
  const checkers = [fileRechecker(root), recordRechecker(root)];
  if ([...net.values()].some((effect) => effect.space === 'http' && effect.change !== undefined)) {
    // The same session `fish cleanup` opens: the run's captures, base URL and login, or the flags.
    const headers = headersFrom(options.header);
    const captures = options.captures ?? meta.captures ?? [];
    if (captures.length === 0 && !meta.specs) {
      checkers.push(
        uncheckable(
          'the run recorded no captures or OpenAPI documents to open a session with; pass --captures',
        ),
      );
      return checkers;
    }
    const baseUrl = options.baseUrl ?? meta.baseUrl;
    const { buildFishContext } = await import('../../agents/fisherman/fish-context.js');
    const context = await buildFishContext({
      captures,
      ...(meta.specs ? { specs: meta.specs } : {}),
      ...(baseUrl ? { baseUrl } : {}),
      ...loginFrom(options.login ?? meta.login),
      ...(headers ? { headers } : {}),
    });
    checkers.push(httpRechecker(context.client));
  }
  return checkers;
}

function line(verdict: VerdictSummary | undefined): string {
  if (!verdict) return '(none)';
  if (verdict.calls)
    return `${verdict.status} · ${verdict.reason} · ${verdict.calls.toolCalls} tool call${verdict.calls.toolCalls === 1 ? '' : 's'}, ${verdict.calls.failures} failed or rejected, no claims${verdict.unmet.length ? ` · ${verdict.unmet.length} unmet` : ''}`;
  return `${verdict.status} · ${verdict.reason} · ${verdict.verified} verified, ${verdict.dropped} dropped${verdict.duplicates ? `, ${verdict.duplicates} duplicate` : ''}${verdict.unmet.length ? ` · ${verdict.unmet.length} unmet` : ''}`;
}

export function formatVerify(result: RecomputedRun, ledgerPath: string): string {
  const out = [
    `Run ${result.runId} (${result.agent}) in ${ledgerPath}`,
    `  recorded:   ${line(result.recorded)}`,
    `  recomputed: ${line(result.recomputed)}`,
  ];
  if (result.matches) out.push('✓ The ledger reproduces the recorded verdict.');
  else {
    out.push(
      `✗ The ledger does not reproduce the recorded verdict (${result.mismatches.length} mismatch${result.mismatches.length === 1 ? '' : 'es'}):`,
    );
    for (const mismatch of result.mismatches)
      out.push(
        `  ${mismatch.seq !== undefined ? `#${mismatch.seq} ` : ''}${mismatch.kind}${mismatch.tool ? ` (${mismatch.tool})` : ''}: ${mismatch.what}`,
      );
  }
  if (result.notRechecked.length > 0) {
    out.push('Not re-checked from the ledger (taken as recorded):');
    for (const why of result.notRechecked) out.push(`  - ${why}`);
  }
  return `${out.join('\n')}\n`;
}

const MARK = { unchanged: '✓', drifted: '✗', unchecked: '?' } as const;

export function formatLive(checks: readonly LiveCheck[]): string {
  const drifted = checks.filter((check) => check.state === 'drifted').length;
  const unchecked = checks.filter((check) => check.state === 'unchecked').length;
  const out = [
    `Live (today's state): ${checks.length} resource${checks.length === 1 ? '' : 's'}, ${drifted} drifted${unchecked ? `, ${unchecked} not checkable` : ''}`,
  ];
  for (const check of checks)
    out.push(
      `  ${MARK[check.state]} ${check.effect} ${check.space} ${check.key}${check.type ? ` (${check.type})` : ''}: ${check.what}`,
    );
  return `${out.join('\n')}\n`;
}

/** `tally verify RUN`: the run's verdict recomputed from its ledger entries, compared with its end entry. */
export default async function verifyCommand(
  runId: string,
  options: VerifyFlags,
  command: Command,
): Promise<number> {
  const path = await ledgerPathHolding(command, runId);
  // No known ledger holds it: the same error `runs show` gives (where it looked, what to pass).
  if (path === undefined) await findRun(command, runId);
  const ledger = await openExistingLedgerAt(path as string);
  if (!ledger) await findRun(command, runId);
  let result: RecomputedRun;
  let meta: SessionMeta;
  try {
    const run = await readRunForVerify(ledger as NonNullable<typeof ledger>, runId);
    const verifier = await verifierFor(run.run.agent);
    result = await recomputeVerdict(run, verifier ? { verifier } : {});
    meta = run.run.meta as SessionMeta;
    // A cleanup run acted through the session of the run it cleaned: its captures and login.
    if (
      options.live &&
      !meta.captures &&
      typeof meta.cleans === 'string' &&
      (await ledger?.hasRun(meta.cleans))
    )
      meta = {
        ...(await readRunForVerify(ledger as NonNullable<typeof ledger>, meta.cleans)).run.meta,
        ...meta,
      } as SessionMeta;
  } finally {
    await ledger?.close();
  }
  const live = options.live
    ? await recheckEffects(result.net, await recheckersFor(meta, result.net, options))
    : undefined;
  const drifted = live?.some((check) => check.state === 'drifted') ?? false;
  const json = options.json || command.optsWithGlobals().json;
  if (json) {
    const { net: _net, ...rest } = result;
    process.stdout.write(
      `${JSON.stringify({ ledger: ledgerLabel(path as string), ...rest, ...(live ? { live, drifted } : {}) }, null, 2)}\n`,
    );
  } else
    process.stdout.write(
      `${formatVerify(result, ledgerLabel(path as string))}${live ? formatLive(live) : ''}`,
    );
  return result.matches && !drifted ? EXIT.ok : EXIT.notReproduced;
}
