// A sampling profiler of the database for the viewers bench: every `everyMs` it reads which
// statements are active in pg_stat_activity (over its own connection, excluding itself) and counts
// them, so the report can say what PostgreSQL was busy with while the viewers polled.
import pg from "pg";

export type ActiveStatement = { statement: string; samples: number; share: number };

/** Whitespace folded, literals and placeholders blanked, cut to `width` characters. */
export function normaliseStatement(sql: string, width = 160): string {
  return sql
    .replace(/\s+/g, " ")
    .replace(/'(?:[^']|'')*'/g, "?")
    .replace(/\$\d+/g, "?")
    .trim()
    .slice(0, width);
}

export async function startPgSampler(
  url: string,
  everyMs = 100,
): Promise<{ stop: (top?: number) => Promise<{ samples: number; top: ActiveStatement[] }> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND datname = current_database()`,
      );
      samples++;
      for (const r of rows) {
        const key = normaliseStatement(r.query);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop(top = 8) {
      stopped = true;
      await loop.catch(() => undefined);
      await client.end().catch(() => undefined);
      const list = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
      return { samples, top: list.map(([statement, n]) => ({ statement, samples: n, share: samples ? n / samples : 0 })) };
    },
  };
}
