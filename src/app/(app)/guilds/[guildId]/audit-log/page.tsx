import type { Metadata } from "next";
import { AuditLogView } from "~/components/audit/audit-log.tsx";
import { AUDIT_PAGE_SIZE } from "~/components/audit/audit-page-size.ts";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditLogPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/audit-log`);
  await Promise.all([
    api.audit.list.prefetch({ guildId, query: { limit: String(AUDIT_PAGE_SIZE) } }),
    api.role.list.prefetch({ guildId }),
    api.channel.list.prefetch({ guildId }),
  ]);
  return (
    <HydrateClient>
      <AuditLogView guildId={guildId} />
    </HydrateClient>
  );
}
