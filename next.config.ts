import type { NextConfig } from "next";
// Parse the environment at startup so a bad configuration fails fast.
import { env } from "./lib/env";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Separate build directories let parallel checkouts/test runs build side by side.
  distDir: env.ASSAY_DIST_DIR,
  typedRoutes: false,
  serverExternalPackages: ["pino", "@node-rs/argon2"],
};

export default nextConfig;
