import { z } from 'zod';
import { builtOnce } from '../../../core/built-once.js';
import { TallyError } from '../../../core/errors.js';
import { decodeHtmlEntities } from '../../../core/html-entities.js';
import { parseFailure } from '../../../core/parse-error-place.js';
import { decodePercent } from '../../../core/percent-decoding.js';
import { readRegularFile } from '../captures/read-regular-file.js';
import { CookieJar } from './cookie-jar.js';
import type { TransportRequest, TransportResponse } from './http-transport.js';
import { defaultTransport } from './lean-http-transport.js';

/** A recipe is a few lines of JSON; anything bigger is not one. */
export const LOGIN_RECIPE_SIZE_LIMIT = 1024 * 1024;

// Built on first use: only a recipe file is checked against it; `--login demo` and runs without
// a login never are (issue 22: ~3 ms of every `tally fish`).
/** What a login recipe file may hold (`tally/fisherman` exports it as `loginRecipeSchema`). */
export const loginRecipeSchemaOnce = builtOnce(buildLoginRecipeSchema);

function buildLoginRecipeSchema() {
  return z.object({
    /** Path (or same-origin URL) of the login request. */
    url: z.string().min(1),
    method: z.enum(['POST', 'PUT']).default('POST'),
    /** Sent as a form; values may use ${ENV_VAR} (a TALLY_ variable or one `env` names). */
    form: z.record(z.string(), z.string()).optional(),
    /** Sent as JSON; values may use ${ENV_VAR} (a TALLY_ variable or one `env` names). */
    json: z.record(z.string(), z.string()).optional(),
    /**
     * Variables besides `TALLY_*` this recipe may expand. A recipe comes with a capture and may
     * be someone else's: without the list it could send OPENAI_API_KEY to the capture's origin.
     */
    env: z.array(z.string().regex(/^[A-Z0-9_]+$/, 'must be a variable name such as APP_PASSWORD')).optional(),
    /**
     * A page fetched before the login (`/accounts/login/`, `/sanctum/csrf-cookie`): its cookies
     * go with the login, and so does its CSRF token (a hidden form field, or a cookie such as
     * `csrftoken` / `XSRF-TOKEN`), as frameworks that guard the login form itself require.
     */
    loginPage: z.string().min(1).optional(),
    /** A page whose meta[name="csrf-token"] holds the CSRF token to send as x-csrf-token. */
    csrfPage: z.string().min(1).optional(),
    /**
     * A cookie whose value is the CSRF token to send back in `csrfHeader` (double submit). Without
     * it (and without `csrfPage`), the usual cookies are recognised: `XSRF-TOKEN` →
     * `X-XSRF-TOKEN`, `csrftoken` → `X-CSRFToken` (CSRF_COOKIES).
     */
    csrfCookie: z
      .string()
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a cookie name')
      .optional(),
    csrfHeader: z
      .string()
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name')
      .default('x-csrf-token'),
    /**
     * Where the login's JSON answer holds a token to send on every request (`access_token`,
     * `data.token`): for APIs that answer a login with a token instead of a session cookie.
     * Without it, a login that sets no cookie is searched for the usual names (TOKEN_FIELDS).
     */
    token: z
      .string()
      .regex(
        /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/,
        'must be a field name or a dotted path such as data.token',
      )
      .optional(),
    /** The header the token goes in (default `authorization`). */
    tokenHeader: z
      .string()
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name')
      .optional(),
    /** What precedes the token in that header (default `Bearer`; "" sends the token alone). */
    tokenScheme: z
      .string()
      .regex(/^[A-Za-z0-9_-]*$/, 'must be a word such as Bearer or Token, or ""')
      .optional(),
  });
}

export type LoginRecipe = z.infer<ReturnType<typeof buildLoginRecipeSchema>>;

/** The demo app's own login; its password is public on purpose. */
export const DEMO_LOGIN: LoginRecipe = {
  url: '/login',
  method: 'POST',
  form: { email: 'demo@tally.test', password: 'demo-password' },
  csrfPage: '/projects',
  csrfHeader: 'x-csrf-token',
};

export class LoginError extends TallyError {}

const ENV_REFERENCE = /\$\{([A-Z0-9_]+)\}/g;

/** The variables a recipe's form and JSON values name, in order of first use (names only). */
export function recipeEnvNames(recipe: LoginRecipe): string[] {
  const names = new Set<string>();
  for (const value of [...Object.values(recipe.form ?? {}), ...Object.values(recipe.json ?? {})])
    for (const match of value.matchAll(ENV_REFERENCE)) names.add(match[1] as string);
  return [...names];
}

/**
 * Security (issue 19): a recipe expands only `TALLY_*` variables and those its own `env` list
 * names; anything else is refused before any request, naming the variable and the fix.
 */
export function checkRecipeEnv(recipe: LoginRecipe): void {
  const allowed = new Set(recipe.env ?? []);
  for (const name of recipeEnvNames(recipe)) {
    if (name.startsWith('TALLY_') || allowed.has(name)) continue;
    throw new LoginError(
      'RECIPE_ENV_NOT_ALLOWED',
      `The login recipe uses \${${name}}, which it does not allow: a recipe expands only TALLY_* variables and those named in its own "env" list, so a shared recipe cannot send your other secrets to the app. If you trust this recipe, add "env": ["${name}"] to it (or export the value as TALLY_${name} and use \${TALLY_${name}}).`,
      { name },
    );
  }
}

function expand(
  values: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv,
): Record<string, string> | undefined {
  if (!values) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    out[key] = value.replace(ENV_REFERENCE, (_match, name: string) => {
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
  const text = readRegularFile(path, 'login recipe', LOGIN_RECIPE_SIZE_LIMIT);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new LoginError(
      'LOGIN_RECIPE_INVALID',
      `Cannot read the login recipe ${path}: ${parseFailure('JSON', error, text)}. Fix it there; it must be a JSON file.`,
      { path },
    );
  }
  const parsed = loginRecipeSchemaOnce().safeParse(json);
  if (!parsed.success) {
    throw new LoginError(
      'LOGIN_RECIPE_INVALID',
      `The login recipe ${path} is invalid: ${z.prettifyError(parsed.error)}. See README "Live sessions".`,
      { path },
    );
  }
  checkRecipeEnv(parsed.data);
  return parsed.data;
}

/** The CSRF token a session sends, the header it goes in, and the cookie it is read from, if one. */
export interface SessionCsrf {
  header: string;
  token: string;
  /**
   * The cookie that carries it (`XSRF-TOKEN`): a response that sets it anew refreshes the
   * token, and one that deletes it stops the header, as the page's script would.
   */
  cookie?: string;
}

/** A session made NOW: cookies, a CSRF token and a login token in memory, never a captured credential. */
export interface LiveSession {
  jar: CookieJar;
  csrf?: SessionCsrf;
  /** A token the login answered with, and the header it is sent in (`authorization: Bearer …`). */
  token?: { header: string; value: string; token: string };
  startedAt: string;
}

/** Where a login answer usually holds its token, when the recipe names none (checked in this order). */
const TOKEN_FIELDS = [
  'access_token',
  'accessToken',
  'token',
  'jwt',
  'id_token',
  'idToken',
  'auth_token',
  'authToken',
];

/** A non-empty string at `path` (dotted) in `body`. */
function stringAt(body: unknown, path: string): string | undefined {
  let value = body;
  for (const key of path.split('.')) {
    if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key))
      return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The token of a login answer: at the recipe's `token` path, else at a usual name, top-level or under `data`. */
function tokenIn(text: string, path: string | undefined): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (path !== undefined) return stringAt(body, path);
  for (const where of ['', 'data.'])
    for (const field of TOKEN_FIELDS) {
      const found = stringAt(body, `${where}${field}`);
      if (found) return found;
    }
  return undefined;
}

/** CSRF cookies frameworks set for the page's script to send back, and the header they expect it in. */
const CSRF_COOKIES: readonly { cookie: string; header: string }[] = [
  { cookie: 'XSRF-TOKEN', header: 'x-xsrf-token' },
  { cookie: 'csrftoken', header: 'x-csrftoken' },
];

/** Hidden form fields that carry a login form's CSRF token (Django, Rails, Laravel, csurf, WTForms). */
const CSRF_FIELD_NAMES =
  /\bname=["']?(csrfmiddlewaretoken|authenticity_token|_token|_csrf|csrf_token)(?=["'\s/>]|$)/i;

/**
 * The first hidden CSRF field of a page: its name and value. Tag by tag (`<input` … `>`, at
 * most 4 KB each), so a hostile page of unclosed tags costs one pass, not one per tag.
 */
function csrfField(page: string): [name: string, value: string] | undefined {
  const lower = page.toLowerCase();
  for (let at = lower.indexOf('<input'); at >= 0; at = lower.indexOf('<input', at + 6)) {
    const end = lower.indexOf('>', at);
    if (end < 0) return undefined;
    const tag = page.slice(at, Math.min(end, at + 4096));
    if (!/\btype=["']?hidden\b/i.test(tag)) continue;
    const name = CSRF_FIELD_NAMES.exec(tag)?.[1];
    const value = /\bvalue=(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag);
    const token = value?.[1] ?? value?.[2] ?? value?.[3];
    if (name && token) return [name, token];
  }
  return undefined;
}

/**
 * The CSRF token a cookie carries, and the header to send it in: the recipe's `csrfCookie` (in
 * its `csrfHeader`), else the first of CSRF_COOKIES the jar holds. Cookie values may be
 * URL-encoded (`XSRF-TOKEN` is): the header carries the decoded token, as the page's script
 * would send it.
 */
function csrfFromCookies(jar: CookieJar, recipe: LoginRecipe): Required<SessionCsrf> | undefined {
  const candidates = recipe.csrfCookie
    ? [{ cookie: recipe.csrfCookie, header: recipe.csrfHeader }]
    : CSRF_COOKIES;
  for (const { cookie, header } of candidates) {
    const value = jar.get(cookie);
    if (value !== undefined) return { header: header.toLowerCase(), token: decodePercent(value), cookie };
  }
  return undefined;
}

const META_CSRF =
  /<meta\s+[^>]*name=["']csrf-token["'][^>]*content=["']([^"']+)["']|<meta\s+[^>]*content=["']([^"']+)["'][^>]*name=["']csrf-token["']/i;

/**
 * Security: every URL a recipe makes Tally fetch is resolved against the API's base URL and
 * must stay on its origin — an absolute or scheme-relative (`//host/x`) URL elsewhere would
 * send the live session cookie to another server. Checked before any request leaves.
 */
function onOrigin(field: string, raw: string, baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(raw, baseUrl);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new LoginError(
      'LOGIN_RECIPE_INVALID',
      `The login recipe's ${field} "${raw}" is not a URL. Write a path such as /login.`,
      {
        field,
      },
    );
  }
  const origin = new URL(baseUrl).origin;
  if (url.origin !== origin)
    throw new LoginError(
      'LOGIN_ORIGIN',
      `The login recipe's ${field} ${url.href} is not on ${origin}; a session is only made and used on the API's origin. Write ${field} as a path on ${origin}.`,
      { field, origin },
    );
  return url;
}

/** Values a live session holds that must never be persisted or printed: its cookies, CSRF token and login token. */
export function sessionSecrets(session: LiveSession): string[] {
  return [
    ...session.jar.values(),
    ...(session.csrf ? [session.csrf.token] : []),
    ...(session.token ? [session.token.token] : []),
  ];
}

/** The secret values a recipe sends: its form and JSON fields after ${ENV} expansion. */
export function recipeSecrets(recipe: LoginRecipe, env: NodeJS.ProcessEnv = process.env): string[] {
  try {
    checkRecipeEnv(recipe);
  } catch (error) {
    // A variable the recipe may not use fails the login itself; nothing is expanded.
    if (error instanceof LoginError) return [];
    throw error;
  }
  const values = (fields: Record<string, string> | undefined) => {
    try {
      return Object.values(expand(fields, env) ?? {});
    } catch (error) {
      // A missing variable fails the login itself with the clear message; nothing was sent.
      if (error instanceof LoginError) return [];
      throw error;
    }
  };
  return [...values(recipe.form), ...values(recipe.json)];
}

/** One request of the login (never following a redirect), a network failure as a LoginError that says what to check. */
async function reach(url: URL, request: TransportRequest): Promise<TransportResponse> {
  try {
    return await defaultTransport()(url, request);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    throw new LoginError(
      'LOGIN_UNREACHABLE',
      `Cannot reach ${url.origin} to log in (${reason}). Check --base-url and that the app is running.`,
      { url: url.href },
    );
  }
}

/**
 * The login page's part of the login (`loginPage`): its cookies, its CSRF token in the form
 * (a hidden field the form lacks) or in a header (from a CSRF cookie), and a Referer, as the
 * browser would send them when the form is submitted from that page.
 */
async function fromLoginPage(
  pageUrl: URL,
  jar: CookieJar,
  recipe: LoginRecipe,
  form: Record<string, string> | undefined,
): Promise<{ form: Record<string, string> | undefined; headers: Record<string, string> }> {
  const page = await reach(pageUrl, { method: 'GET', headers: {} });
  if (page.status >= 400)
    throw new LoginError(
      'LOGIN_FAILED',
      `The login page ${pageUrl.pathname} answered ${page.status}. Point loginPage at the page the login form is on.`,
      { status: page.status },
    );
  jar.store(page.setCookies());
  const headers: Record<string, string> = { referer: pageUrl.href };
  const field = csrfField(page.text);
  const withField =
    form && field && !Object.hasOwn(form, field[0])
      ? { ...form, [field[0]]: decodeHtmlEntities(field[1]) }
      : form;
  const csrf = csrfFromCookies(jar, recipe);
  if (csrf) headers[csrf.header] = csrf.token;
  return { form: withField, headers };
}

export async function logIn(
  baseUrl: string,
  recipe: LoginRecipe,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LiveSession> {
  checkRecipeEnv(recipe);
  const jar = new CookieJar();
  const loginUrl = onOrigin('url', recipe.url, baseUrl);
  const loginPageUrl =
    recipe.loginPage === undefined ? undefined : onOrigin('loginPage', recipe.loginPage, baseUrl);
  const pageUrl = recipe.csrfPage === undefined ? undefined : onOrigin('csrfPage', recipe.csrfPage, baseUrl);
  const json = expand(recipe.json, env);
  const before = loginPageUrl
    ? await fromLoginPage(loginPageUrl, jar, recipe, expand(recipe.form, env))
    : { form: expand(recipe.form, env), headers: {} };
  const { form } = before;
  const cookie = jar.header(loginUrl.pathname);
  const response = await reach(loginUrl, {
    method: recipe.method,
    headers: {
      ...before.headers,
      ...(cookie ? { cookie } : {}),
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
    },
    body: form ? new URLSearchParams(form).toString() : JSON.stringify(json ?? {}),
  });
  // Whether the login itself set a cookie: the login page's own (a CSRF cookie) are no session.
  const loginCookies = response.setCookies();
  jar.store(loginCookies);
  const noCookie = loginCookies.length === 0;
  // A token is looked for where the recipe says, or, when the login set no cookie, at the usual names.
  const token =
    response.status < 400 && (recipe.token !== undefined || noCookie)
      ? tokenIn(response.text, recipe.token)
      : undefined;
  if (response.status >= 400 || (noCookie && token === undefined) || (recipe.token && !token)) {
    const missing = recipe.token
      ? ` and its answer has no token at "${recipe.token}"`
      : noCookie
        ? ` and set no cookie nor answered with a token (${TOKEN_FIELDS.slice(0, 3).join(', ')}, …; name another with "token": "data.jwt")`
        : '';
    throw new LoginError(
      'LOGIN_FAILED',
      `Login at ${loginUrl.pathname} answered ${response.status}${response.status < 400 ? missing : ''}. Check the recipe's credentials.`,
      { status: response.status },
    );
  }
  const session: LiveSession = { jar, startedAt: new Date().toISOString() };
  if (token !== undefined) {
    const scheme = recipe.tokenScheme ?? 'Bearer';
    session.token = {
      header: (recipe.tokenHeader ?? 'authorization').toLowerCase(),
      value: scheme ? `${scheme} ${token}` : token,
      token,
    };
  }
  if (pageUrl) {
    const page = await reach(pageUrl, {
      method: 'GET',
      headers: { cookie: jar.header(pageUrl.pathname) ?? '' },
    });
    jar.store(page.setCookies());
    const match = META_CSRF.exec(page.text);
    const token = match?.[1] ?? match?.[2];
    if (!token)
      throw new LoginError(
        'CSRF_NOT_FOUND',
        `No meta[name="csrf-token"] on ${pageUrl.pathname} (status ${page.status}). Point csrfPage at a page that renders it.`,
      );
    session.csrf = { header: recipe.csrfHeader, token };
  } else {
    // No page to read it from: a CSRF cookie the app set (after the login, which may rotate it).
    const fromCookie = csrfFromCookies(jar, recipe);
    if (fromCookie) session.csrf = fromCookie;
  }
  return session;
}
