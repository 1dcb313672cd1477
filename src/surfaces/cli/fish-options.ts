import { resolve } from 'node:path';
import { TallyError } from '../../core/errors.js';
import { DEMO_LOGIN, type LoginRecipe, readLoginRecipe } from '../../packs/http/client/login-recipe.js';

export interface FishFlags {
  captures?: string[];
  baseUrl?: string;
  scope?: string;
  login?: string;
  header?: string[];
  model?: string;
  allowDelete?: boolean;
  json?: boolean;
}

/** `--login demo` is the demo app's built-in recipe; anything else is a recipe file. */
export function loginFrom(flag: string | undefined): { login?: LoginRecipe; loginName?: string } {
  if (!flag) return {};
  if (flag === 'demo') return { login: DEMO_LOGIN, loginName: 'demo' };
  return { login: readLoginRecipe(resolve(flag)), loginName: resolve(flag) };
}

export function headersFrom(flags: string[] | undefined): Record<string, string> | undefined {
  if (!flags || flags.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const flag of flags) {
    const colon = flag.indexOf(':');
    if (colon <= 0)
      throw new TallyError(
        'HEADER_INVALID',
        `--header "${flag}" is not "Name: value". Write it like --header "Authorization: Bearer $TOKEN".`,
      );
    headers[flag.slice(0, colon).trim().toLowerCase()] = flag.slice(colon + 1).trim();
  }
  return headers;
}
