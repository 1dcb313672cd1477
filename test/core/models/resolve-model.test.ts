import { describe, expect, it } from 'vitest';
import { defineAgent } from '../../../src/core/agent/agent-definition.js';
import { runAgent } from '../../../src/core/agent/run-agent.js';
import { ModelNotConfiguredError, ModelSpecError } from '../../../src/core/errors.js';
import { parseModelSpec, resolveModel, selectModelSpec } from '../../../src/core/models/resolve-model.js';
import { tempLedger } from '../../helpers.js';

describe('model selection', () => {
  it('parses the provider:model forms', () => {
    expect(parseModelSpec('openai:gpt-4.1-mini')).toEqual({ provider: 'openai', modelId: 'gpt-4.1-mini' });
    expect(parseModelSpec('anthropic:claude-sonnet-4-5')).toEqual({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
    });
    expect(parseModelSpec('ollama:llama3.1', {})).toEqual({
      provider: 'compatible',
      modelId: 'llama3.1',
      baseURL: 'http://127.0.0.1:11434/v1',
    });
    expect(parseModelSpec('compatible:qwen@http://127.0.0.1:8000/v1')).toEqual({
      provider: 'compatible',
      modelId: 'qwen',
      baseURL: 'http://127.0.0.1:8000/v1',
    });
    expect(
      parseModelSpec('compatible:qwen', { TALLY_MODEL_BASE_URL: 'http://127.0.0.1:9/v1' }),
    ).toMatchObject({ baseURL: 'http://127.0.0.1:9/v1' });
  });

  it('rejects malformed specs with the accepted forms in the message', () => {
    expect(() => parseModelSpec('gpt-4')).toThrow(ModelSpecError);
    expect(() => parseModelSpec('mystery:model')).toThrow(/unknown provider "mystery".*openai:<model>/);
    expect(() => parseModelSpec('compatible:qwen', {})).toThrow(/needs a base URL/);
  });

  it('says which key is missing instead of failing at the first request', async () => {
    await expect(resolveModel('openai:gpt-4.1-mini', {})).rejects.toThrow(
      'Model "openai:gpt-4.1-mini" cannot be used: OPENAI_API_KEY is not set. Set it (export OPENAI_API_KEY=…) or OPENAI_BASE_URL for a compatible server, or pass another --model.',
    );
    await expect(resolveModel('anthropic:claude-sonnet-4-5', {})).rejects.toThrow(
      /ANTHROPIC_API_KEY is not set/,
    );
  });

  it('builds real provider models for each provider', async () => {
    const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' };
    expect((await resolveModel('openai:gpt-4.1-mini', env)).provider).toMatch(/^openai/);
    expect((await resolveModel('anthropic:claude-sonnet-4-5', env)).provider).toMatch(/^anthropic/);
    expect((await resolveModel('compatible:qwen@http://127.0.0.1:8000/v1', env)).modelId).toBe('qwen');
  });

  it('an explicit model beats the agent pin, which beats TALLY_MODEL; nothing is inherited', () => {
    const env = { TALLY_MODEL: 'openai:global' };
    expect(selectModelSpec({ name: 'a', model: 'anthropic:pinned' }, 'openai:explicit', env)).toBe(
      'openai:explicit',
    );
    expect(selectModelSpec({ name: 'a', model: 'anthropic:pinned' }, undefined, env)).toBe(
      'anthropic:pinned',
    );
    expect(selectModelSpec({ name: 'a' }, undefined, env)).toBe('openai:global');
    expect(selectModelSpec({ name: 'a' }, undefined, {})).toBeUndefined();
  });

  it('an agent that needs a model and has none fails with how to configure one, and starts no run', async () => {
    const agent = defineAgent({ name: 'needy', instructions: 'Think.', tools: [] });
    const ledger = tempLedger();
    await expect(runAgent(agent, 'do it', { ledger, env: {} })).rejects.toThrow(ModelNotConfiguredError);
    await expect(runAgent(agent, 'do it', { ledger, env: {} })).rejects.toThrow(
      /--model provider:model.*TALLY_MODEL/,
    );
    expect(ledger.listRuns()).toEqual([]);
  });
});
