import { getByIdRoute, updateByIdRoute } from "@/lib/api/routes";
import { updateReviewItemInput } from "@/lib/review/schemas";
import { getReviewItem, updateReviewItem } from "@/lib/review/service";

/** One review item with its transcript: the judge's verdicts and the other labels only once the caller labelled it. */
export const GET = getByIdRoute("viewer", getReviewItem);

/** Assign the item to a member (or unassign with null). */
export const PATCH = updateByIdRoute("editor", updateReviewItemInput, updateReviewItem);
