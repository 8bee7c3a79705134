import { getByIdRoute } from "@/lib/api/routes";
import { suiteCalibration } from "@/lib/review/calibration";

/** How well the suite's judge agrees with its reviewers, per judge fingerprint and level, and its trust status. */
export const GET = getByIdRoute("viewer", suiteCalibration);
