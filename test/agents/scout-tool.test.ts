import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../src/agents/coder/run-turn.js';
import type { ScoutReport } from '../../src/agents/scout/deterministic-scout.js';
import { type ScoutToolResult, scoutOutcome, scoutTool } from '../../src/agents/scout/scout-tool.js';
import { defineAgent } from '../../src/core/agent/agent-definition.js';
import type { RunResult } from '../../src/core/agent/ending.js';
import { runAgent } from '../../src/core/agent/run-agent.js';
import type { Effect } from '../../src/core/effects.js';
import type { Ledger } from '../../src/core/ledger/ledger.js';
import { callTool, say, scriptedModel } from '../../src/testing/scripted-model.js';
import { tempLedger } from '../helpers.js';
import { corpus } from '../packs/records/records-fixture.js';
import { promptTexts, sampleProject } from './coder/coder-fixtures.js';

const GOAL = 'release a version of acme/shop';
const RELEASE = 'references/procedures/release-a-version.md';
const DIRTY = 'references/failure-modes/dirty-working-tree.md';
// Linked from the release procedure, but no query returns it: the scout never reads it.
const SEMVER = 'references/decisions/semantic-versioning.md';

/** The scout tool's call in a parent run, as the ledger holds it. */
function scoutCall(ledger: Ledger, runId: string) {
  const entry = ledger
    .entries(runId)
    .find((candidate) => candidate.kind === 'tool_call' && candidate.name === 'scout');
  expect(entry, 'the parent run has a scout call').toBeDefined();
  return {
    outcome: entry?.outcome,
    result: entry?.data.result as ScoutToolResult,
    evidence: entry?.data.evidence as {
      via: string;
      subRun: { runId: string; agent: string; tier: string };
      effects: Effect[];
    },
  };
}

/** A parent that must finish with claims, checked by the default verifier over its own ledger. */
function planner(tool: ReturnType<typeof scoutTool>) {
  return defineAgent({
    name: 'planner',
    instructions: 'Call `scout` with the goal, then finish with what you read.',
    tools: [tool],
    claimEffect: 'read',
  });
}

describe('the scout as a sub-agent tool', () => {
  it('the Coder (with --records-root) calls it on the fixture corpus: governing records back, the sub-run linked to the turn', async () => {
    const records = corpus();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('scout', { goal: GOAL }, 'Checking what governs a release first.'),
      say('The release procedure governs this: run npm run release -- --dry-run first.'),
    ]);

    const turn = await runTurn({
      message: `Prepare to ${GOAL}.`,
      root: sampleProject(),
      ledger,
      model,
      // How `tally code --records-root` reaches the Coder.
      decisions: { recordsRoot: records },
      browser: false,
    });

    model.assertComplete();
    expect(turn.endingReason).toBe('finished');
    expect(turn.flags).toEqual([]);
    expect(turn.changes).toEqual([]);
    expect(turn.tools.map((call) => `${call.tool} ${call.outcome}`)).toEqual(['scout ok']);
    // The Coder was told about the tool and given it.
    const first = model.calls[0];
    expect(first?.tools?.map((tool) => tool.name)).toContain('scout');
    expect(promptTexts(first?.prompt ?? []).find((message) => message.role === 'system')?.text).toContain(
      'call `scout` with the goal',
    );

    const call = scoutCall(ledger, turn.runId);
    expect(call.outcome).toBe('ok');
    expect(call.result.governs.map((record) => record.path)).toEqual([DIRTY, RELEASE]);
    expect(call.result.commands).toEqual(['npm run release -- --dry-run', 'git tag -s vX.Y.Z']);
    expect(call.result.repo).toEqual({ name: 'acme/shop', from: 'goal' });
    expect(call.result.tier).toBe('deterministic');
    expect(call.result.unreachable.join('\n')).toContain(SEMVER);
    // The ledger keeps the report, not the records' text; the model got the text.
    expect(JSON.stringify(call.result)).not.toContain('"content"');
    const toolMessage = model.calls[1]?.prompt.find((message) => message.role === 'tool');
    expect(JSON.stringify(toolMessage)).toContain('npm run release -- --dry-run');
    expect(JSON.stringify(toolMessage)).toContain('"content":"---\\nid: PROC-release');

    // The sub-run: its own run in the same ledger, naming the turn's run as its parent; the
    // parent's call names it back and carries its reads.
    const subRunId = call.result.subRunId;
    expect(call.evidence.subRun).toMatchObject({ runId: subRunId, agent: 'scout', tier: 'deterministic' });
    expect(call.evidence.via).toBe(`scout run ${subRunId}`);
    const sub = ledger.getRun(subRunId);
    expect(sub.run).toMatchObject({ agent: 'scout', meta: { parentRunId: turn.runId, calledAs: 'tool' } });
    expect(ledger.listRuns({ agent: 'scout' }).map((run) => run.id)).toEqual([subRunId]);
    const cat = sub.entries.find((entry) => entry.name === 'records_cat');
    const read = (cat?.data.evidence as { effects: Effect[] } | undefined)?.effects ?? [];
    expect(read.map((effect) => `${effect.kind} ${effect.key}`)).toEqual([
      `read ${DIRTY}`,
      `read ${RELEASE}`,
    ]);
    expect(call.evidence.effects.map((effect) => `${effect.kind} ${effect.space}:${effect.key}`)).toEqual([
      `read record:${DIRTY}`,
      `read record:${RELEASE}`,
    ]);
    // Each carried read is the sub-run's own: same hash, and where in the sub-run it happened.
    for (const effect of call.evidence.effects) {
      const original = read.find((candidate) => candidate.key === effect.key);
      expect(effect.observed).toMatchObject({
        sha256: original?.observed?.sha256,
        subRunId,
        subRunSeq: cat?.seq,
      });
    }
    expect(sub.entries.filter((entry) => entry.kind === 'claim').map((entry) => entry.outcome)).toEqual([
      'verified',
      'verified',
      'verified',
      'verified',
    ]);
  });

  it('is only in the Coder’s toolset when a records root is configured', async () => {
    const model = scriptedModel([say('Hello.')]);
    await runTurn({
      message: 'what is in src?',
      root: sampleProject(),
      ledger: tempLedger(),
      model,
      browser: false,
    });
    expect(model.calls[0]?.tools?.map((tool) => tool.name) ?? []).not.toContain('scout');
    const off = scriptedModel([say('Hello.')]);
    await runTurn({
      message: 'what is in src?',
      root: sampleProject(),
      ledger: tempLedger(),
      model: off,
      browser: false,
      decisions: { recordsRoot: corpus() },
      scout: false,
    });
    expect(off.calls[0]?.tools?.map((tool) => tool.name) ?? []).not.toContain('scout');
  });

  it('adversarial: the parent claims it read a record the sub-run never read → dropped; what the sub-run read is verified', async () => {
    const root = corpus();
    const ledger = tempLedger();
    const model = scriptedModel([
      callTool('scout', { goal: GOAL }),
      callTool('finish', {
        summary: 'Read what governs a release.',
        claims: [
          { target: `./${RELEASE}`, effect: 'read' },
          { target: `${root}/${DIRTY}`, effect: 'read' },
          { target: SEMVER, effect: 'read' },
          { target: 'references/procedures/rotate-database-credentials.md' },
        ],
      }),
    ]);

    const result: RunResult = await runAgent(planner(scoutTool({ root, ledger })), GOAL, { ledger, model });

    model.assertComplete();
    expect(result.verified.map((item) => `${String(item.effect)} ${item.target}`)).toEqual([
      `read ${RELEASE}`,
      `read ${DIRTY}`,
    ]);
    const subRunId = scoutCall(ledger, result.runId).result.subRunId;
    for (const item of result.verified) expect(item.via).toBe(`scout run ${subRunId}`);
    expect(result.dropped.map((entry) => entry.claim.target)).toEqual([
      SEMVER,
      'references/procedures/rotate-database-credentials.md',
    ]);
    for (const entry of result.dropped) expect(entry.why).toMatch(/^this run has no effect on/);
    expect(result.status).toBe('partial');
    const claims = ledger.entries(result.runId).filter((entry) => entry.kind === 'claim');
    expect(claims.map((entry) => entry.outcome)).toEqual(['verified', 'verified', 'dropped', 'dropped']);
  });

  it('adversarial: a GOVERNS (and a command) the model scout claimed without reading is dropped by the sub-run and never comes back as verified', async () => {
    const root = corpus();
    const ledger = tempLedger();
    // The scout's OWN model (never the parent's): it reads the procedure, then also claims
    // the linked decision it never read and a command no record states.
    const scoutModel = scriptedModel([
      callTool('records_recall', { terms: 'release version' }),
      callTool('records_query', { keyword: 'release', project: 'acme/shop' }),
      callTool('records_cat', { paths: [RELEASE] }),
      callTool('finish', {
        summary: 'The release procedure and the versioning decision govern.',
        governs: [
          { path: RELEASE, label: 'keyword: release' },
          { path: SEMVER, label: 'link from the procedure' },
        ],
        commands: ['npm run release -- --dry-run', 'npm publish --force'],
      }),
    ]);
    const parentModel = scriptedModel([
      callTool('scout', { goal: GOAL }),
      callTool('finish', {
        summary: 'Read what governs a release.',
        claims: [
          { target: RELEASE, effect: 'read' },
          { target: SEMVER, effect: 'read' },
        ],
      }),
    ]);

    const result = await runAgent(planner(scoutTool({ root, ledger, model: scoutModel })), GOAL, {
      ledger,
      model: parentModel,
    });

    scoutModel.assertComplete();
    parentModel.assertComplete();
    const call = scoutCall(ledger, result.runId);
    expect(call.result.tier).toBe('model');
    const governs = call.result.governs.map((record) => record.path);
    expect(governs).toContain(RELEASE);
    expect(governs).not.toContain(SEMVER);
    expect(call.result.commands).toContain('npm run release -- --dry-run');
    expect(call.result.commands).not.toContain('npm publish --force');
    expect(call.result.dropped.map((entry) => entry.target)).toEqual([SEMVER, 'npm publish --force']);
    expect(call.evidence.effects.map((effect) => effect.key)).not.toContain(SEMVER);
    // The sub-run is linked and its model calls are its own.
    const sub = ledger.getRun(call.result.subRunId);
    expect(sub.run.meta).toMatchObject({ parentRunId: result.runId, tier: 'model' });
    expect(sub.entries.filter((entry) => entry.kind === 'model_call')).toHaveLength(4);
    expect(ledger.entries(result.runId).filter((entry) => entry.kind === 'model_call')).toHaveLength(2);

    expect(result.verified.map((item) => item.target)).toEqual([RELEASE]);
    expect(result.dropped.map((entry) => entry.claim.target)).toEqual([SEMVER]);
  });

  it('reports only what the sub-run’s ledger shows it read, and the content only when its hash matches the read', async () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'scout', task: GOAL });
    recorder.append({
      kind: 'tool_call',
      name: 'records_cat',
      outcome: 'ok',
      data: {
        tool: 'records_cat',
        target: 'cat',
        input: { paths: [RELEASE] },
        evidence: {
          via: 'records_cat 1 record',
          effects: [
            {
              kind: 'read',
              space: 'record',
              key: RELEASE,
              id: RELEASE,
              type: 'record',
              observed: { sha256: 'a'.repeat(64), commands: ['npm test'] },
            },
          ],
        },
      },
    });
    const item = (path: string, seq: number) => ({
      target: path,
      resource: path,
      type: 'governs',
      label: 'recall',
      via: `records_cat ${path}`,
      evidenceSeq: seq,
    });
    // A result that says more than its ledger: a GOVERNS for a record no records_cat read,
    // a command no read record states, and content that is not what was read.
    const report = {
      result: {
        runId: recorder.runId,
        agent: 'scout',
        status: 'success',
        endingReason: 'finished',
        summary: '',
        verified: [
          item(RELEASE, 1),
          item(SEMVER, 1),
          { target: 'npm test', type: 'command', via: 'x', evidenceSeq: 1 },
          { target: 'rm -rf /', type: 'command', via: 'x', evidenceSeq: 1 },
        ],
        dropped: [],
        duplicates: [],
        failed: [],
        unmet: [],
        counts: { modelCalls: 0, toolCalls: 1, failures: 0 },
      },
      text: '',
      parts: {
        goal: GOAL,
        repo: {},
        result: undefined as never,
        established: new Set<string>(),
        traps: [],
        priorDigests: 0,
        unreachable: [],
        notFound: [],
      },
      tier: 'deterministic',
      read: [{ path: RELEASE, content: 'not what was read' }],
    } as unknown as ScoutReport;

    const { result, evidence } = scoutOutcome(report, ledger, { rows: () => [] });

    expect(result.governs).toEqual([
      {
        path: RELEASE,
        label: 'recall',
        sha256: 'a'.repeat(64),
        commands: ['npm test'],
        evidenceSeq: 1,
      },
    ]);
    expect(result.commands).toEqual(['npm test']);
    expect(result.repo).toBeNull();
    expect(evidence.effects.map((effect) => effect.key)).toEqual([RELEASE]);
  });
});

describe('scoutOutcome: only what the sub-run read comes back', () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const CONTENT = '# Release a version\n\nRun `npm run release -- --dry-run` first.\n';

  /** A sub-run whose ledger shows: a records_cat read of RELEASE, a created record, a file read. */
  function subRun(ledger: Ledger) {
    const recorder = ledger.startRun({ agent: 'scout', task: GOAL });
    const effect = (kind: string, space: string, key: string, commands: string[], sha256?: string) => ({
      kind,
      space,
      key,
      id: key,
      type: 'record',
      observed: { ...(sha256 ? { sha256 } : {}), commands },
    });
    recorder.append({
      kind: 'tool_call',
      name: 'records_cat',
      outcome: 'ok',
      data: {
        tool: 'records_cat',
        target: 'cat',
        input: { paths: [RELEASE] },
        evidence: {
          via: 'records_cat',
          effects: [
            effect('read', 'record', RELEASE, ['npm run release -- --dry-run', 'npm test'], sha(CONTENT)),
            // Not reads of a record: what they state is no command the sub-run read.
            effect('created', 'record', DIRTY, ['git stash']),
            effect('read', 'file', 'notes.md', ['rm -rf build']),
          ],
        },
      },
    });
    return recorder.runId;
  }

  const report = (runId: string, verified: object[], extra: object[], read: object[]) =>
    ({
      result: {
        runId,
        agent: 'scout',
        status: 'success',
        endingReason: 'finished',
        summary: '',
        verified,
        dropped: [],
        duplicates: [],
        failed: [],
        unmet: [],
        counts: { modelCalls: 0, toolCalls: 1, failures: 0 },
      },
      text: 'report text',
      parts: {
        goal: GOAL,
        repo: { repo: 'acme/shop' },
        result: undefined as never,
        established: new Set<string>(),
        traps: [],
        priorDigests: 0,
        unreachable: [],
        notFound: [],
        extra,
      },
      tier: 'model',
      read,
    }) as unknown as ScoutReport;

  it('one entry per record (by target or resource), its title and content when the hash matches; commands only from record reads', () => {
    const ledger = tempLedger();
    const runId = subRun(ledger);
    const { result, evidence } = scoutOutcome(
      report(
        runId,
        [
          { target: RELEASE, type: 'governs', label: 'recall', via: 'x', evidenceSeq: 1 },
          {
            target: 'RELEASE again',
            resource: RELEASE,
            type: 'governs',
            label: 'probe',
            via: 'x',
            evidenceSeq: 1,
          },
          { target: DIRTY, type: 'governs', label: 'recall', via: 'x', evidenceSeq: 1 },
          { target: 'npm run release -- --dry-run', type: 'command', via: 'x', evidenceSeq: 1 },
          { target: 'git stash', type: 'command', via: 'x', evidenceSeq: 1 },
          { target: 'rm -rf build', type: 'command', via: 'x', evidenceSeq: 1 },
          // A GOVERNS whose target is a stated command is no command.
          {
            target: 'npm test',
            resource: RELEASE,
            type: 'governs',
            via: 'x',
            evidenceSeq: 1,
          },
        ],
        [{ target: 'npm run release -- --dry-run', type: 'command', via: 'extra', evidenceSeq: 1 }],
        [{ path: RELEASE, content: CONTENT }],
      ),
      ledger,
      { rows: () => [{ path: RELEASE, title: 'Release a version' }] as never },
    );
    expect(result.governs).toEqual([
      {
        path: RELEASE,
        label: 'recall',
        title: 'Release a version',
        sha256: sha(CONTENT),
        commands: ['npm run release -- --dry-run', 'npm test'],
        content: CONTENT,
        evidenceSeq: 1,
      },
    ]);
    expect(result.commands).toEqual(['npm run release -- --dry-run']);
    expect(result.repo).toEqual({ name: 'acme/shop', from: 'unknown' });
    expect(evidence.effects).toEqual([
      {
        kind: 'read',
        space: 'record',
        key: RELEASE,
        id: RELEASE,
        type: 'record',
        observed: {
          sha256: sha(CONTENT),
          commands: ['npm run release -- --dry-run', 'npm test'],
          subRunId: runId,
          subRunSeq: 1,
        },
      },
    ]);
  });

  it('a GOVERNS found only among the model scout’s extra items still needs its read; no content without the text read', () => {
    const ledger = tempLedger();
    const runId = subRun(ledger);
    const { result } = scoutOutcome(
      report(
        runId,
        [],
        [{ target: RELEASE, type: 'governs', label: 'judged', via: 'extra', evidenceSeq: 1 }],
        [],
      ),
      ledger,
      { rows: () => [] },
    );
    expect(result.governs).toEqual([
      {
        path: RELEASE,
        label: 'judged',
        sha256: sha(CONTENT),
        commands: ['npm run release -- --dry-run', 'npm test'],
        evidenceSeq: 1,
      },
    ]);
    expect(result.ok).toBe(true);
    // A sub-run that ended in a failure is not ok, whatever it verified before it ended.
    for (const endingReason of ['model_error', 'aborted', 'tool_failure']) {
      const failed = report(runId, [], [], []);
      (failed.result as { endingReason: string }).endingReason = endingReason;
      expect(scoutOutcome(failed, ledger, { rows: () => [] }).result.ok, endingReason).toBe(false);
    }
  });

  it('the tool is read-only and names its target by the goal, folded and cut at 120 characters', () => {
    const tool = scoutTool({ root: corpus(), ledger: tempLedger() });
    expect(tool.annotations.readOnly).toBe(true);
    expect(tool.timeoutMs).toBe(120_000);
    expect(tool.target?.({ goal: '  release\n a   version ' })).toBe('scout release a version');
    expect(tool.target?.({ goal: 'x'.repeat(300) })).toBe(`scout ${'x'.repeat(120)}`);
  });
});
