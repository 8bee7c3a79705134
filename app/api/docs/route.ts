import { API_DOCS_CONTENT_SECURITY_POLICY } from "@/lib/security-headers";
import { apiDocsHtml } from "@/lib/api/docs-page";

/**
 * Public, like /api/v1/openapi.json it renders: the interactive API reference. Its own policy
 * (scripts from this origin only) because proxy.ts's nonce policy does not cover /api routes.
 */
export function GET() {
  return new Response(apiDocsHtml(), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": API_DOCS_CONTENT_SECURITY_POLICY,
      "cache-control": "public, max-age=300",
    },
  });
}
