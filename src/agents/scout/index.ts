// Public API of `tally/scout`: find the records that govern a goal, verified against the
// ledger (no model needed). Importing this module has no side effects.
export {
  runDeterministicScout,
  type ScoutOptions,
  type ScoutReport,
} from './deterministic-scout.js';
export { createScoutAgent, type ScoutFinish, scoutVerifier } from './scout-agent.js';
