import type { Command } from 'commander';

/** `tally fish cleanup`, for the hint: the command's words from the program down. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * After a usage error, one line saying where the usage is — not the whole help, which pushed
 * the error (and its "Did you mean") off the screen.
 */
export function hintAfterUsageErrors(command: Command): void {
  command.showHelpAfterError(`Run \`${commandPath(command)} --help\` for usage.`);
  for (const sub of command.commands) hintAfterUsageErrors(sub);
}
