// @ts-check
/**
 * Run metadata from the command line: `--meta KEY=VALUE` pairs, and commit, branch and build URL
 * read from the CI's environment. Runs, comparisons and matrices send it as `metadata`, and the
 * run list, run page, trend and alerts show where a run came from.
 *
 * Explicit beats detected: a `--meta` key replaces the detected value (an empty value leaves the
 * key out). Explicit pairs the server would refuse are usage errors here, before any request;
 * detected values never stop a run: they are cut to the server's limits, and dropped when the
 * explicit keys leave no room. Detection reads only the env object it is given.
 */
import { parseAssignment } from "./args.mjs";
import { UsageError } from "./errors.mjs";

// The server's limits (runMetadataInput in lib/runs/schemas.ts; the CLI runs without the app's
// modules, so they are repeated here and tests/cli/metadata.test.ts checks that they agree).
export const METADATA_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
export const MAX_METADATA_KEYS = 20;
export const MAX_METADATA_VALUE = 2000;

/**
 * @typedef {Record<string, string | undefined>} Env
 * @typedef {{commit?: string, branch?: string, build_url?: string}} CiValues
 * @typedef {{
 *   name: string,
 *   marker: string,
 *   sources: {commit: string, branch: string, build_url: string},
 *   read: (env: Env) => CiValues,
 * }} CiProvider
 */

/**
 * A variable's value, or undefined when it is unset or blank (CIs export empty variables, such
 * as GITHUB_HEAD_REF outside pull requests).
 * @param {string | undefined} value
 */
const present = (value) => {
  const trimmed = (value ?? "").trim();
  return trimmed === "" ? undefined : trimmed;
};

/** @param {string | undefined} ref `refs/heads/feature/x` or `feature/x` → `feature/x`; a tag or other ref → undefined */
const branchOfRef = (ref) => {
  if (!ref) return undefined;
  if (ref.startsWith("refs/heads/")) return present(ref.slice("refs/heads/".length));
  return ref.startsWith("refs/") ? undefined : ref;
};

/**
 * The values of a CI that names commit, branch and build URL in one variable each; in a tag
 * build (its tag variable set) the branch variable names the tag, which is no branch.
 * @param {{commit: string, tag: string, branch: string, build_url: string}} names
 * @returns {(env: Env) => CiValues}
 */
const readVariables = (names) => (env) => ({
  commit: present(env[names.commit]),
  branch: present(env[names.tag]) ? undefined : present(env[names.branch]),
  build_url: present(env[names.build_url]),
});

/**
 * The CIs whose environment is read, in the order they are tried. Each is recognised by its
 * marker variable first, so a variable with a generic name (Jenkins' GIT_COMMIT) is only read
 * inside that CI. `sources` says in --help where each value comes from.
 * @type {CiProvider[]}
 */
export const CI_PROVIDERS = [
  {
    name: "GitHub Actions",
    marker: "GITHUB_ACTIONS",
    sources: {
      commit: "GITHUB_SHA",
      branch: "GITHUB_HEAD_REF (pull requests), else GITHUB_REF_NAME",
      build_url: "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID",
    },
    read: (env) => {
      const server = present(env.GITHUB_SERVER_URL);
      const repository = present(env.GITHUB_REPOSITORY);
      const runId = present(env.GITHUB_RUN_ID);
      // GITHUB_HEAD_REF is the pull request's branch; GITHUB_REF_NAME is then "12/merge". On a tag
      // push GITHUB_REF_NAME is the tag, which is no branch.
      const refName = env.GITHUB_REF_TYPE === "tag" ? undefined : present(env.GITHUB_REF_NAME);
      return {
        commit: present(env.GITHUB_SHA),
        branch: present(env.GITHUB_HEAD_REF) ?? refName,
        build_url: server && repository && runId ? `${server.replace(/\/+$/, "")}/${repository}/actions/runs/${runId}` : undefined,
      };
    },
  },
  {
    name: "GitLab CI",
    marker: "GITLAB_CI",
    sources: { commit: "CI_COMMIT_SHA", branch: "CI_COMMIT_REF_NAME", build_url: "CI_JOB_URL, else CI_PIPELINE_URL" },
    read: (env) => ({
      commit: present(env.CI_COMMIT_SHA),
      // CI_COMMIT_REF_NAME is the tag's name in a tag pipeline.
      branch: present(env.CI_COMMIT_TAG) ? undefined : present(env.CI_COMMIT_REF_NAME),
      build_url: present(env.CI_JOB_URL) ?? present(env.CI_PIPELINE_URL),
    }),
  },
  {
    name: "CircleCI",
    marker: "CIRCLECI",
    sources: { commit: "CIRCLE_SHA1", branch: "CIRCLE_BRANCH", build_url: "CIRCLE_BUILD_URL" },
    read: readVariables({ commit: "CIRCLE_SHA1", tag: "CIRCLE_TAG", branch: "CIRCLE_BRANCH", build_url: "CIRCLE_BUILD_URL" }),
  },
  {
    name: "Buildkite",
    marker: "BUILDKITE",
    sources: { commit: "BUILDKITE_COMMIT", branch: "BUILDKITE_BRANCH", build_url: "BUILDKITE_BUILD_URL" },
    // A tag build names the tag in BUILDKITE_BRANCH as well.
    read: readVariables({ commit: "BUILDKITE_COMMIT", tag: "BUILDKITE_TAG", branch: "BUILDKITE_BRANCH", build_url: "BUILDKITE_BUILD_URL" }),
  },
  {
    name: "Azure Pipelines",
    marker: "TF_BUILD",
    sources: {
      commit: "BUILD_SOURCEVERSION",
      branch: "SYSTEM_PULLREQUEST_SOURCEBRANCH, else BUILD_SOURCEBRANCH, else BUILD_SOURCEBRANCHNAME",
      build_url: "$SYSTEM_COLLECTIONURI$SYSTEM_TEAMPROJECT/_build/results?buildId=$BUILD_BUILDID",
    },
    read: (env) => {
      const collection = present(env.SYSTEM_COLLECTIONURI);
      const project = present(env.SYSTEM_TEAMPROJECT);
      const buildId = present(env.BUILD_BUILDID);
      // BUILD_SOURCEBRANCHNAME is only the ref's last segment ("x" for feature/x): the full
      // branch comes from the ref, the pull request's source branch in a PR build.
      const sourceBranch = present(env.BUILD_SOURCEBRANCH);
      const branch =
        branchOfRef(present(env.SYSTEM_PULLREQUEST_SOURCEBRANCH)) ??
        (sourceBranch ? branchOfRef(sourceBranch) : present(env.BUILD_SOURCEBRANCHNAME));
      return {
        commit: present(env.BUILD_SOURCEVERSION),
        branch,
        build_url:
          collection && project && buildId
            ? `${collection.replace(/\/*$/, "/")}${encodeURIComponent(project)}/_build/results?buildId=${encodeURIComponent(buildId)}`
            : undefined,
      };
    },
  },
  {
    name: "Jenkins",
    marker: "JENKINS_URL",
    sources: { commit: "GIT_COMMIT", branch: "CHANGE_BRANCH, else GIT_BRANCH, else BRANCH_NAME", build_url: "BUILD_URL" },
    read: (env) => ({
      commit: present(env.GIT_COMMIT),
      // A multibranch pull request build names its source branch in CHANGE_BRANCH (BRANCH_NAME is
      // "PR-12"); the Git plugin's GIT_BRANCH is the remote-tracking name ("origin/main"). A tag
      // build (TAG_NAME) names the tag in both.
      branch: present(env.TAG_NAME)
        ? undefined
        : (present(env.CHANGE_BRANCH) ?? present(env.GIT_BRANCH?.replace(/^origin\//, "")) ?? present(env.BRANCH_NAME)),
      build_url: present(env.BUILD_URL),
    }),
  },
];

/**
 * Cuts a value to the server's limit (never inside a surrogate pair).
 * @param {string} value
 */
export function cutValue(value) {
  if (value.length <= MAX_METADATA_VALUE) return value;
  const cut = value.slice(0, MAX_METADATA_VALUE);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * Commit, branch and build URL from the first CI whose marker variable is set; nothing outside
 * a known CI. Pure: reads only `env`.
 * @param {Env} env
 * @returns {{ci: string | null, metadata: Record<string, string>}}
 */
export function detectCiMetadata(env) {
  const provider = CI_PROVIDERS.find((p) => {
    const marker = present(env[p.marker]);
    return marker !== undefined && marker.toLowerCase() !== "false";
  });
  if (!provider) return { ci: null, metadata: {} };
  /** @type {Record<string, string>} */
  const metadata = {};
  for (const [key, value] of Object.entries(provider.read(env))) if (value !== undefined) metadata[key] = cutValue(value);
  return { ci: provider.name, metadata };
}

/**
 * `--meta KEY=VALUE` pairs in order; a later pair of the same key wins, an empty value asks to
 * leave the key out. Keys and values are checked against the server's limits.
 * @param {string[]} pairs
 * @returns {Map<string, string>}
 */
export function parseMetaPairs(pairs) {
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const pair of pairs) {
    const [key, value] = parseAssignment(pair, "--meta");
    if (!METADATA_KEY.test(key))
      throw new UsageError(`--meta: "${key}" is not a metadata key (1–64 letters, digits, dots, dashes or underscores)`);
    if (value.length > MAX_METADATA_VALUE)
      throw new UsageError(`--meta ${key}: the value has ${value.length} characters; at most ${MAX_METADATA_VALUE}`);
    out.delete(key); // a repeated key counts once, in its latest place
    out.set(key, value);
  }
  const sent = [...out].filter(([, v]) => v !== "");
  if (sent.length > MAX_METADATA_KEYS) {
    const [extra] = /** @type {[string, string]} */ (sent[MAX_METADATA_KEYS]);
    throw new UsageError(`--meta ${extra}: at most ${MAX_METADATA_KEYS} metadata keys, got ${sent.length}`);
  }
  return out;
}

/** The keys CI detection fills, in the order the metadata line shows them. */
export const CI_KEYS = ["commit", "branch", "build_url"];

/**
 * The metadata to send: detected values (unless `env` is null: --no-ci-meta) under the explicit
 * pairs; commit, branch and build_url first, then the other pairs in the order given.
 * @param {string[]} pairs
 * @param {Env | null} env
 * @returns {{metadata: Record<string, string>, ci: string | null}}
 */
export function runMetadata(pairs, env) {
  const explicit = parseMetaPairs(pairs);
  const detected = env ? detectCiMetadata(env) : { ci: null, metadata: {} };
  const explicitCount = [...explicit.values()].filter((v) => v !== "").length;
  const fill = Object.entries(detected.metadata)
    .filter(([key]) => !explicit.has(key))
    .slice(0, MAX_METADATA_KEYS - explicitCount);
  /** @type {Record<string, string>} */
  const merged = Object.fromEntries([...fill, ...[...explicit].filter(([, v]) => v !== "")]);
  /** @type {Record<string, string>} */
  const metadata = {};
  for (const key of [...CI_KEYS, ...Object.keys(merged)]) if (key in merged && !(key in metadata)) metadata[key] = merged[key] ?? "";
  return { metadata, ci: fill.length > 0 ? detected.ci : null };
}

/**
 * The request body's `metadata` field for a command's `--meta` / `--no-ci-meta` options: absent
 * when there is none, so a run outside CI sends the same body as before.
 * @param {{meta: string[], ciMeta: boolean}} opts
 * @param {Env} env
 */
export function commandMetadata(opts, env) {
  const { metadata, ci } = runMetadata(opts.meta, opts.ciMeta ? env : null);
  const body = Object.keys(metadata).length > 0 ? { metadata } : {};
  return { body, line: describeMetadata(metadata, ci) };
}

/**
 * One line for the log: `Metadata: commit=abc branch=main (detected: GitHub Actions)`; values
 * with spaces, quotes or line breaks are quoted, so the line stays one line. Null when empty.
 * @param {Record<string, string>} metadata
 * @param {string | null} ci
 */
export function describeMetadata(metadata, ci) {
  const entries = Object.entries(metadata);
  if (entries.length === 0) return null;
  const shown = entries.map(([k, v]) => `${k}=${/^[^\s"'\\]+$/.test(v) ? v : JSON.stringify(v)}`);
  return `Metadata: ${shown.join(" ")}${ci ? ` (detected: ${ci})` : ""}`;
}

/** What --help says about --meta and what is detected in which CI. */
export function ciMetadataHelp() {
  return [
    `Run metadata: --meta KEY=VALUE (repeatable; keys of letters, digits, ".", "_", "-"; at most ${MAX_METADATA_KEYS}).`,
    "In these CIs, recognised by the variable in brackets, commit, branch and build_url are filled",
    "from the environment unless --meta gives them (--meta KEY= leaves one out; --no-ci-meta: none).",
    `Detected values are cut to the server's limit of ${MAX_METADATA_VALUE} characters; a tag build has no branch.`,
    ...CI_PROVIDERS.flatMap((p) => [
      `  ${p.name} (${p.marker})`,
      ...Object.entries(p.sources).map(([key, from]) => `    ${key.padEnd(9)}  ${from}`),
    ]),
  ].join("\n");
}
