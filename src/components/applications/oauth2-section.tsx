"use client";

import { Button, Code, DataList, Group, Switch, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconKey } from "~/components/icons.tsx";
import { SectionCard } from "~/components/section-card.tsx";
import { api } from "~/trpc/react.tsx";
import type { ApplicationDetail } from "./application-types.ts";
import { CopyableId } from "./bot-section.tsx";
import { ClientSecretModal } from "./client-secret-modal.tsx";
import { RedirectUrisEditor } from "./redirect-uris-editor.tsx";

/** The application as an OAuth2 client: its id, its secret (reset only), redirect URIs, and whether it is a public client. */
export function OAuth2Section({ application }: { application: ApplicationDetail }) {
  const [opened, { open, close }] = useDisclosure(false);
  const { oauth2 } = application;
  return (
    <SectionCard
      id="oauth2"
      title="OAuth2"
      description="How your application gets its users' tokens: people approve it on the authorize page, and your server exchanges the code."
    >
      <DataList labelWidth={140}>
        <DataList.Item>
          <DataList.ItemLabel>Client ID</DataList.ItemLabel>
          <DataList.ItemValue>
            <CopyableId label="client ID" value={application.id} />
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Client secret</DataList.ItemLabel>
          <DataList.ItemValue>
            <Text size="sm">{oauth2.hasClientSecret ? "Set. It was shown once, when it was made." : "None yet. Reset it to make one."}</Text>
          </DataList.ItemValue>
        </DataList.Item>
      </DataList>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed" maw={520}>
          Lost the secret, or think someone else has it? A reset makes a new one and the current one stops working.
        </Text>
        <Button variant="light" color="red" leftSection={<IconKey size={16} />} onClick={open}>
          Reset secret
        </Button>
      </Group>
      <ClientSecretModal application={application} opened={opened} onClose={close} />
      <RedirectUrisEditor application={application} />
      <PublicClientSwitch application={application} />
    </SectionCard>
  );
}

function PublicClientSwitch({ application }: { application: ApplicationDetail }) {
  const utils = api.useUtils();
  const edit = api.application.edit.useMutation({
    onSuccess: (updated) => {
      utils.application.get.setData({ applicationId: application.id }, updated);
      notifySuccess(`${updated.name} is ${updated.oauth2.publicClient ? "now" : "no longer"} a public client.`, "OAuth2 settings saved");
    },
    onError: (error) => notifyFailure("Could not change the client type", error),
  });
  const stored = application.oauth2.publicClient;
  const checked = edit.isPending ? (edit.variables.body.publicClient ?? stored) : stored;
  return (
    <Switch
      label="Public client"
      description={
        <>
          For games and single-page apps, which cannot keep a secret: the code exchange uses no client secret, and PKCE (<Code>code_challenge</Code> with{" "}
          <Code>S256</Code>) is then required.
        </>
      }
      checked={checked}
      disabled={edit.isPending}
      onChange={(event) => edit.mutate({ applicationId: application.id, body: { publicClient: event.currentTarget.checked } })}
    />
  );
}
