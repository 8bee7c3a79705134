import { connection, NextResponse } from "next/server";
import { databaseAnswers, executorHealth } from "@/lib/health/service";

/** 200 while the database answers (the web server is healthy), with whether runs are being executed; 503 otherwise. */
export async function GET() {
  await connection();
  if (!(await databaseAnswers())) return NextResponse.json({ status: "unavailable", error: "database does not answer" }, { status: 503 });
  return NextResponse.json({ status: "ok", executor: await executorHealth() }, { headers: { "Cache-Control": "no-store" } });
}
