/**
 * How a planned child item names its parent: an id path segment at `index`
 * (`/suites/{id}/tests`), or a body field (`suite_id`, numeric when the captures sent a
 * number). Its own module: the request planner and the container planner both build links
 * (`parent-link.ts` is the other side: finding the parent of an effect in the ledger).
 */
export type ParentLink = { kind: 'path'; index: number } | { kind: 'body'; field: string; numeric: boolean };
