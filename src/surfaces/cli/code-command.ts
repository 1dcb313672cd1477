import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { runTurn, type TurnResult } from '../../agents/coder/run-turn.js';
import { ModelNotConfiguredError, TallyError } from '../../core/errors.js';
import { Ledger } from '../../core/ledger/ledger.js';
import { selectModelSpec } from '../../core/models/resolve-model.js';
import { ProjectRoot } from '../../packs/workspace/project-root.js';
import { EXIT } from './exit-codes.js';
import { formatCodeTurn } from './format-code-turn.js';
import { ledgerPathFor } from './open-ledger.js';
import { reportError } from './report-error.js';

interface CodeFlags {
  root: string;
  chat?: string;
  model?: string;
  json?: boolean;
}

/** 0 when the turn answered and its reply tallies with its changes; 1 when it ended badly or was flagged. */
function exitCodeOf(result: TurnResult): number {
  return result.recovery || result.flags.length > 0 ? EXIT.notMet : EXIT.ok;
}

function print(result: TurnResult, json: boolean | undefined): void {
  process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : `${formatCodeTurn(result)}\n`);
}

/** Ctrl-D ends the chat; each line is one turn of the same chat. */
async function interactive(ledger: Ledger, options: CodeFlags, root: string): Promise<number> {
  const lines = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: process.stdin.isTTY,
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
          ...(options.model ? { model: options.model } : {}),
        });
        chatId = result.chatId;
        code = exitCodeOf(result);
        print(result, options.json);
      } catch (error) {
        // A turn that could not run (a refused model, a broken chat file) ends the session.
        if (!(error instanceof TallyError)) throw error;
        lines.close();
        return reportError(error);
      }
    }
    lines.prompt();
  }
  process.stdout.write('\n');
  return code;
}

export default async function codeCommand(
  task: string[],
  options: CodeFlags,
  command: Command,
): Promise<number> {
  // Without a model nothing may start: not the chat file, not the ledger.
  if (!selectModelSpec({ name: 'coder' }, options.model, process.env)) {
    process.stderr.write(`tally: ${new ModelNotConfiguredError('coder').message}\n`);
    return EXIT.usage;
  }
  const root = resolve(options.root);
  await ProjectRoot.open(root); // fail fast (exit 3) before the ledger would create <root>/.tally
  const ledger = Ledger.open(ledgerPathFor(command, root));
  try {
    const message = task.join(' ').trim();
    if (!message) return await interactive(ledger, options, root);
    const result = await runTurn({
      message,
      root,
      ledger,
      ...(options.chat ? { chatId: options.chat } : {}),
      ...(options.model ? { model: options.model } : {}),
    });
    print(result, options.json);
    return exitCodeOf(result);
  } finally {
    ledger.close();
  }
}
