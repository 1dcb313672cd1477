import type { RunTurnOptions } from '../../agents/coder/run-turn.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { STOP_SIGNALS } from '../stop-signals.js';
import { startChatServer } from './start-chat-server.js';

/** `tally code --ui`: serves the chat page until Ctrl-C, then closes the server. */
export async function serveChatCommand(options: {
  root: string;
  ledger: Ledger;
  port: number;
  turn: Partial<RunTurnOptions>;
}): Promise<number> {
  const server = await startChatServer(options);
  process.stdout.write(
    `tally code --ui: chat with the Coder in ${options.root} at ${server.url} (Ctrl-C stops)\n`,
  );
  await new Promise<void>((resolve) => {
    // A closed terminal (SIGHUP) stops it as Ctrl-C does: a running turn still ends in the ledger.
    for (const signal of STOP_SIGNALS) process.once(signal, () => resolve());
  });
  await server.close();
  return 0;
}
