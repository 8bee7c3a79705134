// The run fixtures live in tests/helpers/factories.ts; this re-export keeps the imports of the
// background-job tests (webhooks, retention, scheduler) working while those move.
export { makeSuiteWithCases, reportText, waitFor } from "../helpers/factories";
