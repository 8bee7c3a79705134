import { z } from "zod";
import { jsonSchema, outputComponents, featurePart, type OpenApiPart } from "@/lib/api/openapi-kit";
import { errorResponse, errors, idParam, ok, ref, tooLarge } from "@/lib/api/openapi-paths";
import { shareLinkInput } from "./schemas";

/** The REST contract of read-only share links: the link resource and the paths under runs and comparisons. */

const iso = z.iso.datetime();

export const shareLinkResource = z
  .object({
    id: z.uuid(),
    kind: z.enum(["run", "comparison"]),
    target_id: z.uuid().describe("The shared run's or comparison's id"),
    status: z.enum(["active", "expired", "revoked"]).describe("active: the link opens the page (while the workspace allows sharing)"),
    expires_at: iso,
    revoked_at: iso.nullable(),
    created_at: iso,
    last_viewed_at: iso.nullable().describe("When the shared page was last opened (noted at most once a minute)"),
  })
  .describe("A read-only link to a run report or a comparison; its token is never listed");

export const createdShareLink = shareLinkResource
  .extend({
    token: z.string().describe("The link's secret: shown in this answer only (only its hash is stored)"),
    path: z.string().describe("The shared page's path on this server: /share/<token>"),
  })
  .describe("A new share link, with its token");

const sharingOff = { "403": errorResponse("The key's role does not allow this, or sharing is turned off for the workspace") };

function targetPaths(kind: "run" | "comparison") {
  const Kind = kind === "run" ? "Run" : "Comparison";
  const what =
    kind === "run" ? "run's report (summary, pass rate, cases with verdicts, transcripts)" : "comparison (verdict, metrics, pairs)";
  return {
    parameters: [idParam],
    post: {
      operationId: `create${Kind}ShareLink`,
      tags: ["Share links"],
      summary: `Share the ${kind} read-only`,
      description: `Role: editor. A link to the ${what} that opens without an account, until it expires or is revoked. 403 when sharing is turned off for the workspace (an admin turns it on in the workspace settings).`,
      // Optional: no body at all means the default expiry.
      requestBody: { required: false, content: { "application/json": { schema: jsonSchema(shareLinkInput) } } },
      responses: { "201": ok("The new link, with its token", ref("CreatedShareLink")), ...errors, ...sharingOff, ...tooLarge() },
    },
    get: {
      operationId: `list${Kind}ShareLinks`,
      tags: ["Share links"],
      summary: `List the ${kind}'s share links`,
      description: "Role: viewer. Newest first (at most 100), without their tokens.",
      responses: {
        "200": ok("The links", { type: "object", required: ["data"], properties: { data: { type: "array", items: ref("ShareLink") } } }),
        ...errors,
      },
    },
  };
}

function paths() {
  return {
    "/api/v1/runs/{id}/share-links": targetPaths("run"),
    "/api/v1/comparisons/{id}/share-links": targetPaths("comparison"),
    "/api/v1/share-links/{id}": {
      parameters: [idParam],
      delete: {
        operationId: "revokeShareLink",
        tags: ["Share links"],
        summary: "Revoke a share link",
        description: "Role: editor. The link stops working at once; revoking it again changes nothing.",
        responses: { "200": ok("The revoked link", ref("ShareLink")), ...errors },
      },
    },
  };
}

export function shareLinksOpenApi(): OpenApiPart {
  return featurePart(
    "Share links",
    "Read-only links to a run report or a comparison for people without an account, at /share/<token>: expiring (1–90 days), revocable, " +
      "and only while the workspace allows sharing (off by default). List: viewer; create and revoke: editor.",
    {
      paths: paths(),
      schemas: outputComponents({ ShareLink: shareLinkResource, CreatedShareLink: createdShareLink }),
    },
  );
}
