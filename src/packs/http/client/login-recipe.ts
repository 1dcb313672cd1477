import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TallyError } from '../../../core/errors.js';
import { CookieJar } from './cookie-jar.js';

export const loginRecipeSchema = z.object({
  /** Path (or same-origin URL) of the login request. */
  url: z.string().min(1),
  method: z.enum(['POST', 'PUT']).default('POST'),
  /** Sent as a form; values may use ${ENV_VAR}. */
  form: z.record(z.string(), z.string()).optional(),
  /** Sent as JSON; values may use ${ENV_VAR}. */
  json: z.record(z.string(), z.string()).optional(),
  /** A page whose meta[name="csrf-token"] holds the CSRF token to send as x-csrf-token. */
  csrfPage: z.string().optional(),
  csrfHeader: z.string().default('x-csrf-token'),
});

export type LoginRecipe = z.infer<typeof loginRecipeSchema>;

/** The demo app's own login; its password is public on purpose. */
export const DEMO_LOGIN: LoginRecipe = {
  url: '/login',
  method: 'POST',
  form: { email: 'demo@tally.test', password: 'demo-password' },
  csrfPage: '/projects',
  csrfHeader: 'x-csrf-token',
};

export class LoginError extends TallyError {}

function expand(
  values: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv,
): Record<string, string> | undefined {
  if (!values) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    out[key] = value.replace(/\$\{([A-Z0-9_]+)\}/g, (_match, name: string) => {
      const found = env[name];
      if (found === undefined)
        throw new LoginError(
          'LOGIN_ENV_MISSING',
          `The login recipe needs \${${name}} but it is not set. Export ${name} before running.`,
          { name },
        );
      return found;
    });
  }
  return out;
}

export function readLoginRecipe(path: string): LoginRecipe {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new LoginError(
      'LOGIN_RECIPE_INVALID',
      `Cannot read the login recipe ${path}: ${error instanceof Error ? error.message : String(error)}. It must be a JSON file.`,
      { path },
    );
  }
  const parsed = loginRecipeSchema.safeParse(json);
  if (!parsed.success) {
    throw new LoginError(
      'LOGIN_RECIPE_INVALID',
      `The login recipe ${path} is invalid: ${z.prettifyError(parsed.error)}. See README "Live sessions".`,
      { path },
    );
  }
  return parsed.data;
}

/** A session made NOW: cookies and a CSRF token in memory, never a captured credential. */
export interface LiveSession {
  jar: CookieJar;
  csrf?: { header: string; token: string };
  startedAt: string;
}

const META_CSRF =
  /<meta\s+[^>]*name=["']csrf-token["'][^>]*content=["']([^"']+)["']|<meta\s+[^>]*content=["']([^"']+)["'][^>]*name=["']csrf-token["']/i;

export async function logIn(
  baseUrl: string,
  recipe: LoginRecipe,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LiveSession> {
  const jar = new CookieJar();
  const origin = new URL(baseUrl).origin;
  const loginUrl = new URL(recipe.url, baseUrl);
  if (loginUrl.origin !== origin)
    throw new LoginError(
      'LOGIN_ORIGIN',
      `The login URL ${loginUrl.href} is not on ${origin}; a session is only made on the API's origin.`,
    );
  const form = expand(recipe.form, env);
  const json = expand(recipe.json, env);
  const response = await fetch(loginUrl, {
    method: recipe.method,
    redirect: 'manual',
    headers: form
      ? { 'content-type': 'application/x-www-form-urlencoded' }
      : { 'content-type': 'application/json' },
    body: form ? new URLSearchParams(form).toString() : JSON.stringify(json ?? {}),
  });
  jar.store(response.headers.getSetCookie());
  if (response.status >= 400 || jar.size === 0) {
    throw new LoginError(
      'LOGIN_FAILED',
      `Login at ${loginUrl.pathname} answered ${response.status}${jar.size === 0 ? ' and set no cookie' : ''}. Check the recipe's credentials.`,
      { status: response.status },
    );
  }
  const session: LiveSession = { jar, startedAt: new Date().toISOString() };
  if (recipe.csrfPage) {
    const pageUrl = new URL(recipe.csrfPage, baseUrl);
    const page = await fetch(pageUrl, {
      headers: { cookie: jar.header(pageUrl.pathname) ?? '' },
      redirect: 'manual',
    });
    jar.store(page.headers.getSetCookie());
    const match = META_CSRF.exec(await page.text());
    const token = match?.[1] ?? match?.[2];
    if (!token)
      throw new LoginError(
        'CSRF_NOT_FOUND',
        `No meta[name="csrf-token"] on ${pageUrl.pathname} (status ${page.status}). Point csrfPage at a page that renders it.`,
      );
    session.csrf = { header: recipe.csrfHeader, token };
  }
  return session;
}
