import { describe, expect, it } from "vitest";
import { createSuite, getSuite, updateSuite } from "@/lib/suites/service";
import { suiteInput } from "@/lib/suites/schemas";
import { initialValues } from "@/components/suites/suite-form-values";
import { makeAgent, makeWorkspace } from "../helpers/factories";

/**
 * The suite form starts from `initialValues` and sends its parsed values back as the whole patch:
 * a field it leaves out is saved as the schema's default. The human review settings must make the
 * round trip, or saving a suite's settings page would silently reset them.
 */
describe("suite form values", () => {
  it("round-trips the human review settings through the form and the update", async () => {
    const { ctx, workspace } = await makeWorkspace("editor");
    const agent = await makeAgent(workspace.id);
    const review = {
      review_rules: { failed: true, passed_sample_percent: 25, flaky: true },
      required_reviews: 3,
      calibration_min_labels: 12,
      calibration_trusted_kappa: 0.75,
    };
    const created = await createSuite(ctx, { agent_id: agent.id, name: "Review round trip", ...review });

    const values = suiteInput.parse(initialValues(await getSuite(ctx, created.id), null));
    expect(values).toMatchObject(review);

    // Saving the form unchanged keeps them.
    await updateSuite(ctx, created.id, values);
    expect(await getSuite(ctx, created.id)).toMatchObject(review);
  });

  it("starts a new suite with the schema's review defaults", () => {
    const values = suiteInput.parse({ ...initialValues(null, "00000000-0000-4000-8000-000000000000"), name: "New" });
    expect(values).toMatchObject({
      review_rules: { failed: false, passed_sample_percent: 0, flaky: false },
      required_reviews: 1,
      calibration_min_labels: 30,
      calibration_trusted_kappa: 0.6,
    });
  });

  it("rejects a sample percentage out of range at its field's path", () => {
    const base = initialValues(null, "00000000-0000-4000-8000-000000000000");
    const parsed = suiteInput.safeParse({ ...base, name: "New", review_rules: { ...base.review_rules, passed_sample_percent: 140 } });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join("."))).toContain("review_rules.passed_sample_percent");
  });
});
