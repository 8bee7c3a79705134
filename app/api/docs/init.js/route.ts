import { apiDocsInitScript } from "@/lib/api/docs-page";

/** The reference's start-up script (its options), served as a file so the page needs no inline script. */
export function GET() {
  return new Response(apiDocsInitScript(), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=300" },
  });
}
