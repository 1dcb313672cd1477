import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { TallyError } from '../core/errors.js';
import { replyResult, streamOfResult } from '../core/models/stream-of-result.js';

export interface ScriptedToolCall {
  toolName: string;
  input: unknown;
  toolCallId?: string;
  /** The arguments exactly as a provider sent them, e.g. broken JSON; wins over `input`. */
  rawInput?: string;
}

/** One model step: text, tool calls, or both; or an error the provider would throw. */
export type ScriptStep =
  | { text?: string; toolCalls?: ScriptedToolCall[] }
  | { error: Error | string }
  | ((call: LanguageModelV3CallOptions) => { text?: string; toolCalls?: ScriptedToolCall[] });

export class ScriptMismatchError extends TallyError {}

/** A model reply with text only. */
export const say = (text: string): ScriptStep => ({ text });
/** A model reply that calls one tool (optionally with text before it). */
export const callTool = (toolName: string, input: unknown, text?: string): ScriptStep => ({
  ...(text ? { text } : {}),
  toolCalls: [{ toolName, input }],
});
/** A model reply that calls several tools in parallel. */
export const callTools = (calls: ScriptedToolCall[], text?: string): ScriptStep => ({
  ...(text ? { text } : {}),
  toolCalls: calls,
});

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/**
 * A language model that plays a script, step by step. It fails loudly on an unexpected call
 * (the script ran out) and `assertComplete()` fails a test whose script was not used up.
 */
export class ScriptedModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = 'scripted';
  readonly modelId: string;
  readonly supportedUrls = {};
  /** Every call the harness made, with the prompt and tools it sent. */
  readonly calls: LanguageModelV3CallOptions[] = [];
  private readonly steps: ScriptStep[];
  private unexpected = 0;
  private callCounter = 0;

  constructor(steps: ScriptStep[], options: { modelId?: string } = {}) {
    this.steps = [...steps];
    this.modelId = options.modelId ?? 'script';
  }

  get remaining(): number {
    return this.steps.length;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    this.calls.push(options);
    const step = this.steps.shift();
    if (step === undefined) {
      this.unexpected += 1;
      throw new ScriptMismatchError(
        'SCRIPT_EXHAUSTED',
        `The scripted model was called ${this.calls.length} times but its script has only ${this.calls.length - this.unexpected} steps. Add a step, or check why the harness made another model call.`,
      );
    }
    const resolved = typeof step === 'function' ? step(options) : step;
    if ('error' in resolved)
      throw typeof resolved.error === 'string' ? new Error(resolved.error) : resolved.error;
    return replyResult(
      resolved.text,
      (resolved.toolCalls ?? []).map((call) => {
        this.callCounter += 1;
        return {
          toolCallId: call.toolCallId ?? `call_${this.callCounter}`,
          toolName: call.toolName,
          input: call.rawInput ?? JSON.stringify(call.input),
        };
      }),
      USAGE,
    );
  }

  /** The next step, streamed word by word (a run whose text someone watches is streamed). */
  async doStream(
    options: LanguageModelV3CallOptions,
  ): Promise<{ stream: ReadableStream<LanguageModelV3StreamPart> }> {
    return streamOfResult(await this.doGenerate(options));
  }

  /** Fails when steps were left unused or the harness asked for more steps than scripted. */
  assertComplete(): void {
    if (this.unexpected > 0) {
      throw new ScriptMismatchError(
        'SCRIPT_EXHAUSTED',
        `The scripted model received ${this.unexpected} unexpected call(s) after its script ran out.`,
      );
    }
    if (this.steps.length > 0) {
      throw new ScriptMismatchError(
        'SCRIPT_UNUSED',
        `${this.steps.length} scripted step(s) were never used: the run ended earlier than the script expected.`,
      );
    }
  }
}

export function scriptedModel(steps: ScriptStep[], options: { modelId?: string } = {}): ScriptedModel {
  return new ScriptedModel(steps, options);
}
