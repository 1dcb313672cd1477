import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDeterministicScout } from '../../src/agents/scout/deterministic-scout.js';
import { scoutVerifier } from '../../src/agents/scout/scout-agent.js';
import { evidenceView } from '../../src/core/agent/claims.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import { listStores } from '../../src/packs/records/stores.js';
import { recordClaimResolver } from '../../src/packs/records/tools/records-tools.js';
import { tempLedger } from '../helpers.js';
import { corpus, tally } from '../packs/records/records-fixture.js';

describe('deterministic scout', () => {
  it('recall first, probes for the gaps, one --cat batch; GOVERNS were read, COMMANDS are verbatim; the ledger holds the paths read', async () => {
    const root = corpus();
    const ledger = tempLedger();
    const source = openRecordSource(root, listStores(root));
    const report = await runDeterministicScout({
      goal: 'how do I release a version of acme/shop',
      root,
      source,
      ledger,
      priorDigests: [],
    });
    source.close();
    expect(report.result.endingReason).toBe('finished');
    expect(report.text).toContain('REPO: acme/shop [from goal]');
    expect(report.text).toMatch(
      /GOVERNS:\n- references\/failure-modes\/dirty-working-tree\.md \[recall\] newly found\n- references\/procedures\/release-a-version\.md \[keyword: .*\] newly found/,
    );
    expect(report.text).toContain('COMMANDS:\n- npm run release -- --dry-run\n- git tag -s vX.Y.Z');
    expect(report.text).toContain('mistakes.jsonl:2 — [release] Released without reading the changelog');
    expect(report.text).toMatch(
      /UNREACHABLE:\n- references\/decisions\/semantic-versioning\.md \(linked from references\/procedures\/release-a-version\.md as decisions\/DEC-semver\) — should have matched: records query --keyword "release version semver"/,
    );
    const calls = ledger.entries(report.result.runId).filter((entry) => entry.kind === 'tool_call');
    expect(calls.map((entry) => entry.name)).toEqual(['records_recall', 'records_query', 'records_cat']);
    const effects = (calls[2]?.data.evidence as { effects: { kind: string; key: string }[] } | undefined)
      ?.effects;
    expect(effects?.map((effect) => `${effect.kind} ${effect.key}`)).toEqual([
      'read references/failure-modes/dirty-working-tree.md',
      'read references/procedures/release-a-version.md',
    ]);
    // Recall and query show paths; only records_cat reads them.
    expect(calls[0]?.data.evidence).not.toHaveProperty('effects');
    expect(calls[1]?.data.evidence).not.toHaveProperty('effects');
  });

  it('a record that matches too little of the goal does not govern: NOT FOUND, with it and the queries tried under UNREACHABLE (issue 18)', async () => {
    const root = corpus();
    const ledger = tempLedger();
    const source = openRecordSource(root, listStores(root));
    // "create" alone reaches the credentials procedure ("create the new role first").
    const report = await runDeterministicScout({
      goal: 'create hello.txt',
      root,
      source,
      ledger,
      priorDigests: [],
    });
    source.close();
    expect(report.result.endingReason).toBe('stopped');
    expect(report.text).toContain('GOVERNS:\n- (none)');
    expect(report.text).toContain('COMMANDS:\n- (none)');
    expect(report.text).not.toContain('psql');
    expect(report.text).toContain(
      'references/procedures/rotate-database-credentials.md — below the relevance floor: matched 1 of 3 goal terms (create; 50% needed), so it does not govern',
    );
    expect(report.text).toContain(
      '- queries tried: records query --recall "create hello txt"; records query --keyword "create hello txt"',
    );
    expect(report.text).toMatch(/NOT FOUND:\n- create\n- hello\n- txt/);
  });

  it('the verifier drops a GOVERNS path that was not read and a command no read record states', async () => {
    const root = '/records';
    const entry = (seq: number, tool: string, effects: unknown[]) => ({
      runId: 'r',
      seq,
      ts: '',
      kind: 'tool_call' as const,
      name: tool,
      outcome: 'ok',
      data: { tool, target: tool, input: {}, evidence: { effects } },
    });
    const view = evidenceView(
      'r',
      [
        entry(2, 'records_recall', []),
        entry(3, 'records_cat', [
          {
            kind: 'read',
            space: 'record',
            key: 'references/a.md',
            id: 'references/a.md',
            type: 'record',
            observed: { commands: ['npm test'] },
          },
        ]),
      ],
      new Set(),
    );
    const verdicts = await scoutVerifier(recordClaimResolver(root))(
      [
        { target: 'references/a.md', type: 'governs', label: 'recall' },
        { target: './references/a.md', type: 'governs', label: 'recall' },
        { target: `${root}/references/b.md`, type: 'governs', label: 'keyword' },
        { target: 'npm test', type: 'command' },
        { target: 'rm -rf /', type: 'command' },
        { target: 'npm test', type: 'command' },
      ],
      view,
    );
    expect(verdicts.map((verdict) => verdict.verified)).toEqual([true, false, false, true, false, false]);
    // The same record spelled with ./ is one record: counted once, reported as a duplicate,
    // with the key it repeats (what `tally verify` re-checks it by).
    expect(verdicts[1]).toMatchObject({ duplicate: true, resource: 'references/a.md' });
    // A command claimed twice is one item too.
    expect(verdicts[5]).toMatchObject({ duplicate: true, resource: 'npm test' });
    expect(verdicts[2]).toMatchObject({ why: expect.stringContaining('not read with records_cat') });
  });

  it('warm-starts from this session’s digests, marks what was already established, and writes a digest', async () => {
    const root = corpus();
    const env = { TALLY_LEDGER: join(root, 'ledger.db') };
    const first = await tally(['scout', 'release a version', '--root', root, '--session', 'sess-1'], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('newly found');
    const second = await tally(['scout', 'release a version', '--root', root, '--session', 'sess-1'], {
      env,
    });
    expect(second.stdout).toContain('(warm start: 1 digest(s) this session)');
    expect(second.stdout).toMatch(
      /references\/procedures\/release-a-version\.md \[keyword: [^\]]+\] already established/,
    );
    expect(second.stdout).toContain(
      'STANDING NOTES:\n- 1 earlier digest(s) this session; a starting point, not coverage',
    );
    // Another session starts cold.
    const other = await tally(['scout', 'release a version', '--root', root, '--session', 'sess-2'], { env });
    expect(other.stdout).not.toContain('warm start');
    const read = await tally(['digest', 'read', '--root', root, '--session', 'sess-1']);
    expect(read.stdout.split('\n')[0]).toBe('digests: 2 for session sess-1');
    const ledger = Ledger.open(join(root, 'ledger.db'));
    expect(ledger.listRuns({ agent: 'scout' })).toHaveLength(3);
    ledger.close();
  });

  it('says NOT FOUND honestly when nothing matches', async () => {
    const root = corpus();
    const result = await tally(['scout', 'kubernetes helm charts', '--root', root], {
      env: { TALLY_LEDGER: join(root, 'l.db') },
    });
    // The run ends stopped (nothing governs the goal), and the exit code says what the ledger
    // says, as grep's does for no match: 1, never a 0 beside a run recorded as failed.
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/GOVERNS:\n- \(none\)/);
    expect(result.stdout).toMatch(/NOT FOUND:\n- kubernetes\n- helm\n- charts/);
    expect(result.stdout).toContain('· failed · stopped');
    expect(result.stdout).toContain('unmet: ');
  });
});
