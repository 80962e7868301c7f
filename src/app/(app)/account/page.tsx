import type { Metadata } from "next";
import { AccountSettings } from "~/components/account/account-settings.tsx";
import { DashboardShell } from "~/components/shell/dashboard-shell.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../_lib/require-user.ts";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await requireUser("/account");
  await api.account.get.prefetch();
  return (
    <DashboardShell user={user}>
      <HydrateClient>
        <AccountSettings />
      </HydrateClient>
    </DashboardShell>
  );
}
