import { TallyError, ToolRejectedError } from '../../core/errors.js';

/** A URL browser_console will not open (not loopback, credentials, another scheme). Changed nothing. */
export class BrowserUrlRefusedError extends ToolRejectedError {}

/** Chromium (or playwright-core) is not there, or would not start. */
export class BrowserUnavailableError extends TallyError {}
