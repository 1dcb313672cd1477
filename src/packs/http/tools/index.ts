import { endpointSpecTool } from './endpoint-spec-tool.js';
import type { HttpToolContext } from './http-tool-context.js';
import { lookupTool } from './lookup-tool.js';
import { requestTool } from './request-tool.js';

/** The HTTP pack's tools for one run, in the order they are offered. */
export function httpTools(context: HttpToolContext) {
  return [endpointSpecTool(context), requestTool(context), lookupTool(context)];
}

export type { HttpToolContext };
