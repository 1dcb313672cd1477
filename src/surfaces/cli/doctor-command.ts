import type { Command } from 'commander';
import {
  checkChromium,
  checkLedger,
  checkNode,
  checkPlaywright,
  checkPlugin,
  checkSqlite,
  checkTelemetry,
  type DoctorCheck,
} from './doctor-checks.js';
import { EXIT } from './exit-codes.js';
import { ledgerPathFor } from './open-ledger.js';

/**
 * `tally doctor`: what this machine has and lacks, each missing piece with its fix. Exit 0 all
 * there; 1 an optional capability is missing (Tally runs, that part does not); 3 a piece every
 * command needs is broken (Node, the SQLite module, the ledger).
 */
export default async function doctorCommand(options: { json?: boolean }, command: Command): Promise<number> {
  const checks: DoctorCheck[] = [
    checkNode(),
    await checkSqlite(),
    await checkLedger(ledgerPathFor(command)),
    await checkPlaywright(),
    checkChromium(),
    await checkTelemetry(),
    checkPlugin(),
  ];
  const code = checks.some((check) => !check.ok && check.required)
    ? EXIT.unavailable
    : checks.some((check) => !check.ok)
      ? EXIT.notMet
      : EXIT.ok;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ok: code === EXIT.ok, checks }, null, 2)}\n`);
    return code;
  }
  const width = Math.max(...checks.map((check) => check.name.length));
  for (const check of checks) {
    process.stdout.write(`${check.ok ? '✓' : '✗'} ${check.name.padEnd(width)}  ${check.detail}\n`);
    if (!check.ok && check.fix) process.stdout.write(`  ${' '.repeat(width)}  fix: ${check.fix}\n`);
  }
  const missing = checks.filter((check) => !check.ok).length;
  process.stdout.write(
    missing === 0
      ? 'Everything Tally uses is here.\n'
      : `${missing} missing${code === EXIT.unavailable ? ': Tally cannot run until the required ones are fixed' : ': Tally runs, without what is marked ✗'}.\n`,
  );
  return code;
}
