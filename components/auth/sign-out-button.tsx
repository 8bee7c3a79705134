import { signOutAction } from "@/lib/auth/actions";
import { Button } from "@/components/ui/button";

/**
 * The full-width "Sign out" of an auth card, for a signed-in user who cannot go on here
 * (invited under another address, or not allowed to create a workspace).
 */
export function SignOutButton() {
  return (
    <form action={signOutAction} className="mt-4">
      <Button type="submit" variant="secondary" className="w-full">
        Sign out
      </Button>
    </form>
  );
}
