import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordDigestFromHook } from '../../src/packs/records/digests/record-digest-from-hook.js';
import { runTally, tempDir } from '../helpers.js';

// digest-record on the PostToolUse payloads Claude Code 2.1.332 really sends (recorded in
// test/fixtures/hooks/claude-code-2.1.332 by the headless tests' exploration).
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'hooks', 'claude-code-2.1.332');
const SESSION = 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

function project() {
  const cwd = join(tempDir(), 'shop');
  mkdirSync(join(cwd, '.tally'), { recursive: true });
  // A record store, so `tally scout` has something to search (it refuses a folder without one).
  mkdirSync(join(cwd, 'references', 'decisions'), { recursive: true });
  const env = { HOME: join(cwd, '..', 'home'), XDG_STATE_HOME: join(cwd, '..', 'state') };
  const payload = (name: string, patch: Record<string, unknown> = {}) =>
    JSON.stringify({
      ...JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')),
      session_id: SESSION,
      cwd,
      ...patch,
    });
  const digests = () => {
    try {
      return readdirSync(join(cwd, '.tally', 'digests')).filter((file) => file.includes('.digest.'));
    } catch {
      return [];
    }
  };
  return { cwd, env, payload, digests };
}

describe('digest-record stores only Tally’s own scout reports, once per scout run', () => {
  it('a forked how-do-i result is stored', () => {
    const p = project();
    const report = recordDigestFromHook(p.payload('post-skill-forked.json'), { env: p.env, cwd: p.cwd });
    expect(report.failOpens).toEqual([]);
    expect(p.digests()).toHaveLength(1);
  });

  it('an inline skill ({ success, commandName }, no result) is declined quietly, not payload-shape-unrecognized', () => {
    const p = project();
    const inline = JSON.parse(readFileSync(join(FIXTURES, 'post-skill-inline.json'), 'utf8'));
    expect(inline.tool_response).toEqual({ success: true, commandName: 'tally:am-i-done' });
    // Even when wired for every skill, the inline one of Tally's own logs nothing.
    const report = recordDigestFromHook(
      p.payload('post-skill-inline.json', { tool_input: { skill: 'tally:how-do-i' } }),
      {
        env: p.env,
        cwd: p.cwd,
      },
    );
    expect([report.failOpens, report.notes, p.digests()]).toEqual([[], [], []]);
  });

  it('another plugin’s skill result is not stored', () => {
    const p = project();
    const report = recordDigestFromHook(
      p.payload('post-skill-forked.json', { tool_input: { skill: 'other-plugin:research', args: 'x' } }),
      { env: p.env, cwd: p.cwd },
    );
    expect([report.failOpens, p.digests()]).toEqual([[], []]);
  });

  it('the skill returning a `tally scout --session` report verbatim does not store that digest a second time', async () => {
    const p = project();
    const scout = await runTally(['scout', 'create hello.txt', '--root', p.cwd, '--session', SESSION], {
      cwd: p.cwd,
      env: p.env,
    });
    // Nothing governs "create hello.txt" here: the scout ends stopped (exit 1), its digest written.
    expect(scout.code, scout.stderr).toBe(1);
    expect(p.digests()).toHaveLength(1);
    const forked = JSON.parse(readFileSync(join(FIXTURES, 'post-skill-forked.json'), 'utf8'));
    const again = recordDigestFromHook(
      p.payload('post-skill-forked.json', {
        tool_response: { ...forked.tool_response, result: scout.stdout },
      }),
      { env: p.env, cwd: p.cwd },
    );
    expect(again.failOpens).toEqual([]);
    expect(p.digests()).toHaveLength(1);
    // A different report (another run found something else) is a new digest.
    recordDigestFromHook(p.payload('post-skill-forked.json'), { env: p.env, cwd: p.cwd });
    expect(p.digests()).toHaveLength(2);
  });
});
