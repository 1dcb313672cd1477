// Public API of `tally/coder`: one chat turn of the Coder inside a project root, with the
// files it changed and any false statements flagged. Importing it has no side effects.

export { type Cassette, CassetteError, CassetteModel, loadCassette } from './cassette-model.js';
export { type ChatStore, ChatStoreError, fileChatStore } from './chat-store.js';
export { CODER_AGENT, type CoderAgentOptions, coderAgent } from './coder-agent.js';
export type { TurnDecisions } from './record-turn-decisions.js';
export { type RunTurnOptions, runTurn, type TurnResult } from './run-turn.js';
export type { TurnEvent, TurnEventListener } from './turn-events.js';
