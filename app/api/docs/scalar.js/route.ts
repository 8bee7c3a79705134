import { scalarBundle } from "@/lib/api/docs-page";

/** Scalar's browser bundle from node_modules: the reference loads nothing from a CDN. */
export async function GET() {
  const body = await scalarBundle();
  return new Response(body, {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
