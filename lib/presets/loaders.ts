import "server-only";
import { scopedLoader } from "@/lib/tenant-scope";
import { runVariablesContext } from "./service";

/** The suite settings page's presets section: the agent's variables, the suite's values and presets. */
export const loadSuitePresets = scopedLoader(runVariablesContext);
