import type { Metadata } from "next";
import { ApiReference } from "~/components/reference/api-reference.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { apiReference } from "~/server/api-reference/api-reference.ts";
import { requireUser } from "../_lib/require-user.ts";

export const metadata: Metadata = { title: "API reference" };

export default async function ReferencePage() {
  const user = await requireUser("/reference");
  return (
    <DashboardShell user={user}>
      <ApiReference sections={apiReference()} />
    </DashboardShell>
  );
}
