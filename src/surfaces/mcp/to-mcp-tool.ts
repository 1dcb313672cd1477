import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolDefinition } from '../../core/tool.js';

const TITLES: Record<string, string> = {};

/** One tool definition, served to MCP clients: schemas, annotations, a description of when to use it. */
export function toMcpTool(definition: ToolDefinition): Tool {
  const inputSchema = z.toJSONSchema(definition.inputSchema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Tool['inputSchema'];
  const outputSchema = definition.outputSchema
    ? (z.toJSONSchema(definition.outputSchema, {
        io: 'output',
        unrepresentable: 'any',
      }) as Tool['outputSchema'])
    : undefined;
  const { annotations } = definition;
  return {
    name: definition.name,
    title: TITLES[definition.name] ?? definition.name.replace(/_/g, ' '),
    description: definition.description,
    inputSchema: { ...inputSchema, type: 'object' },
    ...(outputSchema ? { outputSchema: { ...outputSchema, type: 'object' } } : {}),
    annotations: {
      readOnlyHint: annotations.readOnly ?? false,
      destructiveHint: annotations.destructive ?? false,
      idempotentHint: annotations.idempotent ?? false,
      openWorldHint: annotations.openWorld ?? false,
    },
  };
}
