import { redirect } from "next/navigation";

/** Retention moved to the Instance page (instance-wide settings); old links and bookmarks land there. */
export default function RetentionSettingsPage() {
  redirect("/instance");
}
