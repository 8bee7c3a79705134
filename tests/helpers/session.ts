/**
 * A fake of `@/lib/auth` for route tests: the signed-in user is whoever `session.userId` names
 * (null: signed out). A test file mocks the module with it and switches users per request:
 *   vi.mock("@/lib/auth", () => import("../helpers/session"));
 *   import { session } from "../helpers/session";
 */
export const session = { userId: null as string | null };

export const auth = async () => (session.userId ? { user: { id: session.userId } } : null);
