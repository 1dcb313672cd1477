import type { Command } from 'commander';
import { readRunForVerify } from '../../core/agent/read-run-for-verify.js';
import {
  type RecomputedRun,
  recomputeVerdict,
  type VerdictSummary,
} from '../../core/agent/recompute-verdict.js';
import { EXIT } from './exit-codes.js';
import { findRun, ledgerPathHolding } from './known-ledgers.js';
import { openExistingLedgerAt } from './open-ledger.js';
import { verifierFor } from './verify-rules.js';

export interface VerifyFlags {
  json?: boolean;
  live?: boolean;
}

function line(verdict: VerdictSummary | undefined): string {
  if (!verdict) return '(none)';
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

/** `tally verify RUN`: the run's verdict recomputed from its ledger entries, compared with its end entry. */
export default async function verifyCommand(
  runId: string,
  options: VerifyFlags,
  command: Command,
): Promise<number> {
  const path = ledgerPathHolding(command, runId);
  // No known ledger holds it: the same error `runs show` gives (where it looked, what to pass).
  if (path === undefined) findRun(command, runId);
  const ledger = openExistingLedgerAt(path as string);
  if (!ledger) findRun(command, runId);
  let result: RecomputedRun;
  try {
    const run = await readRunForVerify(ledger as NonNullable<typeof ledger>, runId);
    const verifier = verifierFor(run.run.agent);
    result = await recomputeVerdict(run, verifier ? { verifier } : {});
  } finally {
    ledger?.close();
  }
  const json = options.json || command.optsWithGlobals().json;
  if (json) {
    const { net: _net, ...rest } = result;
    process.stdout.write(`${JSON.stringify({ ledger: path, ...rest }, null, 2)}\n`);
  } else process.stdout.write(formatVerify(result, path as string));
  return result.matches ? EXIT.ok : EXIT.notReproduced;
}
