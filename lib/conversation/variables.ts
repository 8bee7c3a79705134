/**
 * Substitutes `{{name}}` placeholders (spaces inside the braces allowed) with variable values:
 * strings as-is, other values as JSON. Unknown names stay as written, so a typo is visible.
 */
export function substituteVariables(text: string, variables: Record<string, unknown> | undefined): string {
  if (!variables || !text.includes("{{")) return text;
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => {
    if (!Object.hasOwn(variables, name)) return whole;
    const value = variables[name];
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}

export function substituteNullable(text: string | null, variables: Record<string, unknown> | undefined): string | null {
  return text === null ? null : substituteVariables(text, variables);
}
