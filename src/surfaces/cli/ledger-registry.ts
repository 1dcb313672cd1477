import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { errorMessage } from '../../core/errors.js';
import { createFailOpen } from '../../core/fail-open.js';
import { userStateDir } from '../../packs/records/digests/hook-state.js';
// Registers registry-unwritable.
import './cli-fail-open-reasons.js';

/**
 * The user-level list of ledgers this user's Tally has written to, one JSON line each
 * (`{"path": …}`), in `$XDG_STATE_HOME/tally/ledgers.jsonl` (else `~/.local/state/tally`).
 * Ledgers stay where they are (a project's `.tally/`, a records root, a served root); the
 * list only lets `tally runs` read across them. Append-only lines: two processes registering
 * at once can at worst write a duplicate, which reading folds.
 */
export function registryPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const xdg = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : undefined;
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : undefined;
  const base = xdg ?? (home ? join(home, '.local', 'state') : undefined);
  return base ? join(base, 'tally', 'ledgers.jsonl') : undefined;
}

/** The registered ledger paths, oldest registration first; none when the list does not exist yet. */
export function registeredLedgers(env: NodeJS.ProcessEnv = process.env): string[] {
  const path = registryPath(env);
  if (!path) return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  const paths = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = JSON.parse(line) as { path?: unknown };
      if (typeof parsed.path === 'string' && isAbsolute(parsed.path)) paths.add(parsed.path);
    } catch (error) {
      // A torn or hand-edited line names no ledger; the others still do.
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  return [...paths];
}

/**
 * Adds a ledger to the list unless it is there. Fails open: a run never fails because the
 * list could not be written (the ledger itself is unaffected; `--ledger PATH` still reads it).
 */
export function registerLedger(ledgerPath: string, env: NodeJS.ProcessEnv = process.env): void {
  try {
    if (registeredLedgers(env).includes(ledgerPath)) return;
    const state = userStateDir(env);
    if ('refused' in state) throw new Error(state.why);
    appendFileSync(join(state.dir, 'ledgers.jsonl'), `${JSON.stringify({ path: ledgerPath })}\n`, {
      mode: 0o600,
    });
  } catch (error) {
    process.stderr.write(
      `tally: could not add ${ledgerPath} to the list of ledgers (${errorMessage(error)}); \`tally runs\` elsewhere will not show its runs. Set XDG_STATE_HOME to a folder of yours.\n`,
    );
    createFailOpen({ logPath: join(dirname(ledgerPath), 'fail-open.jsonl') })(
      'ledger-registry',
      'registry-unwritable',
    );
  }
}
