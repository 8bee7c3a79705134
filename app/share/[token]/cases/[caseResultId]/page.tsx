import { connection } from "next/server";
import { loadSharedCase } from "@/lib/share-links/loaders";
import { SharedFrame, SharedLinkGone } from "@/components/share/shared-frame";
import { SharedCaseView } from "@/components/share/shared-case";

export const metadata = { title: "Shared case" };

/** One case of a shared run, with its transcript; only a case of the run the link shares. */
export default async function SharedCasePage({ params }: { params: Promise<{ token: string; caseResultId: string }> }) {
  await connection();
  const { token, caseResultId } = await params;
  const page = await loadSharedCase(token, caseResultId);
  if (!page) return <SharedLinkGone />;
  return (
    <SharedFrame>
      <SharedCaseView token={token} page={page} />
    </SharedFrame>
  );
}
