import type { LLMock } from '@copilotkit/aimock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeterministicScout } from '../../src/agents/scout/deterministic-scout.js';
import { runModelScout } from '../../src/agents/scout/model-scout.js';
import { resolveModel } from '../../src/core/models/resolve-model.js';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import { listStores } from '../../src/packs/records/stores.js';
import { type AimockServer, startAimock } from '../../src/testing/aimock.js';
import { tempLedger } from '../helpers.js';
import { corpus } from '../packs/records/records-fixture.js';

const RELEASE = 'references/procedures/release-a-version.md';
const GOAL = 'how do I release a version of acme/shop';
const CREDENTIALS = 'references/procedures/rotate-database-credentials.md';
const section = (text: string, title: string) =>
  (new RegExp(`^${title}:\\n((?:- .*\\n?)*)`, 'm').exec(text)?.[1] ?? '')
    .split('\n')
    .map((line) => line.replace(/^- /, ''))
    .filter((line) => line && line !== '(none)');

// The model scout through the real @ai-sdk/openai provider against aimock (OpenAI wire format).
describe('model scout over @ai-sdk/openai against aimock, on the fixture corpus', () => {
  let server: AimockServer<LLMock>;

  beforeAll(async () => {
    server = await startAimock<LLMock>((mock) => {
      const call = (id: string, name: string, input: unknown) => ({
        toolCalls: [{ id, name, arguments: JSON.stringify(input) }],
      });
      mock.onToolResult('call_finish', { content: 'Reported.' });
      mock.onToolResult(
        'call_cat',
        call('call_finish', 'finish', {
          summary: 'The release procedure governs.',
          // The model judges only the procedure; it also claims a command no record states.
          governs: [{ path: `./${RELEASE}`, label: 'keyword: release' }],
          commands: ['npm run release -- --dry-run', 'npm publish --force'],
        }),
      );
      mock.onToolResult('call_query', call('call_cat', 'records_cat', { paths: [RELEASE] }));
      mock.onToolResult(
        'call_recall',
        call('call_query', 'records_query', { keyword: 'release', project: 'acme/shop' }),
      );
      // "create hello.txt": the model claims the credentials procedure ("create the new role
      // first") and its psql line — below the relevance floor both tiers share (issue 18).
      mock.onToolResult('call_h_finish', { content: 'Reported.' });
      mock.onToolResult(
        'call_h_cat',
        call('call_h_finish', 'finish', {
          summary: 'The credentials procedure governs.',
          governs: [{ path: CREDENTIALS, label: 'keyword: create' }],
          commands: ['psql -c "ALTER ROLE app_v2 LOGIN"'],
        }),
      );
      mock.onToolResult('call_h_recall', call('call_h_cat', 'records_cat', { paths: [CREDENTIALS] }));
      mock.onMessage(
        'Goal: create hello.txt',
        call('call_h_recall', 'records_recall', { terms: 'create hello txt' }),
      );
      mock.onMessage(
        'Goal: how do I release a version of acme/shop',
        call('call_recall', 'records_recall', { terms: 'release version' }),
      );
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('GOVERNS, COMMANDS, REPO and UNREACHABLE come from the ledger; the budget holds; it never finds fewer than the tier without a model', async () => {
    const root = corpus();
    const source = openRecordSource(root, listStores(root));
    const ledger = tempLedger();
    const model = await resolveModel('openai:gpt-4.1-mini', server.env);
    const report = await runModelScout({
      goal: GOAL,
      root,
      source,
      ledger,
      priorDigests: [],
      model,
      maxRetries: 0,
    });
    const baseline = await runDeterministicScout({ goal: GOAL, root, source, ledger, priorDigests: [] });
    source.close();

    const calls = ledger.entries(report.result.runId).filter((entry) => entry.kind === 'tool_call');
    expect(calls.map((entry) => entry.name)).toEqual([
      'records_recall',
      'records_query',
      'records_cat',
      'finish',
    ]);
    // One batch: what the model asked for plus the deterministic tier's candidates, each a read effect.
    const evidence = calls[2]?.data.evidence as { effects?: { kind: string; key: string }[] } | undefined;
    const reads = (evidence?.effects ?? []).map((effect) => `${effect.kind} ${effect.key}`);
    expect(reads).toContain(`read ${RELEASE}`);
    expect(reads).toContain('read references/failure-modes/dirty-working-tree.md');

    const governs = section(report.text, 'GOVERNS').map((line) => line.split(' ')[0]);
    expect(governs[0]).toBe(RELEASE);
    // Everything the tier without a model found, the model tier reports too (read in its own run).
    for (const path of section(baseline.text, 'GOVERNS').map((line) => line.split(' ')[0]))
      expect(governs).toContain(path);
    for (const path of governs) expect(reads).toContain(`read ${path}`);
    expect(report.text).toMatch(/dirty-working-tree\.md \[recall; deterministic tier\] newly found/);

    expect(section(report.text, 'COMMANDS')).toEqual(['npm run release -- --dry-run']);
    expect(report.result.dropped.map((entry) => entry.claim.target)).toEqual(['npm publish --force']);
    expect(report.text).toContain(
      'npm publish --force: no record read in this run states this command verbatim',
    );
    expect(report.text).toContain('REPO: acme/shop [from goal]');
    expect(section(report.text, 'UNREACHABLE').join('\n')).toMatch(
      /should have matched: records query --keyword "/,
    );
    expect(report.text).toMatch(
      /model tier: 3 records tool call\(s\) of 4, one records_cat batch; ended finished/,
    );
    expect(report.result.endingReason).toBe('finished');
    expect(report.result.status).not.toBe('success'); // a claim was dropped
  });

  it('what the model claims below the relevance floor does not govern: no GOVERNS, no psql command, UNREACHABLE says why', async () => {
    const root = corpus();
    const source = openRecordSource(root, listStores(root));
    const ledger = tempLedger();
    const model = await resolveModel('openai:gpt-4.1-mini', server.env);
    const report = await runModelScout({
      goal: 'create hello.txt',
      root,
      source,
      ledger,
      priorDigests: [],
      model,
      maxRetries: 0,
    });
    source.close();
    // The run verified the claim (the record was read); the report still does not let it govern.
    expect(report.result.verified.map((item) => item.target)).toContain(CREDENTIALS);
    expect(section(report.text, 'GOVERNS')).toEqual([]);
    expect(section(report.text, 'COMMANDS')).toEqual([]);
    expect(section(report.text, 'UNREACHABLE')).toContain(
      `${CREDENTIALS} — below the relevance floor: matched 1 of 3 goal terms (create; 50% needed), so it does not govern`,
    );
    expect(section(report.text, 'NOT FOUND')).toEqual(['create', 'hello', 'txt']);
  });
});
