export type TurnCheckName = 'how-do-i' | 'am-i-done';

const OFF = new Set(['off', 'false', '0', 'no', 'disabled']);

/**
 * Whether a turn check is switched off, and by what: TALLY_GATE_<NAME> (TALLY_GATE_HOW_DO_I=off) or
 * the plugin option `gate_<name>` that Claude Code exports to hooks as
 * CLAUDE_PLUGIN_OPTION_GATE_<NAME> (a boolean option arrives as "false").
 */
export function turnCheckSwitchedOff(check: TurnCheckName, env: NodeJS.ProcessEnv): string | undefined {
  const suffix = check.replace(/-/g, '_');
  for (const name of [
    `TALLY_GATE_${suffix.toUpperCase()}`,
    `CLAUDE_PLUGIN_OPTION_GATE_${suffix.toUpperCase()}`,
    `CLAUDE_PLUGIN_OPTION_gate_${suffix}`,
  ]) {
    const value = env[name];
    if (value !== undefined && OFF.has(value.trim().toLowerCase())) return `${name}=${value}`;
  }
  return undefined;
}
