"use client";

import { ActionIcon, Button, Code, Group, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import { useState } from "react";
import { errorText, notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconPlus, IconTrash } from "~/components/icons.tsx";
import { api } from "~/trpc/react.tsx";
import type { ApplicationDetail } from "./application-types.ts";

/**
 * The registered redirect URIs: authorize redirects to these only. Each change is saved at
 * once; the server's rule (absolute, no fragment, at most the limit) answers in words.
 */
export function RedirectUrisEditor({ application }: { application: ApplicationDetail }) {
  const utils = api.useUtils();
  const { redirectUris, redirectUrisMax } = application.oauth2;
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const save = api.application.setRedirectUris.useMutation({
    onSuccess: (updated) => utils.application.get.setData({ applicationId: application.id }, updated),
  });

  function add() {
    const uri = draft.trim();
    if (!uri) return setError("Enter a redirect URI.");
    if (redirectUris.includes(uri)) return setError("This redirect URI is already registered.");
    save.mutate(
      { applicationId: application.id, redirectUris: [...redirectUris, uri] },
      {
        onSuccess: () => {
          setDraft("");
          setError(null);
          notifySuccess(`${uri} was added.`, "Redirect URIs saved");
        },
        onError: (failure) => setError(errorText(failure)),
      },
    );
  }

  function remove(uri: string) {
    save.mutate(
      { applicationId: application.id, redirectUris: redirectUris.filter((other) => other !== uri) },
      { onSuccess: () => notifySuccess(`${uri} was removed.`, "Redirect URIs saved"), onError: (failure) => notifyFailure("Could not remove it", failure) },
    );
  }

  const full = redirectUris.length >= redirectUrisMax;
  return (
    <Stack gap="xs">
      <div>
        <Text size="sm" fw={500}>
          Redirect URIs
        </Text>
        <Text size="xs" c="dimmed">
          Where people are sent back after approving, with a code or a token. Only these are accepted as <Code>redirect_uri</Code>, up to {redirectUrisMax}.
        </Text>
      </div>
      {redirectUris.length === 0 ? (
        <Text size="sm" c="dimmed">
          None yet: only bot installs without the code grant work until you add one.
        </Text>
      ) : (
        <Stack gap={4} component="ul" role="list" aria-label="Redirect URIs" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {redirectUris.map((uri) => (
            <Group key={uri} component="li" gap="xs" wrap="nowrap" justify="space-between">
              <Code style={{ overflowWrap: "anywhere" }}>{uri}</Code>
              <Tooltip label="Remove">
                <ActionIcon variant="subtle" color="red" aria-label={`Remove ${uri}`} disabled={save.isPending} onClick={() => remove(uri)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          ))}
        </Stack>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
        noValidate
      >
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            aria-label="New redirect URI"
            placeholder={full ? `At most ${redirectUrisMax} redirect URIs` : "https://example.com/callback"}
            value={draft}
            disabled={full}
            onChange={(event) => {
              setDraft(event.currentTarget.value);
              setError(null);
            }}
            error={error}
            flex={1}
            miw={0}
          />
          <Button type="submit" variant="light" leftSection={<IconPlus size={16} />} loading={save.isPending} disabled={full}>
            Add
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
