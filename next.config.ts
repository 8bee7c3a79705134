import type { NextConfig } from "next";
// Parse the environment at startup so a bad configuration fails fast.
import "./lib/env";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  typedRoutes: false,
  serverExternalPackages: ["pino", "@node-rs/argon2"],
};

export default nextConfig;
