"use client";

import { Button, Card, EmptyState, Group, Select, Stack } from "@mantine/core";
import { keepPreviousData } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { CursorPager, useCursorStack } from "~/components/cursor-pager.tsx";
import { useSectionDenials } from "~/components/guild/use-section-denials.ts";
import { IconHistory, IconLock } from "~/components/icons.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { PageHeader } from "~/components/section-card.tsx";
import { TableSkeleton } from "~/components/table-skeleton.tsx";
import { api } from "~/trpc/react.tsx";
import { ACTION_OPTIONS, actionInfo } from "./audit-actions.ts";
import { AuditEntry, type FilterBy } from "./audit-entry.tsx";
import { AUDIT_PAGE_SIZE, type AuditFilters } from "./audit-filters.ts";
import { kindOf, refTo, type Lookup } from "./audit-refs.ts";

/** Keeps the filters in the address, so a filtered log can be shared as a link. */
function writeFiltersToUrl(filters: AuditFilters) {
  const url = new URL(window.location.href);
  for (const [key, value] of Object.entries({ action: filters.action_type, user: filters.user_id, target: filters.target_id })) {
    if (value) url.searchParams.set(key, value);
    else url.searchParams.delete(key);
  }
  window.history.replaceState(window.history.state, "", url);
}

/** The guild's audit log, newest first, a page at a time, filtered by action, by who and by target. */
export function AuditLogView({ guildId, initialFilters }: { guildId: string; initialFilters: AuditFilters }) {
  const denials = useSectionDenials(guildId);
  const [filters, setFilters] = useState<AuditFilters>(initialFilters);
  const pager = useCursorStack();
  const lockReason = denials?.auditLog ?? null;

  const log = api.audit.list.useQuery(
    { guildId, query: { limit: String(AUDIT_PAGE_SIZE), ...(pager.cursor && { before: pager.cursor }), ...filters } },
    { enabled: denials !== undefined && lockReason === null, placeholderData: keepPreviousData },
  );

  const lookup: Lookup = useMemo(() => ({ guildId, names: log.data?.names ?? {}, lastKnown: log.data?.lastKnown ?? {} }), [guildId, log.data]);
  const actorOptions = useMemo(
    () => (log.data?.actorIds ?? []).map((id) => ({ value: id, label: refTo(lookup, "user", id).text })).sort((a, b) => a.label.localeCompare(b.label)),
    [log.data, lookup],
  );
  const targetOptions = useMemo(
    () =>
      (log.data?.targets ?? []).flatMap(({ id, actionType }) => {
        const kind = actionInfo(actionType).target ?? kindOf(lookup, id);
        return kind ? [{ value: id, label: refTo(lookup, kind, id).text }] : [];
      }),
    [log.data, lookup],
  );

  const change = (next: AuditFilters) => {
    const cleaned = Object.fromEntries(Object.entries(next).filter(([, value]) => Boolean(value))) as AuditFilters;
    setFilters(cleaned);
    pager.reset();
    writeFiltersToUrl(cleaned);
  };
  const onFilter = (by: FilterBy) => {
    change({ ...filters, ...by });
    window.scrollTo({ top: 0 });
  };

  const entries = log.data?.entries ?? [];
  const filtered = Boolean(filters.action_type || filters.user_id || filters.target_id);
  const last = entries.at(-1);
  const disabled = lockReason !== null;
  // On a phone the action takes a row and the two name filters share the next.
  const fullWidth = { base: "100%", xs: 220 };
  const halfWidth = { base: "calc(50% - var(--mantine-spacing-sm) / 2)", xs: 220 };

  const filterBar = (
    <Group gap="sm" align="flex-end" wrap="wrap" w={{ base: "100%", md: "auto" }}>
      <Select
        label="Action"
        placeholder="All actions"
        data={ACTION_OPTIONS}
        value={filters.action_type ?? null}
        onChange={(value) => change({ ...filters, action_type: value ?? undefined })}
        clearable
        searchable
        w={fullWidth}
        disabled={disabled}
      />
      <Select
        label="Done by"
        placeholder="Anyone"
        data={actorOptions}
        value={filters.user_id ?? null}
        onChange={(value) => change({ ...filters, user_id: value ?? undefined })}
        clearable
        searchable
        nothingFoundMessage="No one by that name"
        w={halfWidth}
        disabled={disabled}
      />
      <Select
        label="Target"
        placeholder="Anything"
        data={targetOptions}
        value={filters.target_id ?? null}
        onChange={(value) => change({ ...filters, target_id: value ?? undefined })}
        clearable
        searchable
        nothingFoundMessage="Nothing by that name"
        w={halfWidth}
        disabled={disabled}
      />
      {filtered ? (
        <Button variant="subtle" onClick={() => change({})}>
          Clear filters
        </Button>
      ) : null}
    </Group>
  );

  return (
    <Stack gap="lg" maw={1180} mx="auto">
      <PageHeader title="Audit log" description="Who changed what in the guild, and why." />
      {filterBar}
      {lockReason ? (
        <Card padding="xl">
          <EmptyState icon={<IconLock size={26} />} variant="light" color="gray" title="You can't view the audit log" description={`${lockReason}.`} />
        </Card>
      ) : log.isError ? (
        <QueryError error={log.error} onRetry={() => void log.refetch()} title="Could not load the audit log" />
      ) : log.isPending ? (
        <TableSkeleton rows={8} />
      ) : entries.length === 0 ? (
        <Card padding="xl">
          <EmptyState
            icon={<IconHistory size={26} />}
            variant="light"
            title={filtered || pager.cursor ? "No matching entries" : "Nothing recorded yet"}
            description={filtered ? "No changes match these filters." : "Changes to the guild, its roles and channels will show up here."}
          />
        </Card>
      ) : (
        <Card padding={0}>
          <ul aria-label="Audit log entries" style={{ margin: 0, padding: 0, opacity: log.isPlaceholderData ? 0.6 : 1 }}>
            {entries.map((entry) => (
              <AuditEntry key={entry.id} entry={entry} lookup={lookup} onFilter={onFilter} />
            ))}
          </ul>
        </Card>
      )}
      {lockReason || (entries.length === 0 && pager.page === 1) ? null : (
        <CursorPager pager={pager} nextCursor={entries.length === AUDIT_PAGE_SIZE ? last?.id : null} busy={log.isFetching} />
      )}
    </Stack>
  );
}
