import { existsSync } from 'node:fs';
import { BrowserUnavailableError } from './browser-error.js';
import { chromiumPath } from './chromium-settings.js';

/** The one fix for either missing piece, named exactly (both are needed; each says which it lacks). */
export const INSTALL_PLAYWRIGHT = 'npm i playwright-core';
export const INSTALL_CHROMIUM = 'apt-get install chromium, or set TALLY_CHROMIUM to a Chromium binary';

type Playwright = typeof import('playwright-core');

/** playwright-core, an optional dependency: absent after `npm i --omit=optional` or where it failed to install. */
export async function importPlaywright(): Promise<Playwright | undefined> {
  try {
    return await import('playwright-core');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    return undefined;
  }
}

/**
 * Chromium and playwright-core, or one error that names every missing piece and its install
 * command — not one piece now and the other on the next try.
 */
export async function requireBrowser(
  purpose: string,
  options: { env?: NodeJS.ProcessEnv; executablePath?: string } = {},
): Promise<{ chromium: Playwright['chromium']; executablePath: string }> {
  const executablePath = options.executablePath ?? chromiumPath(options.env);
  const playwright = await importPlaywright();
  const hasChromium = existsSync(executablePath);
  if (playwright && hasChromium) return { chromium: playwright.chromium, executablePath };
  const missing = [
    ...(playwright ? [] : [`playwright-core is not installed (${INSTALL_PLAYWRIGHT})`]),
    ...(hasChromium ? [] : [`no Chromium at ${executablePath} (${INSTALL_CHROMIUM})`]),
  ];
  throw new BrowserUnavailableError(
    'BROWSER_UNAVAILABLE',
    `${purpose} needs playwright-core and Chromium: ${missing.join('; and ')}. Install what is missing, then check with \`tally doctor\`.`,
    { executablePath, playwrightCore: Boolean(playwright), chromium: hasChromium },
  );
}
