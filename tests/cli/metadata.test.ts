import { describe, expect, it } from "vitest";
import {
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE,
  commandMetadata,
  describeMetadata,
  detectCiMetadata,
  parseMetaPairs,
  runMetadata,
  type Env,
} from "@/lib/cli/metadata.mjs";
import { MAX_RUN_METADATA_KEYS, MAX_RUN_METADATA_VALUE, runMetadataInput } from "@/lib/runs/schemas";
import { usage } from "./usage";

/** Run metadata in the CLI: detection per CI from a fake environment, `--meta` pairs, and how the two combine. */

const SHA = "0123456789abcdef0123456789abcdef01234567";

type Detection = { name: string; env: Env; metadata: Record<string, string> };

/** One CI's cases: every environment carries the CI's marker and commit, and the CI is detected by name. */
const on = (ci: string, marker: Env, cases: Detection[]) => cases.map((c) => ({ ...c, env: { ...marker, ...c.env }, ci }));

const detections: (Detection & { ci: string | null })[] = [
  ...on("GitHub Actions", { GITHUB_ACTIONS: "true", GITHUB_SHA: SHA }, [
    {
      name: "GitHub Actions, a push (GITHUB_HEAD_REF is set but empty)",
      env: {
        GITHUB_REF_NAME: "main",
        GITHUB_REF_TYPE: "branch",
        GITHUB_HEAD_REF: "",
        GITHUB_SERVER_URL: "https://github.com",
        GITHUB_REPOSITORY: "acme/agents",
        GITHUB_RUN_ID: "987654",
      },
      metadata: { commit: SHA, branch: "main", build_url: "https://github.com/acme/agents/actions/runs/987654" },
    },
    {
      name: "GitHub Actions, a pull request: the head branch, not 12/merge",
      env: {
        GITHUB_REF_NAME: "12/merge",
        GITHUB_HEAD_REF: "feature/refunds",
        GITHUB_SERVER_URL: "https://github.example.com/",
        GITHUB_REPOSITORY: "acme/agents",
        GITHUB_RUN_ID: "5",
      },
      metadata: { commit: SHA, branch: "feature/refunds", build_url: "https://github.example.com/acme/agents/actions/runs/5" },
    },
    {
      name: "GitHub Actions, a tag push: no branch; no build URL without the run id",
      env: { GITHUB_REF_NAME: "v1.2.0", GITHUB_REF_TYPE: "tag", GITHUB_REPOSITORY: "acme/agents" },
      metadata: { commit: SHA },
    },
  ]),
  ...on("GitLab CI", { GITLAB_CI: "true", CI_COMMIT_SHA: SHA }, [
    {
      name: "GitLab, a job: the job's URL wins over the pipeline's",
      env: {
        CI_COMMIT_REF_NAME: "feature/x",
        CI_JOB_URL: "https://gitlab.example.com/acme/agents/-/jobs/42",
        CI_PIPELINE_URL: "https://gitlab.example.com/acme/agents/-/pipelines/7",
      },
      metadata: { commit: SHA, branch: "feature/x", build_url: "https://gitlab.example.com/acme/agents/-/jobs/42" },
    },
    {
      name: "GitLab, a tag pipeline without a job URL",
      env: { CI_COMMIT_REF_NAME: "v2", CI_COMMIT_TAG: "v2", CI_PIPELINE_URL: "https://gitlab.example.com/acme/agents/-/pipelines/7" },
      metadata: { commit: SHA, build_url: "https://gitlab.example.com/acme/agents/-/pipelines/7" },
    },
  ]),
  ...on("CircleCI", { CIRCLECI: "true", CIRCLE_SHA1: SHA }, [
    {
      name: "CircleCI",
      env: { CIRCLE_BRANCH: "main", CIRCLE_BUILD_URL: "https://circleci.com/gh/acme/agents/77" },
      metadata: { commit: SHA, branch: "main", build_url: "https://circleci.com/gh/acme/agents/77" },
    },
    { name: "CircleCI, a tag build", env: { CIRCLE_BRANCH: "v1", CIRCLE_TAG: "v1" }, metadata: { commit: SHA } },
    {
      name: "a CI that exports nothing useful: blank values are left out",
      env: { CIRCLE_SHA1: "  ", CIRCLE_BRANCH: "" },
      metadata: {},
    },
  ]),
  ...on("Buildkite", { BUILDKITE: "true", BUILDKITE_COMMIT: SHA }, [
    {
      name: "Buildkite",
      env: { BUILDKITE_BRANCH: "release/3", BUILDKITE_BUILD_URL: "https://buildkite.com/acme/agents/builds/9" },
      metadata: { commit: SHA, branch: "release/3", build_url: "https://buildkite.com/acme/agents/builds/9" },
    },
    { name: "Buildkite, a tag build", env: { BUILDKITE_BRANCH: "v3", BUILDKITE_TAG: "v3" }, metadata: { commit: SHA } },
  ]),
  ...on("Azure Pipelines", { TF_BUILD: "True", BUILD_SOURCEVERSION: SHA }, [
    {
      name: "Azure Pipelines: the whole branch from the ref, the project URL-encoded",
      env: {
        BUILD_SOURCEBRANCH: "refs/heads/feature/tools",
        BUILD_SOURCEBRANCHNAME: "tools",
        SYSTEM_COLLECTIONURI: "https://dev.azure.com/acme/",
        SYSTEM_TEAMPROJECT: "Fabrikam Fiber",
        BUILD_BUILDID: "311",
      },
      metadata: {
        commit: SHA,
        branch: "feature/tools",
        build_url: "https://dev.azure.com/acme/Fabrikam%20Fiber/_build/results?buildId=311",
      },
    },
    {
      name: "Azure Pipelines, a pull request: its source branch",
      env: {
        BUILD_SOURCEBRANCH: "refs/pull/12/merge",
        BUILD_SOURCEBRANCHNAME: "merge",
        SYSTEM_PULLREQUEST_SOURCEBRANCH: "refs/heads/feature/pr",
        SYSTEM_COLLECTIONURI: "https://acme.visualstudio.com",
        SYSTEM_TEAMPROJECT: "agents",
        BUILD_BUILDID: "12",
      },
      metadata: { commit: SHA, branch: "feature/pr", build_url: "https://acme.visualstudio.com/agents/_build/results?buildId=12" },
    },
    {
      name: "Azure Pipelines with only BUILD_SOURCEBRANCHNAME",
      env: { BUILD_SOURCEBRANCHNAME: "main" },
      metadata: { commit: SHA, branch: "main" },
    },
    {
      name: "Azure Pipelines, a tag build: no branch, not the tag's name",
      env: { BUILD_SOURCEBRANCH: "refs/tags/v1", BUILD_SOURCEBRANCHNAME: "v1" },
      metadata: { commit: SHA },
    },
  ]),
  ...on("Jenkins", { JENKINS_URL: "https://jenkins.example.com/", GIT_COMMIT: SHA }, [
    {
      name: "Jenkins freestyle: GIT_BRANCH without its remote",
      env: { GIT_BRANCH: "origin/main", BUILD_URL: "https://jenkins.example.com/job/agents/15/" },
      metadata: { commit: SHA, branch: "main", build_url: "https://jenkins.example.com/job/agents/15/" },
    },
    {
      name: "Jenkins multibranch pull request: CHANGE_BRANCH, not PR-12",
      env: { GIT_BRANCH: "PR-12", BRANCH_NAME: "PR-12", CHANGE_BRANCH: "fix/x" },
      metadata: { commit: SHA, branch: "fix/x" },
    },
    { name: "Jenkins tag build", env: { BRANCH_NAME: "v1", TAG_NAME: "v1" }, metadata: { commit: SHA } },
  ]),
  {
    name: "outside CI: CI-looking variables without their CI's marker are not read",
    env: { GITHUB_SHA: SHA, GIT_COMMIT: SHA, GIT_BRANCH: "main", BUILD_URL: "https://example.com/1", CI: "true" },
    ci: null,
    metadata: {},
  },
  {
    name: "a marker set to false is no CI",
    env: { GITHUB_ACTIONS: "false", GITHUB_SHA: SHA },
    ci: null,
    metadata: {},
  },
];

describe("detectCiMetadata", () => {
  it.each(detections)("$name", ({ env, ci, metadata }) => {
    expect(detectCiMetadata(env)).toEqual({ ci, metadata });
  });

  it("cuts detected values to the server's limit (never inside a surrogate pair) instead of refusing them", () => {
    const long = detectCiMetadata({ CIRCLECI: "true", CIRCLE_BRANCH: "b".repeat(5000) });
    expect(long.metadata.branch).toBe("b".repeat(MAX_METADATA_VALUE));
    const emoji = detectCiMetadata({ CIRCLECI: "true", CIRCLE_BRANCH: `${"b".repeat(MAX_METADATA_VALUE - 1)}😀x` });
    expect(emoji.metadata.branch).toBe("b".repeat(MAX_METADATA_VALUE - 1));
    expect(runMetadataInput.safeParse(long.metadata).success).toBe(true);
  });
});

describe("--meta and detected values together", () => {
  const github: Env = { GITHUB_ACTIONS: "true", GITHUB_SHA: SHA, GITHUB_REF_NAME: "main" };

  it("explicit pairs win over detected ones; an empty value leaves the key out; a later pair wins", () => {
    expect(runMetadata(["branch=release/1", "ticket=QA-7", "commit=", "ticket=QA-8"], github)).toEqual({
      metadata: { branch: "release/1", ticket: "QA-8" },
      ci: null,
    });
    expect(runMetadata(["ticket=QA-7"], github)).toEqual({
      metadata: { commit: SHA, branch: "main", ticket: "QA-7" },
      ci: "GitHub Actions",
    });
    // commit, branch and build_url lead, wherever they came from; then the rest as given.
    expect(Object.keys(runMetadata(["ticket=QA-7", "branch=release/1", "build_url=https://ci/1"], github).metadata)).toEqual([
      "commit",
      "branch",
      "build_url",
      "ticket",
    ]);
    // Values are kept as given, `=` included.
    expect(runMetadata(["note=a=b c"], null).metadata).toEqual({ note: "a=b c" });
  });

  it("--no-ci-meta (no environment) sends only the explicit pairs, and nothing at all without them", () => {
    expect(runMetadata(["ticket=QA-7"], null)).toEqual({ metadata: { ticket: "QA-7" }, ci: null });
    expect(commandMetadata({ meta: [], ciMeta: false }, github)).toEqual({ body: {}, line: null });
    expect(commandMetadata({ meta: [], ciMeta: true }, {})).toEqual({ body: {}, line: null });
    expect(commandMetadata({ meta: ["x=1"], ciMeta: true }, github)).toEqual({
      body: { metadata: { commit: SHA, branch: "main", x: "1" } },
      line: `Metadata: commit=${SHA} branch=main x=1 (detected: GitHub Actions)`,
    });
  });

  it("detected values give way when the explicit keys fill the limit", () => {
    const nineteen = Array.from({ length: 19 }, (_, i) => `k${i}=v`);
    const some = runMetadata(nineteen, github);
    expect(Object.keys(some.metadata)).toHaveLength(MAX_METADATA_KEYS);
    expect(some.metadata.commit).toBe(SHA);
    expect(some.metadata.branch).toBeUndefined();
    const full = runMetadata([...nineteen, "k19=v"], github);
    expect(Object.keys(full.metadata)).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`));
    expect(full.ci).toBeNull();
    expect(runMetadataInput.safeParse(full.metadata).success).toBe(true);
  });

  it("refuses a pair without =, a bad key, an over-long value and too many keys, naming the item", () => {
    expect(usage(() => parseMetaPairs(["commit"]))).toBe('--meta expects NAME=VALUE, got "commit"');
    expect(usage(() => parseMetaPairs(["=abc"]))).toContain("--meta expects NAME=VALUE");
    expect(usage(() => parseMetaPairs(["build url=x"]))).toBe(
      '--meta: "build url" is not a metadata key (1–64 letters, digits, dots, dashes or underscores)',
    );
    expect(usage(() => parseMetaPairs(["zweig/ä=x"]))).toContain('"zweig/ä" is not a metadata key');
    expect(usage(() => parseMetaPairs([`${"k".repeat(65)}=x`]))).toContain("is not a metadata key");
    expect(usage(() => parseMetaPairs([`note=${"x".repeat(MAX_METADATA_VALUE + 1)}`]))).toBe(
      `--meta note: the value has ${MAX_METADATA_VALUE + 1} characters; at most ${MAX_METADATA_VALUE}`,
    );
    const many = Array.from({ length: 21 }, (_, i) => `k${i}=v`);
    expect(usage(() => parseMetaPairs(many))).toBe("--meta k20: at most 20 metadata keys, got 21");
    // A repeated key counts once, and a key left out (empty value) does not count.
    expect(parseMetaPairs([...many.slice(0, 20), "k0=w", "k20="]).size).toBe(21);
  });

  it("agrees with the server's schema: what the CLI accepts the server accepts, and the limits are the same", () => {
    expect(MAX_METADATA_KEYS).toBe(MAX_RUN_METADATA_KEYS);
    expect(MAX_METADATA_VALUE).toBe(MAX_RUN_METADATA_VALUE);
    const widest = runMetadata(
      Array.from({ length: 20 }, (_, i) => `${String(i).padEnd(64, "k_.-")}=${"v".repeat(MAX_METADATA_VALUE)}`),
      null,
    ).metadata;
    expect(runMetadataInput.safeParse(widest).success).toBe(true);
    for (const key of ["build url", "k".repeat(65), "zweig/ä", ""]) {
      expect(runMetadataInput.safeParse({ [key]: "x" }).success).toBe(false);
    }
  });
});

describe("the metadata line", () => {
  it("prints every pair on one line, quoting values with spaces, quotes or line breaks", () => {
    expect(describeMetadata({ commit: "abc", note: "two words", multi: "a\nb", empty: "" }, "GitLab CI")).toBe(
      'Metadata: commit=abc note="two words" multi="a\\nb" empty="" (detected: GitLab CI)',
    );
    expect(describeMetadata({}, null)).toBeNull();
  });
});
