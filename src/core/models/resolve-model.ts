import type { LanguageModelV3 } from '@ai-sdk/provider';
import { ModelSpecError } from '../errors.js';

export interface ModelSpec {
  provider: 'openai' | 'anthropic' | 'compatible';
  modelId: string;
  baseURL?: string;
}

const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

/**
 * `openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-5`, `ollama:llama3.1`,
 * `compatible:qwen2.5@http://127.0.0.1:8000/v1` (or TALLY_MODEL_BASE_URL for the base URL).
 */
export function parseModelSpec(spec: string, env: NodeJS.ProcessEnv = process.env): ModelSpec {
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) throw new ModelSpecError(spec, 'expected provider:model');
  const provider = spec.slice(0, colon).toLowerCase();
  const rest = spec.slice(colon + 1);
  switch (provider) {
    case 'openai':
    case 'anthropic':
      return { provider, modelId: rest };
    case 'ollama':
      return { provider: 'compatible', modelId: rest, baseURL: env.OLLAMA_BASE_URL ?? OLLAMA_BASE_URL };
    case 'compatible':
    case 'openai-compatible': {
      const at = rest.indexOf('@');
      const modelId = at === -1 ? rest : rest.slice(0, at);
      const baseURL = at === -1 ? env.TALLY_MODEL_BASE_URL : rest.slice(at + 1);
      if (!baseURL)
        throw new ModelSpecError(
          spec,
          'an OpenAI-compatible server needs a base URL (compatible:model@URL or TALLY_MODEL_BASE_URL)',
        );
      if (!modelId) throw new ModelSpecError(spec, 'the model name is empty');
      return { provider: 'compatible', modelId, baseURL };
    }
    default:
      throw new ModelSpecError(spec, `unknown provider "${provider}"`);
  }
}

/** Loads only the provider package the spec names, so commands without a model stay light. */
export async function resolveModel(
  spec: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LanguageModelV3> {
  const parsed = parseModelSpec(spec, env);
  if (parsed.provider === 'openai') {
    if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL)
      throw new ModelSpecError(
        spec,
        'OPENAI_API_KEY is not set',
        `Set it (export OPENAI_API_KEY=…) or OPENAI_BASE_URL for a compatible server, or pass another --model.`,
      );
    const { createOpenAI } = await import('@ai-sdk/openai');
    const provider = createOpenAI({
      ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : { apiKey: 'unset' }),
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
    });
    return provider(parsed.modelId);
  }
  if (parsed.provider === 'anthropic') {
    if (!env.ANTHROPIC_API_KEY && !env.ANTHROPIC_BASE_URL)
      throw new ModelSpecError(
        spec,
        'ANTHROPIC_API_KEY is not set',
        `Set it (export ANTHROPIC_API_KEY=…) or ANTHROPIC_BASE_URL for a compatible server, or pass another --model.`,
      );
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    const provider = createAnthropic({
      apiKey: env.ANTHROPIC_API_KEY ?? 'unset',
      ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
    });
    return provider(parsed.modelId);
  }
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const provider = createOpenAICompatible({
    name: 'compatible',
    baseURL: parsed.baseURL as string,
    ...(env.TALLY_MODEL_API_KEY ? { apiKey: env.TALLY_MODEL_API_KEY } : {}),
  });
  return provider(parsed.modelId);
}

/**
 * Which model an agent runs on: an explicit choice for this run, else the agent's own pin,
 * else TALLY_MODEL. A sub-agent is resolved on its own — it never inherits its parent's model.
 */
export function selectModelSpec(
  agent: { name: string; model?: string },
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  return explicit ?? agent.model ?? (env.TALLY_MODEL || undefined);
}
