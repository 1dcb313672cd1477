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
  /** Told the (redacted) text of each response, after its `model_call` entry; only when observed. */
  onText?: (text: string) => void,
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
      if (onText) {
        const text = result.content
          .map((part) => (part.type === 'text' ? part.text : ''))
          .join('')
          .trim();
        if (text) onText(recorder.redactor.redactText(text));
      }
      return result;
    },
    doStream: (options) => model.doStream(options),
  };
}
