// @ts-check
/**
 * Names on the command line → the API's ids: a suite by id or name, a model configuration or an
 * agent by name or id, a suite preset by name. Ambiguous or unknown names are usage errors that
 * say what exists.
 */
import { ApiError, UsageError } from "./errors.mjs";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** @param {string} text */
export const isUuid = (text) => UUID.test(text);

/**
 * @template {{id: string, name: string}} T
 * @param {T[]} items
 * @param {string} ref
 * @param {string} what
 * @returns {T}
 */
export function pickByName(items, ref, what) {
  const exact = items.filter((i) => i.id === ref || i.name === ref);
  const matches = exact.length > 0 ? exact : items.filter((i) => i.name.toLowerCase() === ref.toLowerCase());
  if (matches.length === 1) return /** @type {T} */ (matches[0]);
  if (matches.length > 1) {
    throw new UsageError(`${matches.length} ${what}s are named "${ref}"; use an id: ${matches.map((m) => m.id).join(", ")}`);
  }
  const names = items.map((i) => i.name);
  const known = names.length === 0 ? `There are no ${what}s.` : `Known: ${names.slice(0, 20).join(", ")}${names.length > 20 ? ", …" : ""}`;
  throw new UsageError(`No ${what} "${ref}". ${known}`);
}

/**
 * A live suite by id or name.
 * @param {import("./api.mjs").AssayApi} api
 * @param {string} ref
 * @returns {Promise<{id: string, name: string, agent_id: string, variables?: Record<string, unknown>}>}
 */
export async function resolveSuite(api, ref) {
  if (isUuid(ref)) {
    try {
      return await api.get(`/suites/${ref}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) throw new UsageError(`No suite with id ${ref} in this key's workspace`);
      throw err;
    }
  }
  const suites = await api.list("/suites", { q: ref });
  const exact = suites.filter((s) => s.name === ref || s.name.toLowerCase() === ref.toLowerCase());
  if (exact.length === 0) {
    const similar = suites.map((s) => `"${s.name}"`).slice(0, 10);
    throw new UsageError(`No suite named "${ref}"${similar.length ? ` (similar: ${similar.join(", ")})` : ""}`);
  }
  return pickByName(exact, ref, "suite");
}

/**
 * The agent's variable definitions (the variables model).
 * @param {import("./api.mjs").AssayApi} api
 * @param {string} agentId
 * @returns {Promise<import("./args.mjs").VariableDefinition[]>}
 */
export async function agentVariables(api, agentId) {
  const agent = await api.get(`/agents/${agentId}`);
  return Array.isArray(agent.variables_schema) ? agent.variables_schema : [];
}

/**
 * @param {import("./api.mjs").AssayApi} api
 * @param {string} ref a model configuration's name or id
 * @returns {Promise<string>} its id
 */
export async function resolveModelConfigId(api, ref) {
  return pickByName(await api.list("/model-configs"), ref, "model configuration").id;
}

/**
 * @param {import("./api.mjs").AssayApi} api
 * @param {string} ref an agent's name or id
 * @returns {Promise<string>} its id
 */
export async function resolveAgentId(api, ref) {
  if (isUuid(ref)) return ref;
  return pickByName(await api.list("/agents"), ref, "agent").id;
}

/**
 * A suite preset's values (the variables model: named sets of variable values per suite).
 * @param {import("./api.mjs").AssayApi} api
 * @param {string} suiteId
 * @param {string} ref the preset's name or id
 * @returns {Promise<Record<string, string | number | boolean>>}
 */
export async function presetValues(api, suiteId, ref) {
  const page = await api.get(`/suites/${suiteId}/presets`);
  /** @type {{id: string, name: string, values?: Record<string, string | number | boolean>}[]} */
  const presets = Array.isArray(page?.data) ? page.data : [];
  return pickByName(presets, ref, "preset").values ?? {};
}
