import { redirect } from "next/navigation";
import { connection } from "next/server";
import { auth } from "@/lib/auth";
import { isSetupNeeded, listWorkspacesForUser } from "@/lib/workspaces/service";

export default async function Home() {
  await connection();
  if (await isSetupNeeded()) redirect("/setup");
  const session = await auth();
  if (!session?.user?.id) redirect("/sign-in");
  const workspaces = await listWorkspacesForUser(session.user.id);
  redirect(workspaces[0] ? `/w/${workspaces[0].id}` : "/workspaces/new");
}
