/**
 * Text PostgreSQL can store in text columns: NUL characters dropped and lone surrogates replaced,
 * in object keys and values alike, at any depth. What an agent reported is kept rather than
 * refused for a stray byte (spans are stored as json, which keeps any text; the conversation's
 * text columns and keys are not).
 */
export function storable<T>(value: T): T {
  if (typeof value === "string") return value.replaceAll("\u0000", "").toWellFormed() as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  }
  return value;
}
