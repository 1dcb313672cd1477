// GenAI semantic conventions (development status in semconv 1.45): copied as strings, as the
// OTel docs advise for incubating names, so a semconv release cannot rename them under us.
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  agentName: 'gen_ai.agent.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolCallId: 'gen_ai.tool.call.id',
  conversationId: 'gen_ai.conversation.id',
  errorType: 'error.type',
} as const;

export const TALLY = {
  runId: 'tally.run.id',
  status: 'tally.status',
  endingReason: 'tally.ending_reason',
  tier: 'tally.tier',
  round: 'tally.model.round',
  toolTarget: 'tally.tool.target',
  toolOutcome: 'tally.tool.outcome',
  toolSource: 'tally.tool.source',
  verified: 'tally.verified',
  dropped: 'tally.dropped',
} as const;
