/**
 * Whether a string can be a stored value. PostgreSQL's text cannot hold the NUL character (it
 * refuses the whole statement), and SQLite's never does here either, so no stored id, email or
 * name contains one: a lookup by such a string finds nothing, without asking the database.
 */
export function storable(text: string): boolean {
  return !text.includes('\0');
}
