import { Suspense, type ReactNode } from "react";
import { pageContext } from "@/lib/auth/context";
import type { WorkspaceContext } from "@/lib/auth/roles";

type Props = {
  workspaceId: string;
  /** Reads the count for the member (a scoped loader). */
  load: (ctx: WorkspaceContext) => Promise<{ open: number }>;
  /** The item itself: with `null` while the count streams in, then with the count. */
  render: (open: number | null) => ReactNode;
};

async function Counted({ workspaceId, load, render }: Props) {
  // The request's member context is cached (pageContext): every counted item shares it.
  const { open } = await load(await pageContext(workspaceId));
  return render(open);
}

/**
 * A shell item with a count that streams in (the alert bell, the Review link): the shell never
 * waits for the count, and a write that revalidates the layout updates it on the next render.
 */
export function StreamedCount(props: Props) {
  return (
    <Suspense fallback={props.render(null)}>
      <Counted {...props} />
    </Suspense>
  );
}

/** "7", or "99+" past 99: the small number a shell item shows. */
export const countText = (open: number) => (open > 99 ? "99+" : String(open));
