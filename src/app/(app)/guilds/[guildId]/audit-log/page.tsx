import type { Metadata } from "next";
import { AUDIT_PAGE_SIZE, filtersFromSearchParams } from "~/components/audit/audit-filters.ts";
import { AuditLogView } from "~/components/audit/audit-log.tsx";
import { api, HydrateClient } from "~/trpc/server.ts";
import { requireUser } from "../../../_lib/require-user.ts";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditLogPage({
  params,
  searchParams,
}: {
  params: Promise<{ guildId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { guildId } = await params;
  await requireUser(`/guilds/${guildId}/audit-log`);
  const filters = filtersFromSearchParams(await searchParams);
  await api.audit.list.prefetch({ guildId, query: { limit: String(AUDIT_PAGE_SIZE), ...filters } });
  return (
    <HydrateClient>
      <AuditLogView guildId={guildId} initialFilters={filters} />
    </HydrateClient>
  );
}
