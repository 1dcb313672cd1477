import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { RunRecorder } from '../ledger/ledger.js';
import type { RunState } from './run-state.js';

/**
 * Wraps a model so each call lands in the ledger as `model_call` the moment the response
 * arrives — before the tool calls it asked for run, so the ledger reads in causal order.
 */
export function recordingModel(
  model: LanguageModelV3,
  recorder: RunRecorder,
  state: RunState,
): LanguageModelV3 {
  const modelId = `${model.provider}:${model.modelId}`;
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (options) => {
      const started = performance.now();
      const result = await model.doGenerate(options);
      state.rounds += 1;
      recorder.append({
        kind: 'model_call',
        name: modelId,
        data: {
          model: modelId,
          round: state.rounds,
          inputTokens: result.usage.inputTokens.total ?? null,
          outputTokens: result.usage.outputTokens.total ?? null,
          finishReason: result.finishReason.unified,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        },
      });
      return result;
    },
    doStream: (options) => model.doStream(options),
  };
}
