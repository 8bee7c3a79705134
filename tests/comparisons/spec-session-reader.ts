/**
 * The A/B engine's own reader of a session document, ported line for line from its Python
 * (`TestSession.from_dict`, `ABTestResult.from_dict`, `AgentResponse.from_dict`): `data['key']`
 * throws KeyError when the key is missing, `data.get('key', default)` does not, and
 * `datetime.fromisoformat` refuses what is not an ISO 8601 date. The tests hold Assay's export to it.
 */

export class KeyError extends Error {}

type Dict = Record<string, unknown>;

/** Python's `data['key']`. */
function item(data: Dict, key: string): unknown {
  if (!Object.hasOwn(data, key)) throw new KeyError(key);
  return data[key];
}

/** Python's `data.get('key', fallback)`. */
function get(data: Dict, key: string, fallback: unknown = null): unknown {
  return Object.hasOwn(data, key) ? data[key] : fallback;
}

/** Python 3.11's `datetime.fromisoformat` on a string (TypeError on anything else). */
function fromIsoFormat(value: unknown): Date {
  if (typeof value !== "string") throw new TypeError(`fromisoformat: argument must be str, not ${value === null ? "None" : typeof value}`);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(value)) {
    throw new RangeError(`Invalid isoformat string: '${value}'`);
  }
  return new Date(value);
}

function agentResponseFromDict(data: Dict) {
  return {
    response: item(data, "response"),
    prompt_tokens: item(data, "prompt_tokens"),
    completion_tokens: item(data, "completion_tokens"),
    latency_ms: item(data, "latency_ms"),
    model: item(data, "model"),
    timestamp: fromIsoFormat(item(data, "timestamp")),
    error: get(data, "error"),
    retry_count: get(data, "retry_count", 0),
  };
}

function abTestResultFromDict(data: Dict) {
  return {
    question: item(data, "question"),
    baseline: agentResponseFromDict(item(data, "baseline") as Dict),
    docstratum: agentResponseFromDict(item(data, "docstratum") as Dict),
    context_tokens: item(data, "context_tokens"),
    timestamp: fromIsoFormat(item(data, "timestamp")),
    session_id: item(data, "session_id"),
    metadata: get(data, "metadata", {}),
  };
}

export function testSessionFromDict(data: Dict) {
  return {
    session_id: item(data, "session_id"),
    start_time: fromIsoFormat(item(data, "start_time")),
    end_time: get(data, "end_time") ? fromIsoFormat(get(data, "end_time")) : null,
    baseline_model: get(data, "baseline_model", "claude-baseline"),
    docstratum_model: get(data, "docstratum_model", "claude-docstratum"),
    llms_source_path: get(data, "llms_source_path", ""),
    environment: get(data, "environment", {}),
    notes: get(data, "notes", ""),
    results: (get(data, "results", []) as Dict[]).map(abTestResultFromDict),
  };
}
