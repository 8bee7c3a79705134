import { connection, NextResponse } from "next/server";
import { databaseAnswers } from "@/lib/health/service";

export async function GET() {
  await connection();
  return (await databaseAnswers())
    ? NextResponse.json({ status: "ok" })
    : NextResponse.json({ status: "unavailable", error: "database does not answer" }, { status: 503 });
}
