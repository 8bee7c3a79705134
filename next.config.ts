import type { NextConfig } from "next";
// Parse the environment at startup so a bad configuration fails fast.
import { env } from "./lib/env";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Separate build directories let parallel checkouts/test runs build side by side.
  distDir: env.ASSAY_DIST_DIR,
  typedRoutes: false,
  serverExternalPackages: ["pino", "@node-rs/argon2"],
  // The import dialog sends the file's text to a server action; it gets the API import's 10 MB
  // limit (MAX_IMPORT_BYTES, checked by parseCasesDocument) plus room for the action's envelope.
  // Next's defaults (1 MB for actions, 10 MB through proxy.ts) would cut it off first.
  experimental: { serverActions: { bodySizeLimit: "11mb" }, proxyClientMaxBodySize: "11mb" },
};

export default nextConfig;
