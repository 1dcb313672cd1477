import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider';

export interface ChatContext {
  /** Appended to the system prompt (the orientation tree); not linted as a prompt. */
  system?: string;
  /** Earlier turns, placed after the system prompt and before this turn's messages. */
  history: LanguageModelV3Message[];
}

function withContext(options: LanguageModelV3CallOptions, context: ChatContext): LanguageModelV3CallOptions {
  const prompt = [...options.prompt];
  let firstOther = prompt.findIndex((message) => message.role !== 'system');
  if (firstOther === -1) firstOther = prompt.length;
  if (context.system) {
    const system = prompt[0];
    if (system?.role === 'system')
      prompt[0] = { ...system, content: `${system.content}\n\n${context.system}` };
    else {
      prompt.unshift({ role: 'system', content: context.system });
      firstOther += 1;
    }
  }
  prompt.splice(firstOther, 0, ...context.history);
  return { ...options, prompt };
}

/**
 * A model that sees the chat's earlier turns on every call. The run itself (ledger, guards,
 * nudges, the conversational first round) is the core's, on this turn's message alone; the
 * history travels as plain text messages, which every provider accepts.
 */
export function withChatContext(model: LanguageModelV3, context: ChatContext): LanguageModelV3 {
  if (!context.system && context.history.length === 0) return model;
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(withContext(options, context)),
    doStream: (options) => model.doStream(withContext(options, context)),
  };
}
