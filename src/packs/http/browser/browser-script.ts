import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { errorMessage } from '../../../core/errors.js';
import { BrowserError } from './launch-chromium.js';

/** What a login or capture script gets, after the page has opened the app. */
export interface BrowserScriptArguments {
  page: Page;
  context: BrowserContext;
  baseUrl: string;
}

export type BrowserScript = (args: BrowserScriptArguments) => Promise<unknown> | unknown;

/**
 * Loads `login.mjs`: an ES module whose default export is `async ({ page, context, baseUrl }) => …`.
 * Checked to be a regular file first, so a typo or a directory gets a clear error, not a
 * module-loader stack trace.
 */
export async function loadBrowserScript(path: string): Promise<BrowserScript> {
  const absolute = resolve(path);
  let isFile: boolean;
  try {
    isFile = statSync(absolute).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    throw new BrowserError(
      'BROWSER_SCRIPT_NOT_FOUND',
      `The browser script ${absolute} cannot be read (${code === 'ENOENT' ? 'it does not exist' : code}). Check the path after --script / browser:.`,
      { path: absolute },
    );
  }
  if (!isFile)
    throw new BrowserError(
      'BROWSER_SCRIPT_INVALID',
      `The browser script ${absolute} is not a regular file. Point it at an .mjs file.`,
      { path: absolute },
    );
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(absolute).href)) as { default?: unknown };
  } catch (error) {
    // The script's own fault, named as such: it read as "unexpected error … a bug in Tally".
    // A SyntaxError its top-level code threw (a JSON.parse) has the script in its stack; one
    // the compiler raised has not.
    if (error instanceof SyntaxError && !error.stack?.includes(pathToFileURL(absolute).href))
      throw new BrowserError(
        'BROWSER_SCRIPT_INVALID',
        `The browser script ${absolute} is not valid JavaScript (${error.message}). Fix the syntax; \`node --check ${absolute}\` shows the line.`,
        { path: absolute },
      );
    throw new BrowserError(
      'BROWSER_SCRIPT_INVALID',
      `The browser script ${absolute} failed to load: ${errorMessage(error).split('\n')[0]}. Fix the script (its imports and top-level code) and run again.`,
      { path: absolute },
    );
  }
  if (typeof module.default !== 'function')
    throw new BrowserError(
      'BROWSER_SCRIPT_INVALID',
      `The browser script ${absolute} has no default export function. Write \`export default async ({ page, context, baseUrl }) => { … }\`.`,
      { path: absolute },
    );
  return module.default as BrowserScript;
}

/** Runs a user's script; whatever it throws is the script's failure, named as such (not a Tally bug). */
export async function runBrowserScript(
  path: string,
  script: BrowserScript,
  args: BrowserScriptArguments,
): Promise<void> {
  try {
    await script(args);
  } catch (error) {
    throw new BrowserError(
      'BROWSER_SCRIPT_FAILED',
      `The browser script ${resolve(path)} failed on ${args.page.url()}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}. Fix the script (try it headed: unset --script and watch).`,
      { path: resolve(path) },
    );
  }
}
