/** Shared pieces of the public (snake_case) JSON representation. */
export function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

/** Opaque keyset cursors: base64url of JSON. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

export function decodeCursor<T>(cursor: string | undefined, isValid: (v: unknown) => v is T): T | null {
  if (!cursor) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    return isValid(v) ? v : null;
  } catch {
    return null;
  }
}
