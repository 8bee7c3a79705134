/**
 * The interactive API reference served at /api/docs: Scalar's API reference
 * (@scalar/api-reference, its self-contained browser build) rendering /api/v1/openapi.json.
 * Everything it needs comes from this app, so it works offline and under a strict policy
 * (API_DOCS_CONTENT_SECURITY_POLICY): the HTML, the bundled script read from node_modules, and
 * a small start-up script. Scalar's calls home are switched off here: no telemetry, no web
 * fonts, no AI agent, no request proxy (tried requests go straight to this origin).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";

export const API_DOCS_PATH = "/api/docs";
const SCRIPT_PATH = `${API_DOCS_PATH}/scalar.js`;
const INIT_PATH = `${API_DOCS_PATH}/init.js`;

/** Scalar's options: everything that would reach a Scalar server is off. */
const scalarConfiguration = {
  url: "/api/v1/openapi.json",
  telemetry: false,
  withDefaultFonts: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  persistAuth: false,
};

export function apiDocsHtml(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Assay API reference</title>
  </head>
  <body>
    <noscript>The interactive reference needs JavaScript; the raw description is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript>
    <div id="api-reference"></div>
    <script src="${SCRIPT_PATH}"></script>
    <script src="${INIT_PATH}"></script>
  </body>
</html>
`;
}

/** Runs after the bundle: mounts the reference (an inline script would need a nonce). */
export function apiDocsInitScript(): string {
  return `Scalar.createApiReference("#api-reference", ${JSON.stringify(scalarConfiguration)});\n`;
}

/**
 * Scalar's theme carries @font-face rules that load its fonts from fonts.scalar.com, and the
 * standalone build applies them before `withDefaultFonts: false` takes effect. Dropping those
 * rules keeps the reference on system fonts and on this origin (the e2e test fails if a new
 * version loads them some other way).
 */
const CDN_FONT_FACE = /@font-face\s*\{[^{}]*?fonts\.scalar\.com[^{}]*?\}/g;

/**
 * The zod inside Scalar probes for eval with `Function("")` unless jitless, and under a policy
 * without 'unsafe-eval' the probe is reported as a violation. Jitless zod, as the app's own
 * client sets it (components/providers.tsx), skips the probe. Set before the bundle runs.
 */
const ZOD_JITLESS = "globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });\n";

let bundle: Promise<string> | undefined;

/** Scalar's standalone browser build (about 4 MB), jitless and without its CDN fonts, read once per process. */
export function scalarBundle(): Promise<string> {
  bundle ??= readFile(
    path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js"),
    "utf8",
  ).then(
    (source) => ZOD_JITLESS + source.replace(CDN_FONT_FACE, ""),
    (err: unknown) => {
      bundle = undefined;
      throw err;
    },
  );
  return bundle;
}
