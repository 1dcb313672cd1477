import {
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3FinishReason,
  type LanguageModelV3StreamPart,
  type LanguageModelV3Usage,
  UnsupportedFunctionalityError,
} from '@ai-sdk/provider';
import { simulateStreamingMiddleware, wrapLanguageModel } from 'ai';
import type { RunRecorder } from '../ledger/ledger.js';
import { isSecretName, type Redactor, secretHintAt } from '../redact.js';
import { openMarkupSecretAt } from '../redact-markup.js';
import type { RunState } from './run-state.js';
import { stepCalls } from './step-calls.js';

export interface RecordingListeners {
  /** Told the (redacted) text of each response, after its `model_call` entry. */
  onText?: (text: string) => void;
  /**
   * Told the response's text while it arrives, redacted piece by piece. Set, the model is
   * called with `doStream`; unset, with `doGenerate` (see `recordingModel`).
   */
  onTextDelta?: (delta: string) => void;
}

const NO_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

const BEARER_WORD = /\b(?:Bearer|Basic|Token)\s*$/;
/** A piece ending in `name: ` (the redactor masks a secret-named pair's value in prose). */
const NAME_COLON = /(?<![\w.-])-{0,2}[\w.-]+["']?:[ \t]*$/;

/**
 * Security: a delta is redacted before anyone sees it, but a secret can arrive split over
 * several deltas. Text is therefore let out only up to the last whitespace (a secret token
 * is never cut in two), never right after `Bearer`/`Basic`/`Token` or a `name: ` (the
 * redactor masks the word that follows), never past a word that may name a secret before its
 * line ends (see `secretHintAt`) or an open secret-named element (`openMarkupSecretAt`), and each piece goes through the redactor first. What no piece can
 * catch — a known secret that itself contains spaces — is still scrubbed from the whole
 * text that the ledger, `model-text` and `RunResult` carry.
 */
function deltaGate(redactor: Redactor, tell: (delta: string) => void) {
  let raw = '';
  let shown = 0;
  const show = (end: number) => {
    if (end <= shown) return;
    const piece = redactor.redactText(raw.slice(shown, end));
    shown = end;
    if (piece) tell(piece);
  };
  return {
    push(delta: string) {
      raw += delta;
      let end = Math.max(raw.lastIndexOf(' '), raw.lastIndexOf('\n'), raw.lastIndexOf('\t')) + 1;
      while (end > shown && BEARER_WORD.test(raw.slice(shown, end))) {
        const before = raw.slice(0, end).replace(BEARER_WORD, '');
        end = before.length;
      }
      // Once, not in a loop: the lookbehind keeps it linear, and one held word is enough.
      const named = NAME_COLON.exec(raw.slice(shown, end));
      if (named) end = shown + named.index;
      // A line that may name a secret is let out only up to that word until the line ends:
      // a secret-named pair's value can hold spaces (a cookie list, `password = "…"`).
      const lineStart = Math.max(shown, raw.lastIndexOf('\n', end - 1) + 1);
      const hint = secretHintAt(raw.slice(lineStart, end));
      if (hint >= 0) end = lineStart + hint;
      // A secret-named element or plist key whose value is still to come, over lines of its own.
      const open = openMarkupSecretAt(raw.slice(shown, end), isSecretName);
      if (open >= 0) end = shown + open;
      show(end);
    },
    flush: () => show(raw.length),
  };
}

function textOf(parts: readonly { type: string; text?: string }[]): string {
  return parts
    .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join('')
    .trim();
}

/**
 * Wraps a model so each call lands in the ledger as `model_call` the moment the response
 * arrives — before the tool calls it asked for run, so the ledger reads in causal order.
 *
 * The loop always calls `doStream`. Only when someone watches the text as it comes
 * (`onTextDelta`) does that reach the provider as a streamed request; otherwise, and for a
 * model that refuses to stream (`UnsupportedFunctionalityError`), the response comes from
 * `doGenerate` and is replayed as a stream (the AI SDK's `simulateStreamingMiddleware`).
 * Why not stream always: an unwatched run gains nothing from it, and its calls stay the very
 * requests they were (some OpenAI-compatible servers send no usage in a stream; wrappers that
 * watch `doGenerate` keep working). Either way the entry is the same: usage and finish reason
 * from the response's end, no entry for a call that failed.
 */
export function recordingModel(
  model: LanguageModelV3,
  recorder: RunRecorder,
  state: RunState,
  listeners: RecordingListeners = {},
): LanguageModelV3 {
  const modelId = `${model.provider}:${model.modelId}`;
  const { onText, onTextDelta } = listeners;

  const record = (
    usage: LanguageModelV3Usage,
    finishReason: LanguageModelV3FinishReason,
    started: number,
    text: string,
  ): void => {
    state.rounds += 1;
    recorder.append({
      kind: 'model_call',
      name: modelId,
      data: {
        model: modelId,
        round: state.rounds,
        inputTokens: usage.inputTokens.total ?? null,
        outputTokens: usage.outputTokens.total ?? null,
        finishReason: finishReason.unified,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      },
    });
    if (onText && text) onText(recorder.redactor.redactText(text));
  };

  const doGenerate: LanguageModelV3['doGenerate'] = async (options) => {
    const started = performance.now();
    const step = stepCalls();
    state.step = step;
    const result = await model.doGenerate(options);
    for (const part of result.content)
      if (part.type === 'tool-call') step.add(part.toolCallId, part.toolName);
    step.end();
    record(result.usage, result.finishReason, started, onText ? textOf(result.content) : '');
    return result;
  };

  const simulated = wrapLanguageModel({
    model: { ...fields(model), doGenerate, doStream: (options) => model.doStream(options) },
    middleware: simulateStreamingMiddleware(),
  });

  // A model that refused to stream once is not asked again in this run.
  let streams = typeof model.doStream === 'function';
  const streamed = async (options: LanguageModelV3CallOptions, tell: (delta: string) => void) => {
    const started = performance.now();
    let response: Awaited<ReturnType<LanguageModelV3['doStream']>>;
    try {
      response = await model.doStream(options);
    } catch (error) {
      if (!UnsupportedFunctionalityError.isInstance(error)) throw error;
      streams = false;
      return simulated.doStream(options);
    }
    const gate = deltaGate(recorder.redactor, tell);
    const step = stepCalls();
    state.step = step;
    let text = '';
    let recorded = false;
    const end = (usage: LanguageModelV3Usage, finishReason: LanguageModelV3FinishReason) => {
      recorded = true;
      step.end();
      gate.flush();
      record(usage, finishReason, started, text.trim());
    };
    const recording = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
      transform(part, controller) {
        if (part.type === 'error') {
          // The call failed, as a throwing doGenerate would have: no entry, and the loop
          // ends the run with model_error instead of finishing a half-made step.
          controller.error(part.error);
          return;
        }
        if (part.type === 'text-delta') {
          text += part.delta;
          gate.push(part.delta);
        } else if (part.type === 'tool-call') {
          step.add(part.toolCallId, part.toolName);
        } else if (part.type === 'finish') {
          end(part.usage, part.finishReason);
        }
        controller.enqueue(part);
      },
      // A stream that closed without its finish part still was a call (the SDK ends the step
      // with finish reason "other" and no usage): it is recorded the same way.
      flush() {
        if (!recorded) end(NO_USAGE, { unified: 'other', raw: undefined });
      },
    });
    return { ...response, stream: response.stream.pipeThrough(recording) };
  };

  return {
    ...fields(model),
    doGenerate,
    doStream: (options) =>
      onTextDelta && streams ? streamed(options, onTextDelta) : simulated.doStream(options),
  };
}

function fields(
  model: LanguageModelV3,
): Pick<LanguageModelV3, 'specificationVersion' | 'provider' | 'modelId' | 'supportedUrls'> {
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
  };
}
