import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestKey } from '../../../src/packs/records/digests/digest-key.js';
import { digestSettings } from '../../../src/packs/records/digests/digest-settings.js';
import { readDigests, writeDigest } from '../../../src/packs/records/digests/digest-store.js';
import { tempDir } from '../../helpers.js';
import { tally } from './records-fixture.js';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'tally.js');
const HOOKS = join(import.meta.dirname, '..', '..', 'fixtures', 'hooks');

describe('session digests', () => {
  it('refuses an empty session id and unexpanded placeholders (cold start, never another session’s digests)', () => {
    for (const id of ['', '   ', '${CLAUDE_SESSION_ID}', '$CLAUDE_SESSION_ID', '%SESSION%', undefined])
      expect(digestKey(id), String(id)).toBeUndefined();
    expect(digestKey('b3f1/../x y')).toBe('b3f1_2f.._2fx_20y');
    expect(digestKey('b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d')).toBe('b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d');
    const dir = join(tempDir(), 'digests');
    expect(writeDigest(dir, '${CLAUDE_SESSION_ID}', 'x', { ttlDays: 2 })).toMatchObject({
      refused: 'no-session',
    });
  });

  it('a digest is written scrubbed, whoever hands it the text: no token or password reaches the disk', () => {
    const dir = join(tempDir(), 'digests');
    const outcome = writeDigest(
      dir,
      'session-1',
      'TRAPS:\n- mistakes.jsonl:3 — pushed with password=Hunter2Secret\n- token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked\n',
      { ttlDays: 2 },
    );
    const written = readFileSync((outcome as { written: string }).written, 'utf8');
    expect(written).toBe(
      'TRAPS:\n- mistakes.jsonl:3 — pushed with password=[redacted]\n- token [redacted] leaked\n',
    );
    expect(readDigests(dir, 'session-1', digestSettings({})).digests.map((digest) => digest.text)).toEqual([
      written,
    ]);
    // One written before the writer scrubbed (or by hand) is read scrubbed.
    writeFileSync(
      join(dir, 'session-1.digest.9999999999999.abc'),
      'token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n',
    );
    expect(readDigests(dir, 'session-1', digestSettings({})).digests[0]?.text).toBe('token [redacted]\n');
  });

  it('two session ids never share a key: one session never reads another’s digests', () => {
    const ids = [
      'alice/x',
      'alice_x',
      'alice x',
      'alice_2fx',
      'Alice_x',
      '.alice_x',
      'a'.repeat(200),
      `${'a'.repeat(200)}b`,
    ];
    const keys = ids.map((id) => digestKey(id) as string);
    expect(new Set(keys).size).toBe(ids.length);
    for (const key of keys) expect(key).toMatch(/^[a-z0-9_][a-z0-9_.+-]{0,127}$/);
    const dir = join(tempDir(), 'digests');
    writeDigest(dir, 'alice/x', 'alice’s digest', { ttlDays: 2 });
    const settings = { keep: 3, ttlDays: 2 };
    expect(readDigests(dir, 'alice_x', settings).total).toBe(0);
    expect(readDigests(dir, 'alice/x', settings).digests.map((digest) => digest.text)).toEqual([
      'alice’s digest',
    ]);
  });

  it('writes 0600 files in a 0700 directory, reads newest first, replays KEEP with a count, reaps past TTL', () => {
    const dir = join(tempDir(), 'digests');
    const now = Date.UTC(2026, 10, 29, 12);
    for (let index = 0; index < 5; index++)
      writeDigest(dir, 's1', `digest ${index}`, { ttlDays: 2, now: now - (4 - index) * 60_000 });
    writeDigest(dir, 's2', 'other session', { ttlDays: 2, now });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(dir)) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const read = readDigests(dir, 's1', { keep: 3, ttlDays: 2, now });
    expect(read.total).toBe(5);
    expect(read.digests.map((digest) => digest.text)).toEqual(['digest 4', 'digest 3', 'digest 2']);
    // Three days later a new write reaps the old ones; the reader alone never deletes.
    const later = now + 3 * 86_400_000;
    expect(readDigests(dir, 's1', { keep: 3, ttlDays: 2, now: later }).total).toBe(0);
    expect(readdirSync(dir)).toHaveLength(6);
    const outcome = writeDigest(dir, 's3', 'fresh', { ttlDays: 2, now: later });
    expect(outcome).toMatchObject({ reaped: 6 });
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('non-numeric KEEP and TTL fall back to the defaults, loudly', () => {
    expect(digestSettings({ TALLY_DIGEST_KEEP: 'lots', TALLY_DIGEST_TTL_DAYS: '-1' })).toEqual({
      keep: 3,
      ttlDays: 2,
      warnings: [
        'TALLY_DIGEST_KEEP="lots" is not a positive number; using the default 3.',
        'TALLY_DIGEST_TTL_DAYS="-1" is not a positive number; using the default 2.',
      ],
    });
  });

  it('25 concurrent writers in separate processes leave 25 digests', async () => {
    const root = tempDir();
    const payload = JSON.parse(readFileSync(join(HOOKS, 'post-tool-use-skill.json'), 'utf8'));
    await Promise.all(
      Array.from(
        { length: 25 },
        (_, index) =>
          new Promise<void>((resolve, reject) => {
            const child = execFile(
              process.execPath,
              [bin, 'hook', 'digest-record'],
              { env: { ...process.env, TALLY_RECORDS_ROOT: root, TALLY_DIGEST_DIR: '' } },
              (error) => (error ? reject(error) : resolve()),
            );
            child.stdin?.end(
              JSON.stringify({
                ...payload,
                tool_response: { ...payload.tool_response, result: `digest number ${index}` },
              }),
            );
          }),
      ),
    );
    const dir = join(root, '.tally', 'digests');
    const files = readdirSync(dir);
    expect(files).toHaveLength(25);
    expect(new Set(files.map((file) => readFileSync(join(dir, file), 'utf8'))).size).toBe(25);
    const read = await tally(['digest', 'read', '--root', root, '--session', payload.session_id], {
      env: { TALLY_DIGEST_KEEP: '2' },
    });
    expect(read.stdout.split('\n')[0]).toBe(
      `digests: 25 for session ${payload.session_id} — showing the newest 2 (KEEP=2)`,
    );
    expect(read.stdout.match(/^--- digest /gm)).toHaveLength(2);
  }, 60_000);
});

describe('tally hook digest-record', () => {
  const hook = async (input: string, env: NodeJS.ProcessEnv = {}) => {
    const root = tempDir();
    const result = await tally(['hook', 'digest-record'], {
      input,
      env: { TALLY_RECORDS_ROOT: root, ...env },
    });
    const failOpen = join(root, '.tally', 'fail-open.jsonl');
    let lines: { why: string; component: string }[] = [];
    try {
      lines = readFileSync(failOpen, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
    const digests = (() => {
      try {
        return readdirSync(join(root, '.tally', 'digests'));
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return [];
        throw error;
      }
    })();
    return { ...result, root, failOpens: lines, digests };
  };

  it('records the digest from a realistic object payload', async () => {
    const result = await hook(readFileSync(join(HOOKS, 'post-tool-use-skill.json'), 'utf8'));
    expect(result.code).toBe(0);
    expect(result.digests).toHaveLength(1);
    expect(result.digests[0]).toMatch(/^b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d\.digest\.\d{13}\.[0-9a-f]+$/);
    expect(
      readFileSync(join(result.root, '.tally', 'digests', result.digests[0] as string), 'utf8'),
    ).toContain('GOVERNS:\n- references/procedures/release-a-version.md');
  });

  it('accepts the legacy string shape, unwrapping its completion wrapper', async () => {
    const result = await hook(readFileSync(join(HOOKS, 'post-tool-use-skill-legacy.json'), 'utf8'));
    expect(result.digests).toHaveLength(1);
    const text = readFileSync(join(result.root, '.tally', 'digests', result.digests[0] as string), 'utf8');
    expect(text.startsWith('GOAL: rotate credentials')).toBe(true);
    expect(text).not.toContain('skill-result');
  });

  it.each([
    ['a background notice', 'Skill is running in the background; results will follow.'],
    ['a user refusal', "The user doesn't want to proceed with this tool use."],
    ['an interrupt', '[Request interrupted by user]'],
    ['a Launching skill notice', 'Launching skill: how-do-i'],
  ])('declines %s by name: no digest, no fail-open, exit 0', async (_name, notice) => {
    const result = await hook(JSON.stringify({ session_id: 's', tool_name: 'Skill', tool_response: notice }));
    expect(result).toMatchObject({ code: 0, digests: [], failOpens: [] });
    const objectShape = await hook(
      JSON.stringify({ session_id: 's', tool_response: { success: true, result: notice } }),
    );
    expect(objectShape).toMatchObject({ code: 0, digests: [] });
  });

  it.each([
    ['malformed JSON', '{"session_id": ', 'malformed-payload'],
    ['a JSON array', '[1, 2, 3]', 'non-object-payload'],
    ['a JSON scalar', '"just a string"', 'non-object-payload'],
    ['null', 'null', 'non-object-payload'],
    [
      'an unknown shape',
      '{"session_id":"s","tool_response":{"status":"forked"}}',
      'payload-shape-unrecognized',
    ],
  ])('records %s as a fail-open and still exits 0', async (_name, input, why) => {
    const result = await hook(input);
    expect(result.code).toBe(0);
    expect(result.digests).toEqual([]);
    expect(result.failOpens).toEqual([expect.objectContaining({ component: 'hook-digest-record', why })]);
  });

  it('an unwritable store records store-unwritable, writes nothing, and exits 0', async () => {
    const blocker = join(tempDir(), 'a-file');
    writeFileSync(blocker, 'not a directory');
    const result = await hook(readFileSync(join(HOOKS, 'post-tool-use-skill.json'), 'utf8'), {
      TALLY_DIGEST_DIR: join(blocker, 'digests'),
    });
    expect(result.code).toBe(0);
    expect(result.failOpens).toEqual([expect.objectContaining({ why: 'store-unwritable' })]);
  });

  it('a placeholder session id is refused: cold start, nothing written', async () => {
    const payload = JSON.parse(readFileSync(join(HOOKS, 'post-tool-use-skill.json'), 'utf8'));
    const result = await hook(JSON.stringify({ ...payload, session_id: '${CLAUDE_SESSION_ID}' }));
    expect(result).toMatchObject({ code: 0, digests: [] });
  });
});
