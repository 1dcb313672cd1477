import { dirname, join, resolve } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { GuardSettings } from '../../core/agent/guard-settings.js';
import { runAgent } from '../../core/agent/run-agent.js';
import type { ReviewOutcome, RunReview } from '../../core/agent/run-review.js';
import { netEffects } from '../../core/effects.js';
import { ModelNotConfiguredError } from '../../core/errors.js';
import { createFailOpen } from '../../core/fail-open.js';
import type { Ledger, RunRecorder } from '../../core/ledger/ledger.js';
import { resolveModel, selectModelSpec } from '../../core/models/resolve-model.js';
import { createRedactor, type Redactor } from '../../core/redact.js';
import type { ToolDefinition } from '../../core/tool.js';
import { type BrowserConsoleOptions, browserConsoleTool } from '../../packs/browser/browser-console-tool.js';
import { fileClaimResolver } from '../../packs/workspace/file-effects.js';
import { ProjectRoot } from '../../packs/workspace/project-root.js';
import { workspaceTools } from '../../packs/workspace/tools/index.js';
import { scoutTool } from '../scout/scout-tool.js';
import { layoutSignature } from './changes-report.js';
import { historyMessages, toolCallsOf } from './chat-history.js';
import { type ChangeFlag, type FileChange, flagSentence } from './chat-record.js';
import { type ChatStore, checkChatId, fileChatStore } from './chat-store.js';
import { CODER_AGENT, coderAgent } from './coder-agent.js';
import { coderContract } from './coder-contract.js';
import { judgeTurn } from './judge-turn.js';
import { recordTurnDecisions, type TurnDecisions } from './record-turn-decisions.js';
import { searchedPathOf } from './search-claims.js';
import { cachedTreeTool, ORIENTATION_INPUT, TreeCache } from './tree-cache.js';
import {
  recorderTold,
  safeListener,
  type TurnEventListener,
  tappedLedger,
  tappedModel,
} from './turn-events.js';
import { recoveryOf } from './turn-recovery.js';
import type { TurnResult } from './turn-result.js';
import { withChatContext } from './with-chat-context.js';

export type { TurnResult } from './turn-result.js';

export interface RunTurnOptions {
  /** Continue this chat; omitted, a new chat starts. */
  chatId?: string;
  message: string;
  /** The project root every path resolves against. */
  root: string;
  ledger: Ledger;
  /** A model object or a spec (`openai:gpt-4.1-mini`); else TALLY_MODEL. May differ per turn. */
  model?: LanguageModelV3 | string;
  /** Default: one JSON file per chat under `<root>/.tally/chats/`. */
  store?: ChatStore;
  env?: NodeJS.ProcessEnv;
  /** Replaces the conversational-opening classifier. */
  isConversational?: (message: string) => boolean;
  guards?: Partial<GuardSettings>;
  signal?: AbortSignal;
  maxRetries?: number;
  failOpenLog?: string;
  /** Told as the turn runs: each step's text, each tool call with its evidence, nudges, the end. */
  onEvent?: TurnEventListener;
  /** Options of the `browser_console` tool; `false` leaves the tool out. */
  browser?: BrowserConsoleOptions | false;
  /**
   * Decisions stated in the turn become `kind: decision` records (default: by rule, into the
   * project root when it has `references/`). `model` reads wordings the rules do not know:
   * `'turn'` asks this turn's model. `false` turns extraction off.
   */
  decisions?: { recordsRoot?: string; model?: LanguageModelV3 | 'turn' } | false;
  /**
   * The scout as a sub-agent tool (`scout`): present when a records root is configured —
   * `scout.recordsRoot`, else `decisions.recordsRoot` (`tally code --records-root`). Each call
   * is its own scout run in this ledger, linked to the turn's run. It runs the tier without a
   * model unless `scout.model` names the scout's own: a sub-agent never inherits the Coder's
   * model. `false` leaves the tool out.
   */
  scout?: { recordsRoot?: string; model?: LanguageModelV3 | string } | false;
}

const PREVIEW_CHARS = 120;

async function chooseModel(options: RunTurnOptions): Promise<LanguageModelV3> {
  if (options.model && typeof options.model !== 'string') return options.model;
  const env = options.env ?? process.env;
  const spec = selectModelSpec({ name: CODER_AGENT }, options.model, env);
  if (!spec) throw new ModelNotConfiguredError(CODER_AGENT);
  return resolveModel(spec, env);
}

/**
 * One chat turn of the Coder inside `root`: the core's loop and guards over the workspace
 * tools (fs_tree cached per chat), the chat's earlier turns as compact text history, and at
 * the end the files this turn changed (net effects) with every false statement flagged.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const model = await chooseModel(options);
  const emit = safeListener(options.onEvent);
  // Security: the tools may never touch Tally's own state (the chats, the ledger).
  const root = await ProjectRoot.open(options.root, {
    protect: [join(options.root, '.tally'), dirname(options.ledger.path)],
  });
  const store = options.store ?? fileChatStore(root.realRoot);
  const chat = options.chatId ? store.load(checkChatId(options.chatId)) : store.create();
  const turn = chat.turns.length + 1;
  emit({ type: 'turn-start', chatId: chat.id, turn });
  const tools: ToolDefinition[] = [
    ...workspaceTools({ root }),
    ...(options.browser === false ? [] : [browserConsoleTool(options.browser ?? {})]),
    ...scoutTools(options, root.realRoot),
  ];
  const treeTool = tools.find((tool) => tool.name === 'fs_tree');
  if (!treeTool) throw new Error('the workspace pack has no fs_tree tool (a Tally bug)');
  const cache = new TreeCache(chat.tree);
  const earlier = chat.turns.map((past, index) => ({
    turn: index + 1,
    changes: past.changes,
    read: past.tools
      .filter((call) => call.tool === 'fs_read' && call.outcome === 'ok')
      .map((call) => call.target),
    searched: past.tools
      .filter((call) => call.tool === 'fs_grep' && call.outcome === 'ok')
      .map((call) => searchedPathOf(call.target)),
  }));
  // The turn is judged before its end entry is written, so the ledger holds the same verdict
  // the user is shown: flags and a failed last call lower the status there, not only here.
  let judged: { changes: FileChange[]; flags: ChangeFlag[] } | undefined;
  const stepTexts: string[] = [];
  // A step's text is shown as the ledger keeps it: scrubbed by the run's redactor, which knows the
  // secrets the run has seen (a model quoting the .env it read). Judged as said, unscrubbed.
  let redactor: Redactor = createRedactor();
  const keepRedactor = (recorder: RunRecorder) => {
    redactor = recorder.redactor;
  };
  const tell: TurnEventListener = (event) => {
    if (event.type !== 'text') return emit(event);
    stepTexts.push(event.text);
    emit({ ...event, text: redactor.redactText(event.text) });
  };
  const review: RunReview = async ({ entries, draft, text, finishSummary }) => {
    // The last step's text is the reply itself; the ones before it were shown as the turn ran.
    const shown = stepTexts.filter((said) => said !== text?.trim());
    const { changes, flags } = await judgeTurn({
      text,
      summary: finishSummary,
      shown,
      entries,
      root,
      earlier,
    });
    const recovered = recoveryOf(draft, entries, changes.length);
    judged = { changes, flags };
    return {
      facts: { changes },
      ...(flags.length ? { flags, unmet: flags.map(flagSentence) } : {}),
      ...(recovered ? { recovery: recovered.recovery } : {}),
      ...(recovered?.status ? { status: recovered.status } : {}),
    } satisfies ReviewOutcome;
  };
  const agent = coderAgent({
    tools: tools.map((tool) =>
      tool === treeTool ? cachedTreeTool(treeTool, { root, ledger: options.ledger, cache }) : tool,
    ),
    ...(options.isConversational ? { isConversational: options.isConversational } : {}),
    ...(options.guards ? { guards: options.guards } : {}),
    contract: coderContract(fileClaimResolver(root)),
    review,
  });

  let system: string | undefined;
  let orientation: TurnResult['orientation'];
  if (turn === 1) {
    const key = TreeCache.keyOf('.', ORIENTATION_INPUT.depth);
    let entry = cache.lookup(key, '');
    const computed = !entry;
    if (!entry) {
      const outcome = await treeTool.execute(ORIENTATION_INPUT, {
        runId: chat.id,
        failOpen: () => undefined,
      });
      entry = cache.store(key, outcome.result as Record<string, unknown>, '');
    }
    const entries = Number(entry.result.entries ?? 0);
    orientation = { computed, entries };
    system = `Project layout (fs_tree of the root, depth ${ORIENTATION_INPUT.depth}, computed once for this chat; fs_tree returns it from cache):\n${String(entry.result.tree ?? '')}`;
  }

  const conversational = agent.isConversational(options.message);
  const modelName = `${model.provider}:${model.modelId}`;
  const result = await runAgent(agent, options.message, {
    ledger: options.onEvent
      ? tappedLedger(options.ledger, emit, keepRedactor)
      : recorderTold(options.ledger, keepRedactor),
    // Every step's text is kept: a claim the user read mid-turn is judged like the final reply's.
    model: withChatContext(tappedModel(model, tell), {
      ...(system ? { system } : {}),
      history: historyMessages(chat),
    }),
    ...(options.env ? { env: options.env } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.failOpenLog ? { failOpenLog: options.failOpenLog } : {}),
    meta: {
      chatId: chat.id,
      turn,
      root: root.realRoot,
      ...(orientation ? { orientation: { tool: 'fs_tree', ...orientation } } : {}),
      // The core's guard entry has no preview; the run's meta carries it for reviewing misfires.
      ...(conversational
        ? {
            conversational: {
              preview: createRedactor().redactText(
                options.message.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS),
              ),
            },
          }
        : {}),
    },
  });

  const entries = options.ledger.entries(result.runId);
  const nets = netEffects(entries);
  const { changes, flags } = judged ?? (await judgeTurn({ text: result.text, entries, root, earlier }));
  const recovery = result.recovery;
  const toolCalls = toolCallsOf(entries);
  const reply = recovery
    ? [result.text, recovery.summary].filter(Boolean).join('\n\n')
    : (result.text ?? result.summary);

  // The user's words as the ledger keeps them: the chat file and decision records are on disk
  // (a decision record is project source), and a pasted token belongs on neither.
  const userText = redactor.redactText(options.message);
  const now = new Date().toISOString();
  const decisions = await turnDecisions(options, model, {
    user: userText,
    reply: result.text ?? '',
    projectRoot: root.realRoot,
    source: { chatId: chat.id, turn, runId: result.runId, date: now.slice(0, 10) },
  });
  store.save({
    ...chat,
    updatedAt: now,
    turns: [
      ...chat.turns,
      {
        runId: result.runId,
        at: now,
        model: modelName,
        user: userText,
        reply,
        endingReason: result.endingReason,
        tools: toolCalls,
        changes,
        flags,
      },
    ],
    tree: cache.endTurn(layoutSignature(nets)),
  });

  const turnResult: TurnResult = {
    chatId: chat.id,
    turn,
    runId: result.runId,
    model: modelName,
    reply,
    ...(result.text ? { text: result.text } : {}),
    endingReason: result.endingReason,
    status: result.status,
    summary: result.summary,
    unmet: result.unmet,
    ...(result.contract ? { contract: result.contract } : {}),
    ...(recovery ? { recovery } : {}),
    changes,
    flags,
    tools: toolCalls,
    counts: result.counts,
    conversational,
    ...(orientation ? { orientation } : {}),
    ...(decisions && (decisions.records.length > 0 || decisions.note) ? { decisions } : {}),
  };
  emit({ type: 'turn-end', result: turnResult });
  return turnResult;
}

/** The scout tool, when a records root is configured (see `RunTurnOptions.scout`). */
function scoutTools(options: RunTurnOptions, projectRoot: string): ToolDefinition[] {
  if (options.scout === false) return [];
  const recordsRoot =
    options.scout?.recordsRoot ?? (options.decisions ? options.decisions.recordsRoot : undefined);
  if (!recordsRoot) return [];
  const model = options.scout?.model;
  return [
    scoutTool({
      root: resolve(recordsRoot),
      ledger: options.ledger,
      cwd: projectRoot,
      ...(model ? { model } : {}),
      ...(model && options.env ? { env: options.env } : {}),
      ...(model && options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    }),
  ];
}

async function turnDecisions(
  options: RunTurnOptions,
  model: LanguageModelV3,
  turn: {
    user: string;
    reply: string;
    projectRoot: string;
    source: { chatId: string; turn: number; runId: string; date: string };
  },
): Promise<TurnDecisions | undefined> {
  if (options.decisions === false) return undefined;
  const settings = options.decisions ?? {};
  const failOpen = createFailOpen({
    logPath: options.failOpenLog ?? join(dirname(options.ledger.path), 'fail-open.jsonl'),
    onRecord: (line) =>
      options.ledger
        .recorderFor(turn.source.runId)
        .append({ kind: 'fail_open', name: line.component, outcome: line.why, data: { ...line } }),
  });
  const decisionModel = settings.model === 'turn' ? model : settings.model;
  return recordTurnDecisions({
    ...turn,
    failOpen,
    ...(settings.recordsRoot ? { recordsRoot: settings.recordsRoot } : {}),
    ...(decisionModel ? { model: decisionModel } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
