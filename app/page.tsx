import { redirect } from "next/navigation";
import { connection } from "next/server";
import { loadHomeTarget } from "@/lib/workspaces/loaders";

export default async function Home() {
  await connection();
  redirect(await loadHomeTarget());
}
