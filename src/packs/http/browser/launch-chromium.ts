import type { Browser } from 'playwright-core';
import { TallyError } from '../../../core/errors.js';
import { requireBrowser } from '../../browser/browser-requirements.js';
import {
  chromiumPath,
  HEADLESS_CHROMIUM_ARGS,
  QUIET_CHROMIUM_FLAGS,
} from '../../browser/chromium-settings.js';

export class BrowserError extends TallyError {}

export { chromiumPath };

/** Chromium through playwright-core, headless unless asked (a person watching needs a display). */
export async function launchChromium(options: {
  headless: boolean;
  env?: NodeJS.ProcessEnv;
  /** What needs the browser, for the message when a piece is missing. */
  purpose?: string;
}): Promise<Browser> {
  const { chromium, executablePath } = await requireBrowser(
    options.purpose ?? 'Recording a browser session',
    {
      ...(options.env ? { env: options.env } : {}),
    },
  );
  return chromium.launch({
    executablePath,
    headless: options.headless,
    args: options.headless ? HEADLESS_CHROMIUM_ARGS : QUIET_CHROMIUM_FLAGS,
  });
}

/** Headed only when a person can see it: a display and no script driving the page. */
export function wantsHeadless(options: {
  script?: string;
  headless?: boolean;
  env?: NodeJS.ProcessEnv;
}): boolean {
  if (options.headless !== undefined) return options.headless;
  const env = options.env ?? process.env;
  return Boolean(options.script) || !(env.DISPLAY || env.WAYLAND_DISPLAY);
}
