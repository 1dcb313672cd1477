import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';

const KEY = 'sk-live-abcdef1234567890abcd';
const PASSWORD = 'Hunter2Secret';

/** `tally code --replay` of one cassette in `root`, with its ledger beside it. */
const replay = (base: string, root: string, cassette: string) =>
  runTally(['code', '--root', root, '--replay', cassette, '--ledger', join(base, 'l.db')]);

/**
 * A model that quotes the secrets of a file it read: what the terminal shows while the turn runs
 * is scrubbed as the ledger keeps it, not only the reply printed at the end.
 */
describe('tally code: a step text that quotes a secret', () => {
  it('is shown scrubbed as it streams, and the chat kept on disk has no secret either', async () => {
    const base = tempDir('tally-secret-echo-');
    const root = join(base, 'proj');
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, '.env'), `API_KEY=${KEY}\nDB_PASSWORD=${PASSWORD}\n`);
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    const cassette = join(base, 'turn.cassette.json');
    writeFileSync(
      cassette,
      JSON.stringify({
        version: 1,
        message: 'Which settings does .env hold?',
        steps: [
          { toolCalls: [{ toolName: 'fs_read', input: { path: '.env' } }] },
          { text: `It sets API_KEY to ${KEY} and DB_PASSWORD=${PASSWORD} for the app.` },
        ],
      }),
    );
    const run = await replay(base, root, cassette);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('It sets API_KEY to [redacted] and DB_PASSWORD=[redacted]');
    const chats = join(root, '.tally', 'chats');
    const kept = readdirSync(chats).map((name) => readFileSync(join(chats, name), 'utf8'));
    for (const text of [run.stdout, run.stderr, ...kept]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(PASSWORD);
    }
  });

  it('a token the user pastes reaches neither the chat file nor the decision record it states, nor the output', async () => {
    const base = tempDir('tally-secret-paste-');
    const root = join(base, 'proj');
    mkdirSync(join(root, 'references', 'decisions'), { recursive: true });
    writeFileSync(join(root, 'README.md'), '# payments\n');
    const cassette = join(base, 'turn.cassette.json');
    writeFileSync(
      cassette,
      JSON.stringify({
        version: 1,
        message: `Let's use the API key ${KEY} for the payments client from now on.`,
        steps: [{ text: 'Noted.' }],
      }),
    );
    const run = await replay(base, root, cassette);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Decision recorded: Use the API key [redacted] for the payments client');
    const files = ['.tally/chats', 'references/decisions'].flatMap((folder) =>
      readdirSync(join(root, folder)).map((name) => join(folder, name)),
    );
    expect(files.some((file) => file.startsWith('references/decisions/DEC-'))).toBe(true);
    for (const file of files) {
      expect(file).not.toContain(KEY);
      expect(readFileSync(join(root, file), 'utf8')).not.toContain(KEY);
    }
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });
});
