import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareData } from '../../src/agents/fisherman/prepare-data.js';
import { DEMO_PASSWORD } from '../../src/demo-app/server.js';
import { DEMO_LOGIN, logIn, readLoginRecipe } from '../../src/packs/http/client/login-recipe.js';
import { tempDir, tempLedger } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

/** Issue 19, item 6: a shared recipe cannot make Tally send any environment variable it likes. */
describe('login recipes expand only the variables they are allowed', () => {
  const env = {
    OPENAI_API_KEY: 'sk-live-do-not-send-0001',
    APP_PASSWORD: DEMO_PASSWORD,
    TALLY_PW: DEMO_PASSWORD,
  };

  it("a variable neither prefixed TALLY_ nor in the recipe's env list is refused before any request", async () => {
    const { app, seen } = await demoApp();
    const recipe = { ...DEMO_LOGIN, form: { email: 'demo@tally.test', password: '${OPENAI_API_KEY}' } };
    const refused = logIn(app.url, recipe, env);
    await expect(refused).rejects.toMatchObject({
      code: 'RECIPE_ENV_NOT_ALLOWED',
      details: { name: 'OPENAI_API_KEY' },
    });
    await expect(logIn(app.url, recipe, env)).rejects.toThrow(
      /\$\{OPENAI_API_KEY\}.*"env": \["OPENAI_API_KEY"\]/,
    );
    expect(seen).toEqual([]);
    // A JSON-body recipe is held to the same rule, the csrf page included.
    await expect(
      logIn(app.url, { ...DEMO_LOGIN, form: undefined, json: { key: 'a ${AWS_SECRET_ACCESS_KEY} b' } }, env),
    ).rejects.toMatchObject({ code: 'RECIPE_ENV_NOT_ALLOWED' });
    expect(seen).toEqual([]);
  });

  it('a recipe file that names a variable it does not allow is refused when read', () => {
    const dir = tempDir();
    const path = join(dir, 'shared.json');
    writeFileSync(path, JSON.stringify({ url: '/login', form: { token: '${GITHUB_TOKEN}' } }));
    expect(() => readLoginRecipe(path)).toThrow(expect.objectContaining({ code: 'RECIPE_ENV_NOT_ALLOWED' }));
    writeFileSync(
      path,
      JSON.stringify({ url: '/login', form: { token: '${GITHUB_TOKEN}' }, env: ['GITHUB_TOKEN'] }),
    );
    expect(readLoginRecipe(path)).toMatchObject({ env: ['GITHUB_TOKEN'] });
    writeFileSync(path, JSON.stringify({ url: '/login', env: ['not a name'] }));
    expect(() => readLoginRecipe(path)).toThrow(expect.objectContaining({ code: 'LOGIN_RECIPE_INVALID' }));
  });

  it('TALLY_ variables and the ones the env list names are expanded', async () => {
    const { app } = await demoApp();
    const listed = {
      ...DEMO_LOGIN,
      form: { email: 'demo@tally.test', password: '${APP_PASSWORD}' },
      env: ['APP_PASSWORD'],
    };
    expect((await logIn(app.url, listed, env)).csrf?.token).toMatch(/^[0-9a-f]{36}$/);
    const prefixed = { ...DEMO_LOGIN, form: { email: 'demo@tally.test', password: '${TALLY_PW}' } };
    expect((await logIn(app.url, prefixed, env)).csrf?.token).toMatch(/^[0-9a-f]{36}$/);
  });

  it("the run's record names the variables the recipe used, never their values", async () => {
    const { app } = await demoApp();
    const ledger = tempLedger();
    const result = await prepareData({
      request: '1 suite',
      captures: [BUNDLED_HAR],
      scope: '/projects/alpha-shop',
      baseUrl: app.url,
      login: { ...DEMO_LOGIN, form: { email: 'demo@tally.test', password: '${TALLY_PW}' } },
      loginName: 'recipe.json',
      ledger,
      env,
    });
    expect(result.status).toBe('success');
    const { run } = ledger.getRun(result.runId);
    expect(run.meta).toMatchObject({ login: 'recipe.json', loginEnv: ['TALLY_PW'] });
    expect(JSON.stringify(run)).not.toContain(DEMO_PASSWORD);
    ledger.close();
  });
});
