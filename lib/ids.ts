/**
 * Identifier checks shared by every layer. Ids are PostgreSQL uuids: a path or query parameter
 * that is not one names nothing, so services answer NotFound before asking the database.
 */

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
