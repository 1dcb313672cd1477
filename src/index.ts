// Public API of `tally`. Importing this module has no side effects.
export {
  type Agent,
  type AgentOptions,
  defineAgent,
  isAgent,
  type RequestCheckContext,
} from './core/agent/agent-definition.js';
export { type AgentToolOptions, agentPack, agentTool } from './core/agent/agent-tool.js';
export {
  type Claim,
  type ClaimEffect,
  type ClaimResolver,
  type ClaimVerdict,
  type ClaimVerifier,
  type EffectVerifierOptions,
  type EvidenceCall,
  type EvidenceView,
  itemFromNet,
  verifyAgainstEffects,
} from './core/agent/claims.js';
export {
  type ContractSource,
  type ContractSpec,
  crossChecked,
  PLAN_TOOL,
  type RequestContract,
  type StatedContract,
} from './core/agent/contract.js';
export { isConversational } from './core/agent/conversational.js';
export {
  type DroppedClaim,
  ENDING_REASONS,
  type EndingReason,
  type ReportedFailure,
  type RunContract,
  type RunCounts,
  type RunResult,
  type RunStatus,
  type VerifiedItem,
} from './core/agent/ending.js';
export { defaultFinishSpec, type FinishSpec } from './core/agent/finish-spec.js';
export type { GateRule } from './core/agent/gate-keeper.js';
export { DEFAULT_GUARDS, type GuardSettings } from './core/agent/guard-settings.js';
export { lintPrompt } from './core/agent/prompt-lint.js';
export { type RequestWord, requestWords } from './core/agent/request-words.js';
export { type RunAgentOptions, runAgent } from './core/agent/run-agent.js';
export {
  type RunEvent,
  type RunObserver,
  withRunObserver,
} from './core/agent/run-observer.js';
export { type PlanCall, type PlanOptions, type PlanOutcome, runPlan } from './core/agent/run-plan.js';
export type { ReviewContext, ReviewOutcome, RunReview } from './core/agent/run-review.js';
export { classifyResult } from './core/classify-result.js';
export {
  createdResources,
  type Effect,
  type EffectKind,
  type NetEffect,
  type NetEffects,
  netEffects,
} from './core/effects.js';
export {
  AgentConfigError,
  isDeclarationError,
  isTallyError,
  isToolRejectedError,
  LedgerError,
  ModelNotConfiguredError,
  ModelSpecError,
  PromptLintError,
  RunNotFoundError,
  TallyError,
  type TallyErrorCode,
  type TallyErrorCodes,
  ToolRejectedError,
} from './core/errors.js';
export { createFailOpen, type FailOpen, failOpenLine } from './core/fail-open.js';
export {
  declareFailOpenReasons,
  FAIL_OPEN_REASONS,
  type FailOpenReason,
  FailOpenReasonTakenError,
  registerFailOpenReasons,
} from './core/fail-open-reasons.js';
export {
  type InvokeContext,
  invokeTool,
  type ToolCallRecord,
  toolResultForModel,
} from './core/invoke-tool.js';
export { computeStats, type LedgerStats, parseSince } from './core/ledger/compute-stats.js';
export type {
  EntryKind,
  LedgerEntry,
  MalformedEntry,
  NewEntry,
  RunInfo,
  RunListing,
  RunRecord,
  TypedEntry,
} from './core/ledger/entry.js';
export type { EntryData } from './core/ledger/entry-schemas.js';
export { type Awaitable, Ledger, openLedger, type RunRecorder, SqliteLedger } from './core/ledger/ledger.js';
export { resolveLedgerPath } from './core/ledger/resolve-ledger-path.js';
export { parseModelSpec, resolveModel, selectModelSpec } from './core/models/resolve-model.js';
export {
  type DialectSql,
  definePack,
  isPack,
  type Pack,
  type PackAdversaries,
  type PackContext,
  PackDefinitionError,
  type PackFlag,
  type PackOptions,
  type PackSession,
  type ProbeCall,
  type StatsContributor,
  type StatsSource,
} from './core/pack.js';
export { createPackRegistry, type PackRegistry, PackRegistryError } from './core/pack-registry.js';
export { createRedactor, isSecretName, REDACTED, type Redactor } from './core/redact.js';
export {
  defineTool,
  type Evidence,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
} from './core/tool.js';
export { sameType, singular } from './core/type-words.js';
