import { join } from 'node:path';
import { createFailOpen } from '../../core/fail-open.js';
import { parseDigestPayload } from '../../packs/records/digests/digest-payload.js';
import { digestSettings } from '../../packs/records/digests/digest-settings.js';
import { digestDir, writeDigest } from '../../packs/records/digests/digest-store.js';
import { EXIT } from './exit-codes.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `tally hook digest-record` (Claude Code PostToolUse, Skill): stores the scout's digest for
 * the session. Always exits 0 on its own faults, recording a fail-open instead.
 */
export default async function hookDigestRecordCommand(): Promise<number> {
  const stdin = await readStdin();
  const payload = parseDigestPayload(stdin);
  const root = process.env.TALLY_RECORDS_ROOT || (payload.kind === 'digest' && payload.cwd) || process.cwd();
  const failOpen = createFailOpen({
    logPath: process.env.TALLY_FAIL_OPEN_LOG || join(root, '.tally', 'fail-open.jsonl'),
  });
  if (payload.kind === 'unreadable') {
    failOpen('hook-digest-record', payload.why, payload.sessionId);
    process.stderr.write(`tally hook digest-record: ${payload.why} (${payload.detail}); nothing recorded.\n`);
    return EXIT.ok;
  }
  if (payload.kind === 'declined') return EXIT.ok; // a legitimate decline is not logged
  const settings = digestSettings();
  for (const warning of settings.warnings) {
    process.stderr.write(`tally: ${warning}\n`);
    failOpen('hook-digest-record', 'digest-setting-invalid', payload.sessionId);
  }
  const outcome = writeDigest(digestDir(root), payload.sessionId, payload.text, {
    ttlDays: settings.ttlDays,
  });
  if ('refused' in outcome) {
    if (outcome.refused === 'store-unwritable')
      failOpen('hook-digest-record', 'store-unwritable', payload.sessionId);
    process.stderr.write(`tally hook digest-record: not recorded (${outcome.refused}: ${outcome.why}).\n`);
  }
  return EXIT.ok;
}
