/** Domain errors carry their HTTP status; route handlers and actions map them to responses. */
export type IssueList = { path: string; message: string }[];

export class DomainError extends Error {
  readonly status: number = 500;
  readonly code: string = "internal_error";
  /** The fields at fault, `{path, message}` each; empty for an error that is not about a field. */
  readonly issues: IssueList;
  constructor(message?: string, issues: IssueList = []) {
    super(message);
    this.issues = issues;
  }
}

export class ValidationError extends DomainError {
  override readonly status = 400;
  override readonly code = "invalid_input";
  constructor(message: string, issues: IssueList = []) {
    super(message, issues);
  }
}

/** A request body over the size limit, refused before it is read in full. */
export class PayloadTooLargeError extends DomainError {
  override readonly status = 413;
  override readonly code = "payload_too_large";
  constructor(limitBytes: number) {
    super(`The request body is larger than ${formatBytes(limitBytes)}`, [{ path: "", message: `At most ${formatBytes(limitBytes)}` }]);
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}

export class UnauthorizedError extends DomainError {
  override readonly status = 401;
  override readonly code = "unauthorized";
  constructor(message = "Authentication required") {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  override readonly status = 403;
  override readonly code = "forbidden";
  constructor(message = "Your role does not allow this") {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  override readonly status = 404;
  override readonly code = "not_found";
  constructor(what = "Resource") {
    super(`${what} not found`);
  }
}

export class ConflictError extends DomainError {
  override readonly status = 409;
  override readonly code = "conflict";
  constructor(message: string, issues: IssueList = []) {
    super(message, issues);
  }
}

/** zod issues → `{path, message}` with dotted paths (`checks.0.threshold`). */
export function zodIssues(error: { issues: { path: PropertyKey[]; message: string }[] }, prefix: PropertyKey[] = []): IssueList {
  return error.issues.map((i) => ({
    path: [...prefix, ...i.path].map(String).join("."),
    message: i.message,
  }));
}

/** Prisma's known request errors that we translate, by code. */
export function prismaErrorCode(err: unknown): string | undefined {
  if (typeof err === "object" && err !== null && "code" in err && typeof (err as { code: unknown }).code === "string") {
    const code = (err as { code: string }).code;
    return /^P\d{4}$/.test(code) ? code : undefined;
  }
  return undefined;
}

export function isUniqueViolation(err: unknown): boolean {
  return prismaErrorCode(err) === "P2002";
}
