import { definePack } from '../../core/pack.js';
import { browserConsoleTool } from './browser-console-tool.js';
import { BROWSER_FAIL_OPEN_REASONS } from './browser-fail-open-reasons.js';

/** `browser_console` as a pack (`--packs browser`): Chromium starts only when the tool is called. */
export const browserPack = definePack({
  name: 'browser',
  description: 'Render a local preview URL in headless Chromium and report console errors.',
  failOpenReasons: BROWSER_FAIL_OPEN_REASONS,
  tools: () => [browserConsoleTool()],
});
