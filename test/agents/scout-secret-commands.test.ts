import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpus, tally } from '../packs/records/records-fixture.js';

const RELEASE = 'references/procedures/release-a-version.md';
const PASSWORD = 'Hunter2Secret';
const TOKEN = 'sk-live-abcdef1234567890abcd';

/**
 * A claim is held to the evidence as the ledger stores it: redacted. A record's command with a
 * credential in it reaches the ledger scrubbed, and the claim of that same command is compared
 * scrubbed too — else the scout dropped the commands it read itself, and printed the secret.
 */
describe('a command with a secret in it, read from a record', () => {
  it('is verified and reported scrubbed; the secret reaches neither the output nor the ledger', async () => {
    const root = corpus();
    appendFileSync(
      join(root, RELEASE),
      `3. Check the registry row: \`psql postgres://release:${PASSWORD}@db.internal/releases -c "select 1"\`\n` +
        `4. Announce it: \`curl -H "Authorization: Bearer ${TOKEN}" https://chat.example.com/hooks/release\`\n`,
    );
    const ledger = join(root, '..', 'ledger.db');
    const run = await tally(['scout', 'release a version of acme/shop', '--root', root, '--ledger', ledger]);
    expect(run.stdout).toContain('psql postgres://release:[redacted]@db.internal/releases -c "select 1"');
    expect(run.stdout).toContain('curl -H "Authorization: Bearer [redacted]"');
    expect(run.stdout).not.toContain('DROPPED');
    expect(run.stdout).toMatch(/· success · finished/);
    expect(run.code).toBe(0);
    for (const text of [run.stdout, run.stderr, readFileSync(ledger, 'latin1')]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(TOKEN);
    }
    // The verdict the run printed is the one its ledger recomputes.
    const runId = (/run (run_\w+)/.exec(run.stdout) as RegExpExecArray)[1] as string;
    const again = await tally(['verify', runId, '--ledger', ledger]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('a trap quoting a secret is shown and kept in the session digest scrubbed', async () => {
    const root = corpus();
    appendFileSync(
      join(root, 'mistakes.jsonl'),
      `${JSON.stringify({ ts: '2026-08-03T09:00:00Z', category: 'release', trigger: 'release', description: `Pushed with password=${PASSWORD} in the URL`, correction: 'Use the release token from the vault', pattern: 'release' })}\n`,
    );
    const ledger = join(root, '..', 'ledger.db');
    const run = await tally([
      'scout',
      'release a version of acme/shop',
      '--root',
      root,
      '--ledger',
      ledger,
      '--session',
      's1',
    ]);
    expect(run.stdout).toContain('[release] Pushed with password=[redacted] in the URL');
    const digests = join(root, '.tally', 'digests');
    const [digest] = readdirSync(digests);
    for (const text of [run.stdout, readFileSync(join(digests, digest as string), 'utf8')])
      expect(text).not.toContain(PASSWORD);
  });
});
