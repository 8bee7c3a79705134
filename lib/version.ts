import packageJson from "../package.json";

/** Assay's version, as reports and comparison environments record it. */
export const ASSAY_VERSION: string = packageJson.version;
