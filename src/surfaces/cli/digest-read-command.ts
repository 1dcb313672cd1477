import { digestSettings } from '../../packs/records/digests/digest-settings.js';
import { digestDir, readDigests } from '../../packs/records/digests/digest-store.js';
import { resolveRecordsRoot } from '../../packs/records/stores.js';
import { EXIT } from './exit-codes.js';

/** `tally digest read --session ID`: this session's digests, newest first, with a loud count. */
export default async function digestReadCommand(flags: {
  session?: string;
  root?: string;
  json?: boolean;
}): Promise<number> {
  const root = resolveRecordsRoot(flags.root);
  const settings = digestSettings();
  for (const warning of settings.warnings) process.stderr.write(`tally: ${warning}\n`);
  const { digests, total, key, refused } = readDigests(digestDir(root), flags.session, settings);
  if (refused) process.stderr.write(`tally: ${refused}. Replace it with a real directory.\n`);
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify({ session: key ?? null, total, keep: settings.keep, digests }, null, 2)}\n`,
    );
    return EXIT.ok;
  }
  if (!key) {
    process.stdout.write(
      `digests: none — session id "${flags.session ?? ''}" is empty or an unexpanded placeholder; starting cold.\n`,
    );
    return EXIT.ok;
  }
  process.stdout.write(
    `digests: ${total} for session ${key}${total > digests.length ? ` — showing the newest ${digests.length} (KEEP=${settings.keep})` : ''}\n`,
  );
  for (const digest of digests)
    process.stdout.write(
      `\n--- digest ${new Date(digest.writtenAt).toISOString()} ---\n${digest.text.replace(/\n?$/, '\n')}`,
    );
  return EXIT.ok;
}
