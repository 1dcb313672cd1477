import { CookieJar } from '../client/cookie-jar.js';
import type { LiveSession } from '../client/login-recipe.js';
import { loadBrowserScript, runBrowserScript } from './browser-script.js';
import { BrowserError, launchChromium } from './launch-chromium.js';

export interface BrowserLoginOptions {
  /** The login script (`login.mjs`), run after the browser opened `baseUrl`. */
  script: string;
  /** The header the CSRF token goes in (default x-csrf-token). */
  csrfHeader?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * A live session made by real Chromium, for apps whose login needs JavaScript: the script
 * logs in, then the session is what the browser itself would send to the API's origin
 * (`context.cookies(origin)`) and the CSRF token from `meta[name="csrf-token"]` on the page
 * the script ended on. Held in memory only; the browser is closed before any API request.
 */
export async function browserLogin(baseUrl: string, options: BrowserLoginOptions): Promise<LiveSession> {
  const script = await loadBrowserScript(options.script);
  const origin = new URL(baseUrl).origin;
  const browser = await launchChromium({
    headless: true,
    purpose: '`--login browser:SCRIPT`',
    ...(options.env ? { env: options.env } : {}),
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(baseUrl);
    await runBrowserScript(options.script, script, { page, context, baseUrl });
    const jar = new CookieJar();
    jar.store(
      (await context.cookies(origin)).map(
        (cookie) => `${cookie.name}=${cookie.value}; Path=${cookie.path || '/'}`,
      ),
    );
    if (jar.size === 0)
      throw new BrowserError(
        'BROWSER_LOGIN_NO_SESSION',
        `After the login script, the browser holds no cookie for ${origin}. Check that the script signs in (and waits for it) on ${origin}.`,
        { origin },
      );
    const meta = page.locator('meta[name="csrf-token"]').first();
    const token = (await meta.count()) > 0 ? await meta.getAttribute('content') : null;
    return {
      jar,
      startedAt: new Date().toISOString(),
      ...(token ? { csrf: { header: options.csrfHeader ?? 'x-csrf-token', token } } : {}),
    };
  } finally {
    await browser.close();
  }
}
