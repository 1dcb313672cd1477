import { defineAgentSurface } from '../agent-surface.js';
import type { CodeFlags } from './code-command.js';
import { parsePort } from './parse-option-values.js';
import { collect } from './variadic-values.js';

/** `tally code "<task>"`: declared here, run by code-command.ts (loaded only when it runs). */
export const codeSurface = defineAgentSurface<CodeFlags>({
  name: 'code',
  description:
    'One chat turn of the Coder in --root (no task: an interactive chat; Ctrl-D ends). Prints the reply, the files this turn changed, and any false statements.',
  // Loaded by tally stats only: the other commands never pay for the chat-turn queries.
  statsContributors: async () => [(await import('../../agents/coder/chat-turn-stats.js')).chatTurnStats],
  cli: {
    arguments: [{ name: '[task...]', description: 'what to do, e.g. "add a health check to src/server.ts"' }],
    options: [
      {
        flags: '--root <dir>',
        description: 'the project root every path resolves against',
        defaultValue: '.',
      },
      { flags: '--chat <id>', description: 'continue this chat (the id a previous turn printed)' },
      {
        flags: '--model <spec>',
        description: 'model, e.g. openai:gpt-4.1-mini (default $TALLY_MODEL); may change between turns',
      },
      { flags: '--json', description: 'machine-readable output' },
      {
        flags: '--replay <cassette>',
        description: 'replay a recorded model transcript through the real loop (no key)',
      },
      {
        flags: '--var <name=value>',
        description: "--replay: fill the cassette's {{NAME}} placeholders",
        parse: collect,
      },
      { flags: '--ui', description: 'serve a chat page on 127.0.0.1 instead of the terminal chat' },
      {
        flags: '--port <n>',
        description: '--ui: port (0 picks a free one)',
        parse: parsePort,
        defaultValue: '0',
      },
      {
        flags: '--records-root <dir>',
        description:
          'records root: where decision records go, and what the scout tool searches (default: --root when it has references/)',
      },
    ],
    run: async ([task], flags, command) =>
      (await import('./code-command.js')).default(task as string[], flags, command),
  },
});
