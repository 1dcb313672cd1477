import { resolve } from 'node:path';
import { parseHeaderLine } from '../../packs/http/client/header-line.js';
import {
  DEMO_LOGIN,
  type LiveSession,
  type LoginRecipe,
  readLoginRecipe,
} from '../../packs/http/client/login-recipe.js';

export interface FishFlags {
  captures?: string[];
  spec?: string[];
  baseUrl?: string;
  scope?: string;
  login?: string;
  header?: string[];
  model?: string;
  allowDelete?: boolean;
  json?: boolean;
  /** Creates in flight at once (commander hands the parsed text). */
  concurrency?: string;
  /** `--emit playwright FILE.ts` / `--emit json FILE`. */
  emit?: string[];
  /** `--no-recipes`: neither use nor keep recipes. */
  recipes?: boolean;
}

/**
 * `--login demo` is the demo app's built-in recipe; `browser:SCRIPT` logs in through real
 * Chromium (loaded only then); anything else is a recipe file.
 */
export function loginFrom(flag: string | undefined): {
  login?: LoginRecipe;
  liveSession?: (baseUrl: string) => Promise<LiveSession>;
  loginName?: string;
} {
  if (!flag) return {};
  if (flag === 'demo') return { login: DEMO_LOGIN, loginName: 'demo' };
  if (flag.startsWith('browser:')) {
    const script = resolve(flag.slice('browser:'.length));
    return {
      liveSession: async (baseUrl) =>
        (await import('../../packs/http/browser/browser-login.js')).browserLogin(baseUrl, { script }),
      loginName: `browser:${script}`,
    };
  }
  return { login: readLoginRecipe(resolve(flag)), loginName: resolve(flag) };
}

export function headersFrom(flags: string[] | undefined): Record<string, string> | undefined {
  if (!flags || flags.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const flag of flags) {
    const [name, value] = parseHeaderLine(flag, '--header');
    headers[name] = value;
  }
  return headers;
}
