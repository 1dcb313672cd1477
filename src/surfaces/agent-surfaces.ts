import type { AgentSurface } from './agent-surface.js';
import { scoutSurface } from './cli/scout-surface.js';

/**
 * The built-in agents that reach the CLI through defineAgentSurface: `tally` builds one command
 * from each, and `tally stats` adds their stats contributors. `fish` and `code` are still
 * hand-written commands in cli/main.ts (their subcommands and fast paths have not moved).
 */
export const BUILT_IN_AGENT_SURFACES: readonly AgentSurface[] = [scoutSurface];
