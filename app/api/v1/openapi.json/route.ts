import { NextResponse } from "next/server";
import { buildOpenApiDocument } from "@/lib/api/openapi";

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

/** Public: the OpenAPI 3.1 description of /api/v1 (no API key needed to read it). */
export async function GET() {
  cached ??= buildOpenApiDocument();
  return NextResponse.json(cached, { headers: { "cache-control": "public, max-age=300" } });
}
