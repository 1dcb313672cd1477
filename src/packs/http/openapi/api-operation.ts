/** A JSON Schema object as an OpenAPI document holds it (after `$ref`s were resolved: it may contain cycles). */
export type JsonSchema = Record<string, unknown>;

export interface ApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema?: JsonSchema;
  example?: unknown;
}

/** One operation of one OpenAPI/Swagger document: what an endpoint takes, in the spec's own words. */
export interface ApiOperation {
  method: string;
  /** The spec's path template, relative to the API's base URL (`/pets/{petId}/visits`). */
  path: string;
  /** The template with every parameter segment as `{id}`, the shape capture patterns have. */
  pattern: string;
  /** The last literal segment (`visits`): the resource a collection holds. */
  resource?: string;
  operationId?: string;
  summary?: string;
  parameters: ApiParameter[];
  /** The JSON request body, when the operation takes one. */
  requestBody?: { contentType: string; required: boolean; schema: JsonSchema };
  /** Response status codes the spec declares (`201`, `422`, `default`). */
  responses: string[];
  /** The document it came from. */
  source: string;
}

export interface ApiSpecSet {
  sources: string[];
  operations: ApiOperation[];
  /** Server URLs the documents declare, in order (absolute ones first usable as a base URL). */
  servers: string[];
}
