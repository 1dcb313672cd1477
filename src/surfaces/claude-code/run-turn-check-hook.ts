import { isAbsolute, join } from 'node:path';
import { unusablePath } from '../../core/io/private-dir.js';
import { hookFailOpenLog } from '../../packs/records/digests/hook-state.js';
import { classifyToolCall, turnCallChanges } from './classify-tool-call.js';
import { PLUGIN_NAME, resolveSkill } from './resolve-skill.js';
import { findScoutRun, hasRecordStores, scoutLedgerPath, scoutRecordsRoot } from './scout-run-fact.js';
import { readTranscriptTurn } from './transcript-turn.js';
import {
  freshTurn,
  readTurnState,
  reapTurnStates,
  type TurnCheckStateDir,
  turnCheckStateDir,
  writeTurnState,
} from './turn-check-state.js';
import { type TurnCheckName, turnCheckSwitchedOff } from './turn-check-switch.js';
// Registers the reasons this hook records.
import './hook-fail-open-reasons.js';

export const TURN_CHECK_HOOKS = ['turn-reset', 'turn-record', 'gate-how-do-i', 'gate-am-i-done'] as const;
export type TurnCheckHookName = (typeof TURN_CHECK_HOOKS)[number];

const EVENT: Record<TurnCheckHookName, string> = {
  'turn-reset': 'UserPromptSubmit',
  'turn-record': 'PostToolUse',
  'gate-how-do-i': 'PreToolUse',
  'gate-am-i-done': 'Stop',
};

/** What a hook run decided, for the command to print and log. It never throws for a payload. */
export interface TurnCheckReport {
  /** Claude Code's decision JSON, when the hook decides anything (deny, block). */
  stdout?: string;
  failOpens: { why: string; session?: string }[];
  /** Lines for stderr: what was released and why. */
  notes: string[];
  failOpenLog?: string;
}

export interface TurnCheckContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Set when stdin was cut off (too large, too slow): the payload is unreadable. */
  stdinProblem?: string;
}

type Payload = Record<string, unknown>;

/** The skill's bare name, whatever the spelling: `/how-do-i`, `tally:how-do-i`, ` how-do-i `. */
function bareName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.trim().replace(/^\//, '').split(/\s/)[0]?.split(':').at(-1);
}

/**
 * Whether a successful tool call was the am-i-done review. The how-do-i gate is not opened
 * here: a Skill reports `success: true` even when its scout command was refused, and an
 * asynchronous Agent reports `async_launched` before it did anything — that gate reads the
 * ledger instead (`findScoutRun`).
 */
function reviewRan(payload: Payload): boolean {
  const input = (payload.tool_input ?? {}) as Record<string, unknown>;
  const response = payload.tool_response as { success?: unknown; is_error?: unknown } | undefined;
  if (response && typeof response === 'object' && (response.success === false || response.is_error === true))
    return false;
  return (
    payload.tool_name === 'Skill' && bareName(input.skill ?? input.command ?? input.name) === 'am-i-done'
  );
}

/** The calls after the turn's last am-i-done review (the transcript leaves out calls that failed). */
function unreviewed<T extends { name: string; input: unknown }>(calls: T[]): T[] {
  const last = calls.findLastIndex((call) => {
    const input = (call.input ?? {}) as Record<string, unknown>;
    return call.name === 'Skill' && bareName(input.skill ?? input.command ?? input.name) === 'am-i-done';
  });
  return calls.slice(last + 1);
}

/** Claude Code hands a finished background task back as a prompt of its own; it is not a new turn. */
function isTaskNotification(payload: Payload): boolean {
  return typeof payload.prompt === 'string' && /^\s*<task-notification>/.test(payload.prompt);
}

/** The plugin's own launcher, which its skills and agent run the scout with. */
function pluginLaunchers(env: NodeJS.ProcessEnv): string[] {
  const root = env.CLAUDE_PLUGIN_ROOT;
  return root && isAbsolute(root) ? [join(root, 'bin', 'tally.js')] : [];
}

type Parsed = { payload: Payload } | { why: string; detail: string };

function parsePayload(stdin: string): Parsed {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdin);
  } catch (error) {
    if (error instanceof SyntaxError) return { why: 'malformed-payload', detail: 'stdin is not JSON' };
    throw error;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { why: 'non-object-payload', detail: 'the payload is not a JSON object' };
  return { payload: parsed as Payload };
}

/**
 * One turn-check hook, in process. `turn-reset` starts a turn (not for a background task's
 * notification), `turn-record` notes that the review ran, `gate-how-do-i` holds writing tools
 * until this turn's scout run is in the ledger,
 * `gate-am-i-done` asks for a review once per turn before the agent stops. Every way a gate
 * cannot decide releases (never wedges) and is recorded as a fail-open with its reason.
 */
export function runTurnCheckHook(
  name: TurnCheckHookName,
  stdin: string,
  context: TurnCheckContext,
): TurnCheckReport {
  const report: TurnCheckReport = { failOpens: [], notes: [] };
  const env: NodeJS.ProcessEnv = {
    ...context.env,
    // The plugin's `records_root` option names the root the user gave Tally.
    TALLY_RECORDS_ROOT: context.env.TALLY_RECORDS_ROOT || context.env.CLAUDE_PLUGIN_OPTION_RECORDS_ROOT || '',
  };
  const parsed: Parsed = context.stdinProblem
    ? { why: 'malformed-payload', detail: context.stdinProblem }
    : parsePayload(stdin);
  const payload: Payload = 'payload' in parsed ? parsed.payload : {};
  const session = typeof payload.session_id === 'string' ? payload.session_id : undefined;
  // The state folder (and the log beside it) is located only when a hook needs it: a read-only
  // call passes without touching the disk.
  const memo: { located?: TurnCheckStateDir } = {};
  const locate = (): TurnCheckStateDir => {
    if (!memo.located) {
      memo.located = turnCheckStateDir(env, payload.cwd, context.cwd);
      const log = hookFailOpenLog(env, memo.located.project);
      if (log) report.failOpenLog = log;
    }
    return memo.located;
  };
  const fail = (why: string, detail: string) => {
    locate();
    report.failOpens.push({ why, ...(session !== undefined ? { session } : {}) });
    report.notes.push(`${why} (${detail}); released.`);
  };
  if (!('payload' in parsed)) {
    fail(parsed.why, parsed.detail);
    return report;
  }
  if (payload.hook_event_name !== undefined && payload.hook_event_name !== EVENT[name]) {
    fail(
      'payload-shape-unrecognized',
      `expected a ${EVENT[name]} payload, got ${JSON.stringify(payload.hook_event_name).slice(0, 40)}`,
    );
    return report;
  }
  switch (name) {
    case 'turn-reset':
      if (isTaskNotification(payload)) return report;
      return turnReset(report, locate(), session, fail);
    case 'turn-record':
      return turnRecord(report, payload, locate, session, fail);
    case 'gate-how-do-i':
      return checkHowDoI(report, payload, env, locate, session, fail, context);
    case 'gate-am-i-done':
      return checkAmIDone(report, payload, env, locate, session, fail);
  }
}

type Fail = (why: string, detail: string) => void;

function turnReset(
  report: TurnCheckReport,
  located: TurnCheckStateDir,
  session: unknown,
  fail: Fail,
): TurnCheckReport {
  if ('refused' in located) {
    fail(located.refused, located.why);
    return report;
  }
  const written = writeTurnState(located.dir, session, freshTurn());
  if ('refused' in written) fail('store-unwritable', written.refused);
  reapTurnStates(located.dir);
  return report;
}

function turnRecord(
  report: TurnCheckReport,
  payload: Payload,
  locate: () => TurnCheckStateDir,
  session: unknown,
  fail: Fail,
): TurnCheckReport {
  if (!reviewRan(payload)) return report; // another skill or tool: nothing to record, not a failure
  const located = locate();
  if ('refused' in located) {
    fail(located.refused, located.why);
    return report;
  }
  const read = readTurnState(located.dir, session);
  if ('unreadable' in read)
    report.notes.push(`the turn state was unreadable (${read.unreadable}); starting it over.`);
  const state = 'state' in read ? read.state : freshTurn();
  const written = writeTurnState(located.dir, session, { ...state, reviewed: true });
  if ('refused' in written) fail('store-unwritable', written.refused);
  return report;
}

/**
 * What a turn check needs before it can hold anything: its skill installed, and this session's
 * turn state readable. Undefined (the check releases, the reason logged by `fail`) when either is
 * not. ("Gate" in Tally is the gate-keeper of an agent's tools; the plugin's hook names
 * `gate-how-do-i` and `gate-am-i-done`, its `gate_*` options and the `gate-*` fail-open reasons
 * keep their published spelling.)
 */
function heldTurn(
  check: TurnCheckName,
  payload: Payload,
  env: NodeJS.ProcessEnv,
  locate: () => TurnCheckStateDir,
  session: unknown,
  fail: Fail,
) {
  const skill = resolveSkill(check, env, payload.cwd);
  if ('unresolvable' in skill) {
    fail('skill-unresolvable', skill.unresolvable);
    return undefined;
  }
  const located = locate();
  if ('refused' in located) {
    fail('gate-state-unreadable', located.why);
    return undefined;
  }
  const read = readTurnState(located.dir, session);
  if (!('state' in read)) {
    fail('gate-state-unreadable', 'missing' in read ? read.missing : read.unreadable);
    return undefined;
  }
  return { skill, dir: located.dir, state: read.state };
}

function checkHowDoI(
  report: TurnCheckReport,
  payload: Payload,
  env: NodeJS.ProcessEnv,
  locate: () => TurnCheckStateDir,
  session: unknown,
  fail: Fail,
  context: TurnCheckContext,
): TurnCheckReport {
  const off = turnCheckSwitchedOff('how-do-i', env);
  if (off) {
    fail('gate-disabled', `switched off by ${off}`);
    return report;
  }
  const call = classifyToolCall(payload.tool_name, payload.tool_input, pluginLaunchers(env));
  if (!call.writes) return report;
  const held = heldTurn('how-do-i', payload, env, locate, session, fail);
  if (!held) return report;
  const { skill, dir, state } = held;
  if (state.scout) return report;
  const cwd = payload.cwd === undefined ? context.cwd : payload.cwd;
  const unusable = unusablePath(cwd);
  if (unusable) {
    fail('payload-shape-unrecognized', `the payload's cwd cannot hold a ledger: ${unusable}`);
    return report;
  }
  const records = scoutRecordsRoot(env, cwd as string);
  if (!hasRecordStores(records, env)) {
    report.notes.push(`no record stores under ${records}: nothing for the scout to consult; released.`);
    return report;
  }
  const ledger = scoutLedgerPath(env, cwd as string);
  const fact = findScoutRun(ledger, String(session), state.startedAt);
  if ('unreadable' in fact) {
    fail('gate-state-unreadable', fact.unreadable);
    return report;
  }
  if ('runId' in fact) {
    // Remembered, so later calls of this turn pass without opening the ledger.
    const written = writeTurnState(dir, session, { ...state, scout: true, scoutRun: fact.runId });
    if ('refused' in written)
      report.notes.push(`the scout run was found but not remembered (${written.refused}).`);
    return report;
  }
  report.stdout = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: howDoIReason(call.why, skill.invokeAs, env, String(session), ledger),
    },
  });
  return report;
}

/** The deny reason: every way to satisfy the gate, with the names Claude Code knows them by. */
function howDoIReason(
  why: string,
  skillName: string,
  env: NodeJS.ProcessEnv,
  session: string,
  ledger: string,
) {
  const plugin = skillName.includes(':');
  const agent = plugin ? `${PLUGIN_NAME}:scout` : 'scout';
  const launcher =
    plugin && env.CLAUDE_PLUGIN_ROOT ? `node "${env.CLAUDE_PLUGIN_ROOT}/bin/tally.js"` : 'tally';
  return (
    `Tally gate how-do-i: ${why}, so it is held until this turn's scout run is in the ledger ` +
    `(${ledger}, session ${session}). Any one of these records it: the Skill tool with skill ` +
    `"${skillName}" and your goal as args; the Agent tool with subagent_type "${agent}" and a prompt ` +
    `giving your goal and the session id ${session}; the MCP tool mcp__tally__scout with your goal and ` +
    `session "${session}"; or the command ${launcher} scout "<goal>" --session ${session}. ` +
    `A skill or agent whose scout command was refused, or that was only launched in the background, ` +
    `does not count until its run is in the ledger. Then retry. Read-only tools (Read, Grep, Glob, ` +
    `read-only shell commands such as ls, cat, grep, git log) pass meanwhile. ` +
    `Off switch: plugin option gate_how_do_i=false or TALLY_GATE_HOW_DO_I=off.`
  );
}

function checkAmIDone(
  report: TurnCheckReport,
  payload: Payload,
  env: NodeJS.ProcessEnv,
  locate: () => TurnCheckStateDir,
  session: unknown,
  fail: Fail,
): TurnCheckReport {
  const off = turnCheckSwitchedOff('am-i-done', env);
  if (off) {
    fail('gate-disabled', `switched off by ${off}`);
    return report;
  }
  // Claude Code is already continuing because a Stop hook blocked: never block twice in a row.
  if (payload.stop_hook_active === true) return report;
  const held = heldTurn('am-i-done', payload, env, locate, session, fail);
  if (!held) return report;
  const { skill, dir, state } = held;
  if (state.reviewAsked) return report;
  const turn = readTranscriptTurn(payload.transcript_path);
  if ('unreadable' in turn) {
    fail('gate-state-unreadable', turn.unreadable);
    return report;
  }
  // A turn too long to read whole may have written anything: it is asked, never released unread
  // (fail closed) — unless the review ran, which then cannot be placed among its calls.
  if ('tooLarge' in turn && state.reviewed) return report;
  // What changed since the last review: a review that ran before the changes did not see them.
  // A conversational turn (nothing that writes, no work handed to a sub-agent) has nothing to review.
  const writes =
    'tooLarge' in turn
      ? []
      : unreviewed(turn.toolUses).filter((use) => turnCallChanges(use, pluginLaunchers(env)).writes);
  if (!('tooLarge' in turn) && writes.length === 0) return report;
  // Recorded before asking: if it cannot be recorded, asking could repeat, so release instead.
  const written = writeTurnState(dir, session, { ...state, reviewAsked: true });
  if ('refused' in written) {
    fail('store-unwritable', written.refused);
    return report;
  }
  const tools = [...new Set(writes.map((use) => use.name))].join(', ');
  const what =
    'tooLarge' in turn
      ? `this turn's transcript is longer than ${turn.tooLarge.maxBytes / (1024 * 1024)} MiB, so Tally cannot tell what it changed`
      : `this turn changed things (${writes.length} call(s): ${tools})`;
  report.stdout = JSON.stringify({
    decision: 'block',
    reason:
      `Tally gate am-i-done: ${what}. ` +
      `Before you stop, call the Skill tool with skill "${skill.invokeAs}" to check what you will report ` +
      `against what this turn actually did, then finish. Asked once per turn: the next stop is released.`,
  });
  return report;
}
