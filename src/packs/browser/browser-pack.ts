import { definePack } from '../../core/pack.js';
import { browserConsoleTool } from './browser-console-tool.js';

/** `browser_console` as a pack (`--packs browser`): Chromium starts only when the tool is called. */
export const browserPack = definePack({
  name: 'browser',
  description: 'Render a local preview URL in headless Chromium and report console errors.',
  failOpenReasons: [],
  tools: () => [browserConsoleTool()],
});
