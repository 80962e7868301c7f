"use client";

import {
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from "@mantine/core";
import { useState } from "react";
import { IconCheck, IconCopy, IconInfoCircle, IconLink } from "~/components/icons.tsx";
import { PermissionChecklist } from "~/components/roles/permission-checklist.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import {
  buildInstallLink,
  installLinkDenial,
  installNeedsRedirect,
  type InstallLinkInput,
  type InstallLinkResponseType,
} from "~/server/oauth2/install-link.ts";
import { grantableScopes, SCOPES } from "~/server/oauth2/scopes.ts";
import { api } from "~/trpc/react.tsx";
import type { ApplicationDetail } from "./application-types.ts";

const RESPONSE_TYPES: { value: InstallLinkResponseType; label: string }[] = [
  { value: "code", label: "Code" },
  { value: "token", label: "Token (implicit)" },
];

/** Builds the link people open to add the bot or grant scopes: scopes, the bot's permissions, a guild, and where to send them back. */
export function InstallLinkSection({ application }: { application: ApplicationDetail }) {
  const { oauth2 } = application;
  const [scopes, setScopes] = useState<string[]>([]);
  const [permissions, setPermissions] = useState("0");
  const [guildId, setGuildId] = useState<string | null>(null);
  const [disableGuildSelect, setDisableGuildSelect] = useState(false);
  const [redirectUri, setRedirectUri] = useState<string | null>(null);
  const [responseType, setResponseType] = useState<InstallLinkResponseType>("code");
  const hasBot = scopes.includes("bot");
  const guilds = api.application.installGuilds.useQuery({ applicationId: application.id }, { enabled: hasBot });

  const settings = { botRequireCodeGrant: application.bot.requireCodeGrant, redirectUris: oauth2.redirectUris };
  // A redirect URI removed since it was picked no longer counts.
  const chosenRedirect = redirectUri && oauth2.redirectUris.includes(redirectUri) ? redirectUri : null;
  const input: InstallLinkInput = {
    authorizeUrl: oauth2.authorizeUrl,
    clientId: application.id,
    scopes,
    permissions: BigInt(permissions),
    guildId,
    disableGuildSelect,
    redirectUri: chosenRedirect,
    responseType,
  };
  const denial = installLinkDenial(input, settings);
  const link = denial ? null : buildInstallLink(input);
  const needsRedirect = scopes.length > 0 && installNeedsRedirect(scopes, settings);

  return (
    <SectionCard
      id="install-link"
      title="Install link"
      description="Pick what your application asks for; share the link, and people who open it see the request and approve it."
    >
      <Box role="group" aria-labelledby="install-scopes-title">
        <Title order={3} fz="sm" id="install-scopes-title" mb="xs">
          Scopes
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" verticalSpacing="xs">
          {grantableScopes(oauth2).map((scope) => (
            <Checkbox
              key={scope}
              label={scope}
              description={SCOPES[scope].grants}
              // Scope names are long words with dots (applications.commands.permissions.update).
              styles={{ label: { overflowWrap: "anywhere" } }}
              checked={scopes.includes(scope)}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setScopes((current) => (on ? [...current, scope] : current.filter((other) => other !== scope)));
              }}
            />
          ))}
        </SimpleGrid>
      </Box>

      {hasBot ? (
        <Stack gap="md">
          <Group justify="space-between" align="baseline" wrap="wrap">
            <Title order={3} fz="sm">
              Bot permissions
            </Title>
            <Text size="sm" c="dimmed">
              Permissions integer <Code>{permissions}</Code>
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            The bot&apos;s role gets these in the guild it is added to; the person adding it may untick some.
          </Text>
          <PermissionChecklist value={permissions} onChange={setPermissions} lockedReason={() => null} />
          <Group gap="md" align="flex-end" wrap="wrap">
            <Select
              label="Guild"
              description="Preselected on the authorize page. Only guilds you manage are listed."
              placeholder={guilds.data?.length === 0 ? "You manage no guilds" : "Let the person choose"}
              data={(guilds.data ?? []).map((guild) => ({ value: guild.id, label: guild.name }))}
              value={guildId}
              onChange={(value) => {
                setGuildId(value);
                if (!value) setDisableGuildSelect(false);
              }}
              clearable
              searchable
              w={320}
              maw="100%"
            />
            <Checkbox
              label="Disable guild select"
              description="The person cannot pick another guild."
              checked={disableGuildSelect}
              disabled={!guildId}
              onChange={(event) => setDisableGuildSelect(event.currentTarget.checked)}
              pb={4}
            />
          </Group>
        </Stack>
      ) : null}

      <Group gap="md" align="flex-end" wrap="wrap">
        <Select
          label="Redirect URI"
          description={
            needsRedirect
              ? "Required: these scopes send a grant back to your application."
              : "Optional: adding only a bot needs no redirect. Register URIs in OAuth2 above."
          }
          placeholder={oauth2.redirectUris.length === 0 ? "No redirect URIs registered" : "None"}
          data={oauth2.redirectUris}
          value={chosenRedirect}
          onChange={setRedirectUri}
          clearable
          required={needsRedirect}
          disabled={oauth2.redirectUris.length === 0}
          w={420}
          maw="100%"
        />
        {chosenRedirect ? (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="install-response-type">
              Response type
            </Text>
            <SegmentedControl aria-labelledby="install-response-type" data={RESPONSE_TYPES} value={responseType} onChange={setResponseType} />
          </Stack>
        ) : null}
      </Group>

      {link ? (
        <Stack gap="xs">
          <Textarea
            label="Generated URL"
            value={link}
            readOnly
            autosize
            minRows={2}
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          />
          <Group gap="xs" justify="flex-end">
            <CopyButton value={link} timeout={2500}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? "filled" : "light"}
                  color={copied ? "teal" : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                >
                  {copied ? "Copied" : "Copy link"}
                </Button>
              )}
            </CopyButton>
            <Button component="a" href={link} target="_blank" rel="noopener" variant="default" leftSection={<IconLink size={16} />}>
              Open
            </Button>
          </Group>
        </Stack>
      ) : (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
          {denial}
        </Alert>
      )}
      {!application.bot.isPublic && hasBot ? (
        <Text size="sm" c="dimmed">
          Your bot is private: only you can add it, whoever opens the link. Make it public in <Anchor href="#bot">Bot</Anchor>.
        </Text>
      ) : null}
    </SectionCard>
  );
}
