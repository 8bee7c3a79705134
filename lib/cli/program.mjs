// @ts-check
/**
 * The `assay` command line: commands, flags and the exit codes CI reads.
 * 0 passed, 1 below a gate (--min-pass-rate on pass@1, --max-flaky, --require-trusted-judge), 2 usage or validation error,
 * 3 run failed or cancelled, server unreachable or broken. Parsing is commander's; every command talks to the
 * REST API through lib/cli/api.mjs.
 */
import { readFileSync } from "node:fs";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { AssayApi } from "./api.mjs";
import { RUN_REPORT_FORMATS, parsePercent, parseWholeNumber } from "./args.mjs";
import { CASE_EXPORT_FORMATS, IMPORT_FORMATS, exportCommand, importCommand, listCommand } from "./cases.mjs";
import { COMPARISON_REPORT_FORMATS, compareCommand } from "./compare.mjs";
import { CliError, EXIT } from "./errors.mjs";
import { matrixCommand } from "./matrix.mjs";
import { ciMetadataHelp } from "./metadata.mjs";
import { runCommand } from "./run.mjs";
import { RUN_EXPORT_FORMATS, runExportCommand } from "./runs.mjs";

// The CLI's own package.json (lib/cli is the assay-cli package): beside this file in a checkout and in an install alike.
const VERSION = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).version;

/** @param {string} value @param {string[]} previous */
const collect = (value, previous) => [...previous, value];

/**
 * A commander argument parser from one that throws UsageError, so commander prints its own
 * "option '--x' argument 'y' is invalid" line with our reason.
 * @template T
 * @param {(value: string) => T} parse
 */
const checked = (parse) => (/** @type {string} */ value) => {
  try {
    return parse(value);
  } catch (err) {
    throw new InvalidArgumentError(/** @type {Error} */ (err).message);
  }
};

/** @param {string} flag @param {number} max */
const wholeNumber = (flag, max) => checked((v) => parseWholeNumber(v, flag, 1, max));

/** @param {Command} command */
function selectionOptions(command) {
  return command
    .option("--tag <tag>", "only cases with this tag (repeatable)", collect, [])
    .addOption(new Option("--difficulty <difficulty>", "only cases of this difficulty").choices(["normal", "hard"]))
    .option("--case <id>", "only this test case id (repeatable)", collect, []);
}

/**
 * `--meta` and `--no-ci-meta`, and the --help text that says which CI variables are read.
 * @param {Command} command
 */
function metadataOptions(command) {
  return command
    .option("--meta <KEY=VALUE>", "run metadata, e.g. commit=abc123 (repeatable; wins over detected values)", collect, [])
    .option("--no-ci-meta", "do not fill commit, branch and build_url from the CI's environment")
    .addHelpText("after", `\n${ciMetadataHelp()}`);
}

/**
 * @param {(code: number) => void} done records the command's exit code
 * @param {import("./metadata.mjs").Env} env the environment CI metadata is detected in
 */
export function buildProgram(done, env) {
  const program = new Command("assay")
    .description("Run Assay test suites, comparisons and matrices from the command line or CI")
    .version(VERSION, "--version", "print the version")
    .addOption(new Option("--url <url>", "Assay base URL, e.g. http://localhost:3000").env("ASSAY_URL"))
    .addOption(new Option("--api-key <key>", "API key (Workspace settings → API keys)").env("ASSAY_API_KEY"))
    .addOption(
      new Option("--poll-interval <ms>", "how often --wait asks for progress")
        .env("ASSAY_POLL_MS")
        .default(2000)
        .argParser(wholeNumber("--poll-interval", 600_000)),
    )
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();

  /**
   * Wraps a command's action: the API client from the global flags, the exit code recorded.
   * @param {(ctx: import("./run.mjs").Context, ...args: any[]) => Promise<number>} action
   */
  const act =
    (action) =>
    async (/** @type {any[]} */ ...args) => {
      const command = /** @type {Command} */ (args[args.length - 1]);
      const globals = command.optsWithGlobals();
      const api = new AssayApi({ url: globals.url, apiKey: globals.apiKey });
      done(await action({ api, pollMs: globals.pollInterval, env }, ...args.slice(0, -1)));
    };

  metadataOptions(
    selectionOptions(
      program
        .command("run")
        .description("start a run of a suite; with --wait, wait for it, write its report and exit by its gates")
        .argument("<suite>", "suite id or name")
        .option("-V, --var <NAME=VALUE>", "run-level variable value, typed by the agent's definition (repeatable)", collect, [])
        .option("--preset <name>", "the suite preset whose variable values to start from (--var overrides)"),
    ),
  )
    .addOption(new Option("--tag-match <match>", "cases with any or all of the tags").choices(["any", "all"]))
    .option(
      "--trials <n>",
      "runs of every case (1–20; default: the preset's, else the suite's default trials)",
      wholeNumber("--trials", 20),
    )
    .option("--concurrency <n>", "cases at once (1–64)", wholeNumber("--concurrency", 64))
    .option("--wait", "wait until the run finishes")
    .addOption(new Option("--format <format>", "report format (with --wait)").choices(RUN_REPORT_FORMATS))
    .option("-o, --output <file>", "write the report to this file instead of stdout (with --wait)")
    .option("--min-pass-rate <pct>", "lowest pass@1 (mean over cases of their trials' pass rate) that exits 0", checked(parsePercent), 100)
    .addOption(
      new Option("--gate <which>", "gate --min-pass-rate on pass@1 itself or on its 95% interval's lower bound")
        .choices(["point", "lower"])
        .default("point"),
    )
    .option(
      "--max-flaky <n>",
      "most flaky cases (passed in some trials, failed in others) that exits 0",
      checked((v) => parseWholeNumber(v, "--max-flaky", 0, 100_000)),
    )
    .option("--require-trusted-judge", "exit 1 unless the suite's judge is trusted (calibrated against human review labels)")
    .option("--json", "print the run as the API returned it (number, status, metadata, …) instead of its id")
    .action(act((ctx, suite, opts) => runCommand(ctx, suite, opts)));

  metadataOptions(
    selectionOptions(
      program
        .command("compare")
        .description("start an A/B comparison of two arms on a suite (the A/B engine)")
        .argument("<suite>", "suite id or name")
        .requiredOption("--baseline <KEY=VALUE...>", "baseline arm: model, agent, temperature, max_tokens, system_prompt, label, var.NAME")
        .requiredOption("--variant <KEY=VALUE...>", "variant arm, same keys as --baseline"),
    ),
  )
    .addOption(new Option("--ordering <ordering>", "order of the two arms per case").choices(["sequential", "randomized", "concurrent"]))
    .option("--repetitions <n>", "runs of each case per arm (1–20)", wholeNumber("--repetitions", 20))
    .option("--concurrency <n>", "pairs at once (1–64)", wholeNumber("--concurrency", 64))
    .option("--name <name>", "the comparison's name")
    .option("--wait", "wait until the comparison finishes")
    .addOption(new Option("--format <format>", "report format (with --wait)").choices(COMPARISON_REPORT_FORMATS))
    .option("-o, --output <file>", "write the report to this file instead of stdout (with --wait)")
    .action(act((ctx, suite, opts) => compareCommand(ctx, suite, opts)));

  metadataOptions(
    selectionOptions(
      program
        .command("matrix")
        .description("run a suite once per combination of variable values")
        .argument("<suite>", "suite id or name")
        .requiredOption("--axis <NAME=v1,v2>", "a variable and its values (repeatable; at most 32 combinations)", collect, []),
    ),
  )
    .option("--repetitions <n>", "runs of each case per combination (1–20)", wholeNumber("--repetitions", 20))
    .option("--concurrency <n>", "cases at once per combination (1–64)", wholeNumber("--concurrency", 64))
    .option("--wait", "wait until every combination finished and print the table")
    .addOption(new Option("--format <format>", "json: the matrix document instead of the table (with --wait)").choices(["json"]))
    .option("-o, --output <file>", "write the matrix document to this file (with --wait)")
    .action(act((ctx, suite, opts) => matrixCommand(ctx, suite, opts)));

  program
    .command("list")
    .description("list a suite's test cases, or the variables each case exposes")
    .argument("<suite>", "suite id or name")
    .option("--show-variables", "the variables each case exposes: type, default and its source, lock, allowed values")
    .option("--json", "print JSON instead of a table")
    .action(act((ctx, suite, opts) => listCommand(ctx, suite, opts)));

  const cases = program.command("cases").description("export or import a suite's test cases, in Assay's format or another tool's");
  cases
    .command("export")
    .description(
      "download the suite's cases: Assay's YAML, JSON or zip (with the uploaded files), or a promptfoo, DeepEval or Langfuse file",
    )
    .argument("<suite>", "suite id or name")
    .addOption(new Option("--format <format>", "file format").choices(CASE_EXPORT_FORMATS).default("yaml"))
    .option("-o, --output <file>", "write to this file instead of stdout")
    .action(act((ctx, suite, opts) => exportCommand(ctx, suite, opts)));
  cases
    .command("import")
    .description(
      "add the cases of a file to the suite: Assay's YAML, JSON or zip, or another tool's file, converted by the server " +
        "(prints per item what was mapped and what was not carried over; all or nothing unless --valid-only)",
    )
    .argument("<suite>", "suite id or name")
    .argument("<file>", "a .yaml/.yml, .json, .jsonl or .zip file (a promptfoo config zipped with the files it references)")
    .addOption(
      new Option("--format <format>", "the file's format: assay (Assay's own) or the tool that wrote it")
        .choices(IMPORT_FORMATS)
        .default("assay"),
    )
    .option("--dry-run", "report what each item would become and write nothing (exits 2 when the import would be refused)")
    .option("--valid-only", "import the valid cases and report the others")
    .option("--json", "print the server's report as JSON (with --dry-run also the cases as they would be created)")
    .action(act((ctx, suite, file, opts) => importCommand(ctx, suite, file, opts)));

  const runs = program.command("runs").description("export a run's transcripts in another tool's format");
  runs
    .command("export")
    .description(
      "download a run's transcripts: openai-jsonl is one {messages, tools} line per finished case (OpenAI fine-tuning and evals)",
    )
    .argument("<run-id>", "the run's id, as `assay run` prints it")
    .addOption(new Option("--format <format>", "file format").choices(RUN_EXPORT_FORMATS).makeOptionMandatory())
    .option("-o, --output <file>", "write to this file instead of stdout")
    .action(act((ctx, run, opts) => runExportCommand(ctx, run, opts)));

  return program;
}

/**
 * Parses `argv` (process.argv shape) and runs the command.
 * @param {string[]} argv
 * @param {import("./metadata.mjs").Env} env the process environment (commander reads ASSAY_URL and friends from it too)
 * @returns {Promise<number>} the exit code
 */
export async function main(argv, env) {
  let code = EXIT.passed;
  const program = buildProgram((c) => {
    code = c;
  }, env);
  try {
    await program.parseAsync(argv);
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version exit 0; every parse error (commander printed it already) is a usage error.
      return err.exitCode === 0 ? EXIT.passed : EXIT.usage;
    }
    if (err instanceof CliError) {
      process.stderr.write(`error: ${err.message}\n`);
      for (const issue of err.issues) process.stderr.write(`  ${issue.path || "(body)"}: ${issue.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.failed;
  }
}
