"use client";

import { Alert, Box, Grid, Stack, Text } from "@mantine/core";
import { ChannelType, PermissionFlagsBits } from "discord-api-types/v10";
import { useState, type ReactNode } from "react";
import { BackLink } from "~/components/back-link.tsx";
import { channelTypeInfo } from "~/components/channels/channel-types.ts";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { SaveBar } from "~/components/forms/save-bar.tsx";
import { IconLock } from "~/components/icons.tsx";
import { PageSkeleton } from "~/components/page-skeleton.tsx";
import { QueryError } from "~/components/query-error.tsx";
import { channelPermissionGroups } from "~/components/roles/permission-catalog.ts";
import { PageHeader, SectionCard } from "~/components/section-card.tsx";
import { api, type RouterOutputs } from "~/trpc/react.tsx";
import { EffectivePermissions } from "./effective-permissions.tsx";
import { isDirty, isPrivate, setPrivate, setViewer, toOverwriteBody, updateTarget, viewerIds, withState, type DraftOverwrite } from "./overwrite-draft.ts";
import { OverwriteTargets } from "./overwrite-targets.tsx";
import { PermissionGrid } from "./permission-grid.tsx";
import { PrivateChannelCard } from "./private-channel-card.tsx";
import { SyncStatus } from "./sync-status.tsx";

type Editor = RouterOutputs["channel"]["permissions"];

/** A channel's or category's permission overwrites; what the viewer may not change comes from the server with the reason. */
export function ChannelPermissionsEditor({ guildId, channelId }: { guildId: string; channelId: string }) {
  // A refetch on focus would reset unsaved changes; the editor refetches after its own saves.
  const editor = api.channel.permissions.useQuery({ channelId }, { refetchOnWindowFocus: false });
  const back = <BackLink href={`/guilds/${guildId}/channels`}>Channels</BackLink>;
  if (editor.isError)
    return (
      <Stack gap="lg" maw={1100} mx="auto">
        {back}
        <QueryError error={editor.error} onRetry={() => void editor.refetch()} title="Could not load the channel's permissions" />
      </Stack>
    );
  if (editor.isPending) return <PageSkeleton />;
  // Saved overwrites change the key, so the draft starts again from what was saved.
  return <EditorBody key={JSON.stringify(editor.data.overwrites)} guildId={guildId} data={editor.data} back={back} />;
}

function fromServer(data: Editor): DraftOverwrite[] {
  const everyoneId = data.channel.guildId;
  const list = data.overwrites.map((o) => ({ id: o.id, type: o.type, name: o.name, color: o.color, allow: BigInt(o.allow), deny: BigInt(o.deny) }));
  // @everyone is always listed, as on the platform, even without an overwrite of its own.
  return list.some((o) => o.id === everyoneId) ? list : [{ id: everyoneId, type: 0, name: "@everyone", color: 0, allow: 0n, deny: 0n }, ...list];
}

function EditorBody({ guildId, data, back }: { guildId: string; data: Editor; back: ReactNode }) {
  const utils = api.useUtils();
  const { channel } = data;
  const everyoneId = channel.guildId;
  const everyone = { id: everyoneId, type: 0 as const, name: "@everyone", color: 0 };
  const [saved] = useState(() => fromServer(data));
  const [draft, setDraft] = useState(saved);
  const [selectedId, setSelectedId] = useState(everyoneId);
  const dirty = isDirty(draft, saved);
  const isCategory = channel.type === ChannelType.GuildCategory;
  const groups = channelPermissionGroups(channel.type);
  const bitReasons = new Map(data.bits.map((b) => [b.bit, b.reason]));
  const reasonOf = (bit: bigint) => bitReasons.get(bit.toString()) ?? null;
  const savedRows = new Map(data.overwrites.map((o) => [o.id, o]));
  const roles = [...data.roles].reverse();
  const selected = draft.find((o) => o.id === selectedId) ?? draft[0]!;

  const refresh = () =>
    Promise.all([
      utils.channel.permissions.invalidate({ channelId: channel.id }),
      utils.channel.effectivePermissions.invalidate(),
      utils.channel.rows.invalidate(),
    ]);
  const modify = api.channel.modify.useMutation({
    onSuccess: async () => {
      notifySuccess(`The permissions of ${channel.name} were saved.`, "Permissions saved");
      await refresh();
    },
    onError: (error) => notifyFailure("Could not save the permissions", error),
  });
  const reorder = api.channel.reorder.useMutation({
    onSuccess: async () => {
      notifySuccess(`${channel.name} now has the permissions of ${data.parent?.name ?? "its category"}.`, "Permissions synced");
      await refresh();
    },
    onError: (error) => notifyFailure("Could not sync the permissions", error),
  });
  const save = () => modify.mutate({ channelId: channel.id, body: { permission_overwrites: toOverwriteBody(draft, new Set(savedRows.keys())) } });
  const busy = modify.isPending || reorder.isPending;

  const addTarget = (target: Omit<DraftOverwrite, "allow" | "deny">) => {
    setDraft((current) => updateTarget(current, target, (o) => o));
    setSelectedId(target.id);
  };
  const place = isCategory ? "category" : `${channelTypeInfo(channel.type).label.toLowerCase()} channel`;
  const title = isCategory ? `${channel.name} permissions` : `${channel.type === ChannelType.GuildText ? "#" : ""}${channel.name} permissions`;

  return (
    <Stack gap="lg" maw={1100} mx="auto" pb="md">
      {back}
      <PageHeader title={title} description={`Who can see and do what in this ${place}. An overwrite replaces what roles give, here only.`} />
      {data.denials.edit ? (
        <Alert color="yellow" variant="light" icon={<IconLock size={18} />} title="You can look, but not change these permissions">
          {data.denials.edit}
        </Alert>
      ) : null}

      <SectionCard title="Access" description={isCategory ? "Channels synced with this category follow its permissions." : undefined}>
        {data.parent && data.synced !== null ? (
          <SyncStatus
            parentName={data.parent.name}
            synced={data.synced}
            blockedReason={data.denials.sync ?? (dirty ? "Save or discard your changes first." : null)}
            syncing={reorder.isPending}
            onSync={() => reorder.mutate({ guildId, positions: [{ id: channel.id, parent_id: data.parent?.id ?? null, lock_permissions: true }] })}
          />
        ) : null}
        <PrivateChannelCard
          guildId={guildId}
          isPrivate={isPrivate(draft, everyoneId)}
          overwrites={draft}
          roles={roles.filter((role) => role.id !== everyoneId)}
          viewerIds={viewerIds(draft).filter((id) => id !== everyoneId)}
          reason={reasonOf(PermissionFlagsBits.ViewChannel)}
          isCategory={isCategory}
          onPrivateChange={(on) => setDraft((current) => setPrivate(current, everyone, on))}
          onViewersChange={(ids) =>
            setDraft((current) => {
              const wanted = new Set(ids);
              let next = current;
              for (const id of viewerIds(current).filter((v) => v !== everyoneId && !wanted.has(v))) {
                const target = current.find((o) => o.id === id)!;
                next = setViewer(next, target, false);
              }
              for (const id of ids) {
                const role = data.roles.find((r) => r.id === id);
                const target = current.find((o) => o.id === id) ?? (role ? { id, type: 0 as const, name: role.name, color: role.color } : null);
                if (target) next = setViewer(next, target, true);
              }
              return next;
            })
          }
          onAddMember={(member) => setDraft((current) => setViewer(current, { id: member.id, type: 1, name: member.name, color: 0 }, true))}
        />
      </SectionCard>

      <SectionCard title="Overwrites" description="Pick a role or member, then allow or deny each permission; Inherit leaves it to their roles.">
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <OverwriteTargets
              guildId={guildId}
              everyoneId={everyoneId}
              overwrites={draft}
              selectedId={selected.id}
              roles={roles}
              addReason={data.denials.edit}
              removeReason={(id) => savedRows.get(id)?.remove ?? null}
              onSelect={setSelectedId}
              onAddRole={(role) => addTarget({ id: role.id, type: 0, name: role.name, color: role.color })}
              onAddMember={(member) => addTarget({ id: member.id, type: 1, name: member.name, color: 0 })}
              onRemove={(id) => {
                setDraft((current) => current.filter((o) => o.id !== id));
                setSelectedId(everyoneId);
              }}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Box component="section" aria-label={`Permissions for ${selected.name}`} className="permission-scroll" tabIndex={0}>
              <Text fw={600} mb="sm">
                {selected.name}
              </Text>
              <PermissionGrid
                overwrite={selected}
                groups={groups}
                reasonOf={reasonOf}
                onChange={(bit, state) => setDraft((current) => updateTarget(current, selected, (o) => withState(o, bit, state)))}
              />
            </Box>
          </Grid.Col>
        </Grid>
      </SectionCard>

      <SectionCard title="Effective permissions" description="What someone can do here as saved, and where each permission comes from.">
        <EffectivePermissions
          guildId={guildId}
          channelId={channel.id}
          groups={groups}
          roles={roles}
          members={saved.filter((o) => o.type === 1).map((o) => ({ id: o.id, name: o.name }))}
        />
      </SectionCard>

      <SaveBar dirty={dirty} saving={busy} canSave={data.denials.edit === null} onDiscard={() => setDraft(saved)} onSave={save} />
    </Stack>
  );
}
