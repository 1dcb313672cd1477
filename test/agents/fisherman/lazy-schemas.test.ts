// Schemas a deterministic `tally fish` never checks against are built on first use (issue 22):
// the same schema every time, and the public export is that schema, whole.
import { describe, expect, it } from 'vitest';
import { fishContractSchema } from '../../../src/agents/fisherman/fish-contract.js';
import { loginRecipeSchema } from '../../../src/agents/fisherman/index.js';
import { loginRecipeSchemaOnce } from '../../../src/packs/http/client/login-recipe.js';

describe('schemas built on first use', () => {
  it("tally/fisherman's loginRecipeSchema is the recipe schema: defaults filled, a bad header name refused", () => {
    expect(loginRecipeSchemaOnce()).toBe(loginRecipeSchemaOnce());
    expect(loginRecipeSchema).toBe(loginRecipeSchemaOnce());
    expect(loginRecipeSchema.parse({ url: '/login', form: { a: 'b' } })).toEqual({
      url: '/login',
      method: 'POST',
      form: { a: 'b' },
      csrfHeader: 'x-csrf-token',
    });
    expect(loginRecipeSchema.safeParse({ url: '/login', csrfHeader: 'bad header' }).success).toBe(false);
    expect(loginRecipeSchema.safeParse({ url: '/login', env: ['lower'] }).success).toBe(false);
  });

  it('the contract schema is built once and still refuses what contractIssues refuses', () => {
    expect(fishContractSchema()).toBe(fishContractSchema());
    const suite = { ref: 'suite', type: 'suite', count: 1 };
    expect(fishContractSchema().safeParse({ entities: [suite] }).success).toBe(true);
    const orphan = { ref: 'test', type: 'test', count: 2, parent: { ref: 'nowhere' } };
    expect(fishContractSchema().safeParse({ entities: [suite, orphan] }).success).toBe(false);
    expect(fishContractSchema().safeParse({ entities: [{ ...suite, count: 0 }] }).success).toBe(false);
  });
});
