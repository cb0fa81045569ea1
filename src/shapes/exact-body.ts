/**
 * `B`, a body built to be of the schema type `T`, with every field that `T` lacks turned into
 * `never`, at any depth (inside objects, arrays and optional fields). TypeScript refuses an extra
 * field only in an object literal written in place: a variable, or a domain object put in whole,
 * may carry more fields than its type names, and JSON.stringify would write them all. A body
 * required to be `T & ExactBody<B, T>` (api/endpoint.ts, mcp/tool.ts) makes each such field a
 * compile error that names it.
 *
 * `T` may be a union (a pagination with or without next_cursor): a field is allowed when one of
 * its members has it. `B` may be one too, and each of its members is checked; since a member of a
 * union is accepted by any other member it has the fields of, the fields no member of `T` has are
 * forbidden in every member's check, whichever member of `B` carries them.
 */
export type ExactBody<B, T> = Exact<B, NonNullable<T>, B>;

type Exact<B, T, WholeB> =
  B extends readonly (infer Item)[] ? readonly ExactBody<Item, ItemOf<T>>[]
  : B extends object
    ? { [K in keyof B]: K extends KeyOfAny<T> ? ExactBody<B[K], FieldOfAny<T, K>> : never }
      & { [K in Exclude<KeyOfAny<WholeB>, KeyOfAny<T>>]?: never }
  : B;

type ItemOf<T> = T extends readonly (infer Item)[] ? Item : never;
/** The fields of any member of T that is an object (not an array). */
type KeyOfAny<T> = T extends readonly unknown[] ? never : T extends object ? keyof T : never;
/** The type of field K in the members of T that have it. */
type FieldOfAny<T, K> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
