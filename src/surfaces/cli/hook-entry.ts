/**
 * The hook path without the CLI: `bin/tally-hook.js <name>`. Claude Code runs PreToolUse hooks
 * on every tool call, so this loads only the hook it runs — no commander, no command table.
 */
export async function runHookEntry(argv: string[]): Promise<number> {
  const name = argv[2];
  if (name === 'digest-record') return (await import('./hook-digest-record-command.js')).default();
  const gates = await import('./hook-turn-check-command.js');
  if (gates.isTurnCheckHook(name)) return gates.runTurnCheckCommand(name);
  return (await import('./hook-unknown-command.js')).default(name);
}
