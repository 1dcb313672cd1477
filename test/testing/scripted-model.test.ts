import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { callTool, say, scriptedModel } from '../../src/testing/scripted-model.js';

describe('scripted model', () => {
  it('plays its steps in order and passes when used up', async () => {
    const model = scriptedModel([say('one'), say('two')]);
    expect((await generateText({ model, prompt: 'a' })).text).toBe('one');
    expect((await generateText({ model, prompt: 'b' })).text).toBe('two');
    expect(() => model.assertComplete()).not.toThrow();
    expect(model.calls).toHaveLength(2);
  });

  it('assertComplete fails a test whose script was not used up', async () => {
    const model = scriptedModel([say('one'), callTool('x', {})]);
    await generateText({ model, prompt: 'a' });
    expect(() => model.assertComplete()).toThrow(/1 scripted step\(s\) were never used/);
  });

  it('fails loudly on an unexpected call after the script ran out, and remembers it', async () => {
    const model = scriptedModel([say('only')]);
    await generateText({ model, prompt: 'a' });
    await expect(generateText({ model, prompt: 'b', maxRetries: 0 })).rejects.toThrow(
      /script has only 1 steps/,
    );
    expect(() => model.assertComplete()).toThrow(/unexpected call/);
  });
});
