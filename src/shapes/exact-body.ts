/**
 * `B`, a body built to be of the schema type `T`, with every field that `T` lacks turned into
 * `never`, at any depth (inside objects, arrays and optional fields). TypeScript refuses an extra
 * field only in an object literal written in place: a variable, or a domain object put in whole,
 * may carry more fields than its type names, and JSON.stringify would write them all. A body
 * required to be `T & ExactBody<B, T>` (api/endpoint.ts, mcp/tool.ts) makes each such field a
 * compile error that names it.
 */
export type ExactBody<B, T> =
  B extends readonly (infer Item)[] ? readonly ExactBody<Item, ItemOf<T>>[]
  : B extends object ? { [K in keyof B]: K extends keyof NonNullable<T> ? ExactBody<B[K], NonNullable<T>[K]> : never }
  : B;

type ItemOf<T> = NonNullable<T> extends readonly (infer Item)[] ? Item : never;
