import type { AgentSurface } from './agent-surface.js';
import { codeSurface } from './cli/code-surface.js';
import { scoutSurface } from './cli/scout-surface.js';

/**
 * The built-in agents that reach the CLI through defineAgentSurface: `tally` builds one command
 * from each, in this order, and `tally stats` adds their stats contributors. `fish` is still a
 * hand-written command in cli/main.ts (its subcommands and fast path have not moved).
 */
export const BUILT_IN_AGENT_SURFACES: readonly AgentSurface[] = [scoutSurface, codeSurface];
