import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { CassetteModel } from '../../agents/coder/cassette-model.js';
import { type RunTurnOptions, runTurn, type TurnResult } from '../../agents/coder/run-turn.js';
import type { TurnEvent } from '../../agents/coder/turn-events.js';
import { isTallyError, ModelNotConfiguredError, TallyError } from '../../core/errors.js';
import { sweepOrphanedTempFiles } from '../../core/io/temp-files.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { selectModelSpec } from '../../core/models/resolve-model.js';
import { ProjectRoot } from '../../packs/workspace/project-root.js';
import { requireRecorded, usingLedger } from '../require-recorded.js';
import { EXIT } from './exit-codes.js';
import { formatCodeTurn, formatTurnEvent } from './format-code-turn.js';
import { type Interrupt, withInterrupt } from './interrupt.js';
import { openLedgerFor } from './open-ledger.js';
import {
  observeRuns,
  type RunSurfaces,
  runSurfacesOf,
  textShownByProgress,
} from './progress/observe-runs.js';
import { reportError } from './report-error.js';

export interface CodeFlags {
  root: string;
  chat?: string;
  model?: string;
  json?: boolean;
  /** A cassette file: the recorded model responses replayed through the real loop (no key). */
  replay?: string;
  /** `NAME=VALUE` for the cassette's `{{NAME}}` placeholders. */
  var?: string[];
  ui?: boolean;
  port?: string;
  recordsRoot?: string;
}

function varsOf(pairs: string[] = []): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1)
      throw new TallyError(
        'USAGE',
        `--var "${pair}" is not NAME=VALUE. Pass it like --var PREVIEW_URL=http://127.0.0.1:4178/.`,
      );
    vars[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return vars;
}

/** What every turn of this command shares: the model (or the cassette), decisions, the browser. */
function turnSettings(options: CodeFlags, cassette: CassetteModel | undefined): Partial<RunTurnOptions> {
  return {
    ...(cassette ? { model: cassette } : options.model ? { model: options.model } : {}),
    // A replayed turn makes no model call the cassette did not record.
    decisions: {
      ...(options.recordsRoot ? { recordsRoot: resolve(options.recordsRoot) } : {}),
      ...(cassette ? {} : { model: 'turn' as const }),
    },
  };
}

/** A replay must use the cassette exactly: more calls, or fewer, means it no longer matches. */
function cassetteProblem(cassette: CassetteModel): string | undefined {
  if (cassette.exhausted)
    return 'the loop asked for more responses than the cassette holds (CASSETTE_EXHAUSTED)';
  if (cassette.unused > 0)
    return `${cassette.unused} recorded response(s) were never asked for (CASSETTE_UNUSED)`;
  return undefined;
}

/** The end entry's verdict decides: 0 only for a turn whose status is `success`. */
function exitCodeOf(result: TurnResult): number {
  return result.status === 'success' ? EXIT.ok : EXIT.notMet;
}

/**
 * Prints a turn's events as they happen; remembers the last text so the reply is not printed
 * twice. Step texts are left out where the progress display streams them on the same terminal.
 */
function eventPrinter(skipText: boolean): {
  onEvent: (event: TurnEvent) => void;
  lastText: () => string | undefined;
} {
  let last: string | undefined;
  return {
    onEvent: (event) => {
      // Remembered even when the progress display showed it: the reply is then not printed again.
      if (event.type === 'text') last = event.text;
      if (event.type === 'text' && skipText) return;
      const line = formatTurnEvent(event);
      if (line) process.stdout.write(`${line}\n`);
    },
    lastText: () => last,
  };
}

/** Prints the turn once the ledger has its run (the ledger is the truth: see requireRecorded). */
async function print(
  ledger: Ledger,
  result: TurnResult,
  json: boolean | undefined,
  shownText?: string,
): Promise<void> {
  await requireRecorded(ledger, [result.runId]);
  process.stdout.write(
    json
      ? `${JSON.stringify(result, null, 2)}\n`
      : `${formatCodeTurn(result, { reply: shownText === undefined || result.reply !== shownText })}\n`,
  );
}

/** Ctrl-D ends the chat; each line is one turn of the same chat; Ctrl-C interrupts the turn and ends it. */
async function interactive(
  ledger: Ledger,
  options: CodeFlags,
  root: string,
  interrupt: Interrupt,
): Promise<number> {
  const lines = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: process.stdin.isTTY,
  });
  // A terminal's Ctrl-C reaches readline, not the process: hand it on as the signal it is.
  lines.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  // At the prompt, an interrupt ends the chat; during a turn, once the turn has ended.
  interrupt.signal.addEventListener('abort', () => lines.close(), { once: true });
  // Input can end while a turn runs (piped stdin, Ctrl-D): Node 24 throws on prompt() after close.
  let closed = false;
  lines.once('close', () => {
    closed = true;
  });
  let chatId = options.chat;
  let code: number = EXIT.ok;
  process.stdout.write(
    `tally code — chatting in ${root}${chatId ? ` (chat ${chatId})` : ''}. Ctrl-D ends.\n`,
  );
  lines.setPrompt('you> ');
  lines.prompt();
  for await (const line of lines) {
    const message = line.trim();
    if (message) {
      try {
        const result = await runTurn({
          message,
          root,
          ledger,
          ...(chatId ? { chatId } : {}),
          ...turnSettings(options, undefined),
          signal: interrupt.signal,
        });
        chatId = result.chatId;
        code = exitCodeOf(result);
        await print(ledger, result, options.json);
        if (interrupt.signal.aborted) {
          lines.close();
          return code;
        }
      } catch (error) {
        // A turn that could not run (a refused model, a broken chat file) ends the session.
        if (!isTallyError(error)) throw error;
        lines.close();
        return reportError(error, { json: options.json });
      }
    }
    if (!closed) lines.prompt();
  }
  process.stdout.write('\n');
  return code;
}

export default async function codeCommand(
  task: string[],
  options: CodeFlags,
  command: Command,
): Promise<number> {
  const cassette = options.replay
    ? CassetteModel.fromFile(resolve(options.replay), varsOf(options.var))
    : undefined;
  // Without a model nothing may start: not the chat file, not the ledger.
  if (!cassette && !selectModelSpec({ name: 'coder' }, options.model, process.env)) {
    throw new ModelNotConfiguredError('coder'); // exit 2, JSON under --json (main reports it)
  }
  const root = resolve(options.root);
  const startRoot = await ProjectRoot.open(root); // fail fast (exit 3) before the ledger would create <root>/.tally
  // Writes killed before their rename (an earlier chat's) leave temporary files: gone before the first turn.
  sweepOrphanedTempFiles(startRoot.realRoot, { exclude: [join(startRoot.realRoot, '.tally')] });
  const ledger = await openLedgerFor(command, root);
  return await usingLedger(ledger, async () => {
    const message = task.join(' ').trim() || (cassette?.cassette.message ?? '');
    if (options.ui) {
      const { serveChatCommand } = await import('../web/serve-chat-command.js');
      return await serveChatCommand({
        root,
        ledger,
        port: Number(options.port ?? 0),
        turn: turnSettings(options, cassette?.model),
      });
    }
    const surfaces = runSurfacesOf(command, ledger.path);
    return await withInterrupt((interrupt) =>
      codeTurns(message, options, ledger, root, surfaces, cassette, interrupt),
    );
  });
}

/** One turn, or the interactive chat, with the first Ctrl-C ending the turn as `aborted`. */
function codeTurns(
  message: string,
  options: CodeFlags,
  ledger: Ledger,
  root: string,
  surfaces: RunSurfaces,
  cassette: ReturnType<typeof CassetteModel.fromFile> | undefined,
  interrupt: Interrupt,
): Promise<number> {
  return observeRuns(surfaces, async () => {
    if (!message) return await interactive(ledger, options, root, interrupt);
    // --quiet means no step lines, replay or not.
    const printer =
      cassette && !options.json && !surfaces.quiet ? eventPrinter(textShownByProgress(surfaces)) : undefined;
    const result = await runTurn({
      message,
      root,
      ledger,
      ...(options.chat ? { chatId: options.chat } : {}),
      ...turnSettings(options, cassette?.model),
      // A replay shows its steps as they happen: the point of the demo is how the turn went.
      ...(printer ? { onEvent: printer.onEvent } : {}),
      signal: interrupt.signal,
    });
    await print(ledger, result, options.json, printer?.lastText());
    const problem = cassette && !interrupt.signal.aborted && cassetteProblem(cassette.model);
    if (problem) {
      process.stderr.write(
        `tally: the replay of ${options.replay} failed: ${problem}. Re-record the cassette, or check what changed in the loop.\n`,
      );
      return EXIT.notMet;
    }
    return exitCodeOf(result);
  });
}
