// Public API of `tally/scout`: find the records that govern a goal, verified against the
// ledger (no model needed), alone or as a sub-agent tool. Importing this module has no side
// effects.
export {
  runDeterministicScout,
  type ScoutOptions,
  type ScoutReport,
} from './deterministic-scout.js';
export { type ModelScoutOptions, runModelScout } from './model-scout.js';
export { createScoutAgent, type ScoutFinish, scoutVerifier } from './scout-agent.js';
export {
  SCOUT_TOOL,
  type ScoutGoverning,
  type ScoutToolOptions,
  type ScoutToolResult,
  scoutOutcome,
  scoutTool,
} from './scout-tool.js';
