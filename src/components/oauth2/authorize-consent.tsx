"use client";

import { Alert, Box, Button, Center, Checkbox, Group, List, Paper, Select, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { useState } from "react";
import { ApplicationAvatar } from "~/components/applications/application-avatar.tsx";
import { IconAlertTriangle, IconCheck, IconLock } from "~/components/icons.tsx";
import type { ConsentChannel, ConsentView } from "~/server/oauth2/consent-view.ts";
import { api } from "~/trpc/react.tsx";

type Props = { query: Record<string, string>; view: ConsentView };

/** The consent page's body: an error that cannot go back to the client, the request to approve, or the install's result. */
export function AuthorizeConsent({ query, view }: Props) {
  return (
    <Center mih="100dvh" p="md" bg="var(--app-page-bg)">
      <Box w="100%" maw={480}>
        <Paper withBorder p="lg" radius="md">
          {view.kind === "consent" ? (
            <ConsentForm query={query} view={view} />
          ) : view.kind === "error" ? (
            <AuthorizeError title="This authorization link cannot be used" description={view.description} code={view.error} />
          ) : (
            <Text>Returning to the application…</Text>
          )}
        </Paper>
      </Box>
    </Center>
  );
}

function AuthorizeError({ title, description, code }: { title: string; description: string; code?: string }) {
  return (
    <Stack gap="sm">
      <Title order={1} fz="xl">
        {title}
      </Title>
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title={code ?? "Error"} role="alert">
        {description}
      </Alert>
      <Text size="sm" c="dimmed">
        Ask the application&apos;s developer for a working link. You were not sent anywhere.
      </Text>
    </Stack>
  );
}

type Consent = Extract<ConsentView, { kind: "consent" }>;

function ConsentForm({ query, view }: { query: Record<string, string>; view: Consent }) {
  const { application, bot, webhook } = view;
  const selectableGuilds = bot?.guilds.filter((guild) => guild.denial === null) ?? [];
  const [guildId, setGuildId] = useState<string | null>(bot?.guildId ?? (selectableGuilds.length === 1 ? selectableGuilds[0]!.id : null));
  const [permissions, setPermissions] = useState<string[]>(bot?.permissions.map((permission) => permission.bit) ?? []);
  const [channelId, setChannelId] = useState<string | null>(webhook?.channelId ?? null);
  const [done, setDone] = useState<{ guild: { id: string; name: string } | null } | "cancelled" | null>(null);
  const [error, setError] = useState<string | null>(null);

  const approve = api.oauth2.approve.useMutation({
    onSuccess(outcome) {
      if ("redirectTo" in outcome) window.location.assign(outcome.redirectTo);
      else setDone(outcome.done);
    },
    onError(failure) {
      setError(failure.message);
    },
  });
  const deny = api.oauth2.deny.useMutation({
    onSuccess({ redirectTo }) {
      if (redirectTo) window.location.assign(redirectTo);
      else setDone("cancelled");
    },
    onError(failure) {
      setError(failure.message);
    },
  });

  if (done === "cancelled") return <Text>You cancelled. Nothing was authorized; you can close this page.</Text>;
  if (done) {
    return (
      <Stack gap="sm" align="center" ta="center">
        <ThemeIcon size={48} radius="xl" color="green" aria-hidden>
          <IconCheck size={28} />
        </ThemeIcon>
        <Title order={1} fz="xl">
          {done.guild ? `${application.name} was added to ${done.guild.name}` : `${application.name} is authorized`}
        </Title>
        <Text size="sm" c="dimmed">
          You can close this page.
        </Text>
      </Stack>
    );
  }

  const guild = bot?.guilds.find((each) => each.id === guildId) ?? null;
  const channel = webhook?.channels.find((each) => each.id === channelId) ?? null;
  // A bot needs a guild it may be added to, a webhook a channel it may be made in.
  const blocked = (bot !== null && guild?.denial !== null) || (webhook !== null && channel?.denial !== null);
  const busy = approve.isPending || deny.isPending;
  const permissionBits = permissions.reduce((sum, bit) => sum | BigInt(bit), 0n).toString();

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap">
        <ApplicationAvatar application={application} size={56} radius="md" />
        <div style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed">
            An external application
          </Text>
          <Title order={1} fz="xl" style={{ overflowWrap: "anywhere" }}>
            {application.name}
          </Title>
          <Text size="sm">wants to access your account</Text>
        </div>
      </Group>

      <div>
        <Text fw={600} size="sm" mb={6}>
          This will allow {application.name} to:
        </Text>
        <List spacing={4} size="sm" aria-label="What the application asks for">
          {view.scopes.map((scope) => (
            <List.Item key={scope.scope}>{scope.grants}</List.Item>
          ))}
        </List>
      </div>

      {bot ? (
        <Stack gap="sm">
          <Select
            label="Add to server"
            placeholder={bot.guilds.length === 0 ? "You manage no server" : "Select a server"}
            description="Servers you manage (Manage guild)."
            data={bot.guilds.map((each) => ({ value: each.id, label: each.name }))}
            value={guildId}
            onChange={setGuildId}
            disabled={bot.disableGuildSelect || bot.guilds.length === 0}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {guild?.denial ? (
            <Text size="sm" c="red" role="alert">
              {guild.denial}
            </Text>
          ) : null}
          {bot.permissions.length > 0 ? (
            <Checkbox.Group label="Permissions for its role" description="Untick any you do not want to give." value={permissions} onChange={setPermissions}>
              <Stack gap={6} mt="xs">
                {bot.permissions.map((permission) => (
                  <Checkbox key={permission.bit} value={permission.bit} label={permission.label} />
                ))}
              </Stack>
            </Checkbox.Group>
          ) : null}
        </Stack>
      ) : null}

      {webhook ? (
        <Stack gap={4}>
          <Select
            label="Post to channel"
            placeholder={webhook.channels.length === 0 ? "No channel you can see takes webhooks" : "Select a channel"}
            data={groupChannels(webhook.channels)}
            value={channelId}
            onChange={setChannelId}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {channel?.denial ? (
            <Text size="sm" c="red" role="alert">
              {channel.denial}
            </Text>
          ) : null}
        </Stack>
      ) : null}

      {error ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
          {error}
        </Alert>
      ) : null}

      <Group gap={6} wrap="nowrap">
        <IconLock size={14} />
        <Text size="xs" c="dimmed">
          {view.redirectHost ? `Once you authorize, you will be sent to ${view.redirectHost}.` : "Nothing leaves this page: the result is shown here."}
        </Text>
      </Group>

      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => deny.mutate({ query })} loading={deny.isPending} disabled={busy}>
          Cancel
        </Button>
        <Button
          onClick={() =>
            approve.mutate({
              query,
              choices: { guildId: bot ? guildId : null, permissions: bot ? permissionBits : null, channelId: webhook ? channelId : null },
            })
          }
          loading={approve.isPending}
          disabled={busy || blocked}
        >
          Authorize
        </Button>
      </Group>
    </Stack>
  );
}

/** Channels grouped under their server's name, as the Select shows them. */
function groupChannels(channels: readonly ConsentChannel[]) {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const channel of channels) {
    const items = groups.get(channel.guildName) ?? [];
    items.push({ value: channel.id, label: `#${channel.name}${channel.denial ? " (you cannot manage webhooks here)" : ""}` });
    groups.set(channel.guildName, items);
  }
  return [...groups].map(([group, items]) => ({ group, items }));
}
