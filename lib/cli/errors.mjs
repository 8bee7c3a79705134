// @ts-check
/**
 * The CLI's errors carry the process exit code they end with (README "Use from CI"):
 * 2 for a usage or validation problem the caller can fix, 3 when the server is unreachable,
 * broken (5xx) or the run itself failed or was cancelled.
 */

export const EXIT = Object.freeze({ passed: 0, belowThreshold: 1, usage: 2, failed: 3 });

export class CliError extends Error {
  /**
   * @param {string} message
   * @param {number} exitCode
   * @param {{path: string, message: string}[]} [issues] field messages to print under the message
   */
  constructor(message, exitCode, issues = []) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
    this.issues = issues;
  }
}

/** A wrong flag, argument or value (exit 2). */
export class UsageError extends CliError {
  /** @param {string} message @param {{path: string, message: string}[]} [issues] */
  constructor(message, issues = []) {
    super(message, EXIT.usage, issues);
    this.name = "UsageError";
  }
}

/**
 * The API answered with an error. 4xx answers are the caller's to fix (exit 2: validation,
 * unknown suite, bad key or role); 5xx answers mean the server is broken (exit 3).
 */
export class ApiError extends CliError {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {{path: string, message: string}[]} [issues]
   */
  constructor(status, code, message, issues = []) {
    super(message, status >= 500 ? EXIT.failed : EXIT.usage, issues);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

/** The server could not be reached at all (exit 3). */
export class UnreachableError extends CliError {
  /** @param {string} message */
  constructor(message) {
    super(message, EXIT.failed);
    this.name = "UnreachableError";
  }
}
