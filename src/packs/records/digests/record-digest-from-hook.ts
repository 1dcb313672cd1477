import { join } from 'node:path';
import type { StateDir } from '../../../core/io/private-dir.js';
import { type DigestPayload, parseDigestPayload } from './digest-payload.js';
import { digestSettings } from './digest-settings.js';
import { readDigests, writeDigest } from './digest-store.js';
import { hookFailOpenLog, hookTallyDir } from './hook-state.js';

/** What the hook did, for the command to log and print: it never throws for a payload or a folder. */
export interface HookReport {
  /** Fail-open reasons to record (the closed vocabulary). */
  failOpens: { why: string; session?: string }[];
  /** Lines for stderr: what was not recorded and why. */
  notes: string[];
  /** Where the fail-open lines go; undefined when no folder is Tally's (stderr only). */
  failOpenLog?: string;
  written?: string;
}

/**
 * `tally hook digest-record`, in process: read the payload, find the folder Tally owns
 * (`hookTallyDir`), write the digest there. Every way it declines is a fail-open with a reason;
 * a legitimate decline (a notice, a placeholder session) is not a failure and is not logged.
 */
export function recordDigestFromHook(
  stdin: string,
  context: { env: NodeJS.ProcessEnv; cwd: string; oversized?: string },
): HookReport {
  const { env } = context;
  const report: HookReport = { failOpens: [], notes: [] };
  const payload: DigestPayload = context.oversized
    ? { kind: 'unreadable', why: 'malformed-payload', detail: context.oversized }
    : parseDigestPayload(stdin);
  const cwd = payload.kind === 'digest' ? payload.cwd : undefined;
  const located = hookTallyDir(env, cwd, context.cwd);
  const tally: StateDir | undefined = 'tally' in located ? located.tally : undefined;
  const log = hookFailOpenLog(env, tally);
  if (log) report.failOpenLog = log;
  const decline = (why: string, detail: string) => {
    report.failOpens.push({
      why,
      ...(payload.sessionId !== undefined ? { session: payload.sessionId } : {}),
    });
    report.notes.push(`${why} (${detail}); nothing recorded.`);
  };
  if (payload.kind === 'unreadable') {
    decline(payload.why, payload.detail);
    return report;
  }
  if (payload.kind === 'declined') return report;
  const settings = digestSettings(env);
  for (const warning of settings.warnings) {
    report.notes.push(warning);
    report.failOpens.push({
      why: 'digest-setting-invalid',
      ...(payload.sessionId !== undefined ? { session: payload.sessionId } : {}),
    });
  }
  // An explicit TALLY_DIGEST_DIR is the user's to name; otherwise digests live in the owned `.tally`.
  const dir = env.TALLY_DIGEST_DIR || (tally ? join(tally.dir, 'digests') : undefined);
  if (!dir) {
    const refusal = located as { refused: string; why: string };
    decline(refusal.refused, refusal.why);
    return report;
  }
  // Once per scout run: `tally scout --session` stores its own report, which the skill returns
  // verbatim — storing the skill's result again would replay the same digest twice.
  const stored = readDigests(dir, payload.sessionId, {
    keep: Number.MAX_SAFE_INTEGER,
    ttlDays: settings.ttlDays,
  });
  if (stored.digests.some((digest) => containsReport(payload.text, digest.text))) return report;
  const outcome = writeDigest(dir, payload.sessionId, payload.text, { ttlDays: settings.ttlDays });
  if ('written' in outcome) {
    report.written = outcome.written;
    return report;
  }
  if (outcome.refused === 'no-session') report.notes.push(`not recorded (no-session: ${outcome.why}).`);
  else decline(outcome.refused, outcome.why);
  return report;
}

/**
 * Whether `text` carries the scout report `report` whole: a report (it opens with its GOAL
 * line), found as whole lines — so "digest 1" is not taken for part of "digest 10", and a
 * result that only quotes a line of an earlier report is still stored.
 */
function containsReport(text: string, report: string): boolean {
  const needle = report.trim();
  if (!needle.startsWith('GOAL:')) return false;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    const startsLine = at === 0 || text[at - 1] === '\n';
    const endsLine = end === text.length || text[end] === '\n' || text[end] === '\r';
    if (startsLine && endsLine) return true;
  }
  return false;
}
