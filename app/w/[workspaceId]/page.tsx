import { redirect } from "next/navigation";
import type { WorkspaceParams } from "@/lib/pages/props";

export default async function WorkspaceHome({ params }: WorkspaceParams) {
  const { workspaceId } = await params;
  redirect(`/w/${workspaceId}/suites`);
}
