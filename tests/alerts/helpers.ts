// The run fixtures live in tests/helpers/factories.ts; this re-export keeps the imports of the
// background-job tests (webhooks) working while those move.
export { runWithOutcomes } from "../helpers/factories";
