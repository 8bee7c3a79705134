import { DEFAULT_REVIEW_RULES } from "@/lib/review/schemas";
import type { SuiteInput } from "@/lib/suites/schemas";
import type { SuiteDto } from "@/lib/suites/dto";

/**
 * The suite form's starting values: the defaults of a new suite, or every editable field of an
 * existing one — a field missing here would be saved back as its schema default.
 */
export function initialValues(suite: SuiteDto | null | undefined, defaultAgentId: string | null | undefined): SuiteInput {
  if (!suite) {
    return {
      agent_id: defaultAgentId ?? "",
      name: "",
      description: "",
      schedule_type: "manual",
      schedule_time: "",
      schedule_day_of_week: null,
      llm_judge_model_config_id: null,
      simulator_model_config_id: null,
      metrics: [],
      alert_on_regression: true,
      alert_threshold_percent: 10,
      hard_weight: 2,
      is_enabled: true,
      variables: {},
      retention_days: null,
      retention_runs: null,
      default_trials: 1,
      review_rules: { ...DEFAULT_REVIEW_RULES },
      required_reviews: 1,
      calibration_min_labels: 30,
      calibration_trusted_kappa: 0.6,
    };
  }
  return {
    agent_id: suite.agent_id,
    name: suite.name,
    description: suite.description ?? "",
    schedule_type: suite.schedule_type,
    schedule_time: suite.schedule_time ?? "",
    schedule_day_of_week: suite.schedule_day_of_week,
    llm_judge_model_config_id: suite.llm_judge_model_config_id,
    simulator_model_config_id: suite.simulator_model_config_id,
    metrics: suite.metrics.map((m) => ({ ...m, custom_prompt: m.custom_prompt ?? "" })),
    alert_on_regression: suite.alert_on_regression,
    alert_threshold_percent: suite.alert_threshold_percent,
    hard_weight: suite.hard_weight,
    is_enabled: suite.is_enabled,
    variables: suite.variables,
    retention_days: suite.retention_days,
    retention_runs: suite.retention_runs,
    default_trials: suite.default_trials,
    // Human review settings: left out, a save would put back the defaults over the stored rules.
    review_rules: { ...suite.review_rules },
    required_reviews: suite.required_reviews,
    calibration_min_labels: suite.calibration_min_labels,
    calibration_trusted_kappa: suite.calibration_trusted_kappa,
  };
}
