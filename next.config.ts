import type { NextConfig } from "next";
// Parse the environment at startup so a bad configuration fails fast.
import { env } from "./lib/env";
import { API_CONTENT_SECURITY_POLICY, SHARE_PAGE_HEADERS, STATIC_SECURITY_HEADERS } from "./lib/security-headers";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Separate build directories let parallel checkouts/test runs build side by side.
  distDir: env.ASSAY_DIST_DIR,
  typedRoutes: false,
  serverExternalPackages: ["pino", "@node-rs/argon2"],
  // Server actions get the API's 10 MB document limit (MAX_IMPORT_BYTES) plus room for the
  // action's envelope, so a form with long texts is refused by our own validation with a clear
  // message, never cut off first by Next's defaults (1 MB for actions, 10 MB through proxy.ts).
  // (The import dialog posts its file to an API route: app/api/w/…/test-cases/import.)
  experimental: { serverActions: { bodySizeLimit: "11mb" }, proxyClientMaxBodySize: "11mb" },
  // Frame, sniffing and referrer protection on every response; pages get their nonce-based
  // Content-Security-Policy from proxy.ts, API responses a policy that allows nothing (not
  // /api/auth: Auth.js may answer with its own HTML pages and forms).
  async headers() {
    const apiPolicy = [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }];
    return [
      { source: "/:path*", headers: STATIC_SECURITY_HEADERS },
      ...["/api/v1/:path*", "/api/w/:path*", "/api/health"].map((source) => ({ source, headers: apiPolicy })),
      // A shared page's address is its secret: never sent on as a referrer, never indexed (later entries win).
      { source: "/share/:path*", headers: SHARE_PAGE_HEADERS },
    ];
  },
};

export default nextConfig;
