"use client";

import { Button, Group, Skeleton, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { errorText, fieldErrorsOf, notifyFailure, notifySuccess } from "~/components/forms/server-errors.ts";
import { IconLock } from "~/components/icons.tsx";
import { useInviteLink } from "~/components/invites/use-invite-link.ts";
import { SectionCard } from "~/components/section-card.tsx";
import { api } from "~/trpc/react.tsx";

type Props = { guildId: string; currentCode: string | null; lockReason: string | null };

/**
 * The guild's vanity URL (guilds with the VANITY_URL feature): a code of its own choosing
 * that works as an invite to the default channel. Saved on its own, like the REST endpoint.
 */
export function VanityUrlSection({ guildId, currentCode, lockReason }: Props) {
  // GET /guilds/{id}/vanity-url needs Manage Guild; without it the guild object's code shows.
  const vanity = api.invite.vanity.useQuery({ guildId }, { enabled: lockReason === null });
  const code = vanity.data ? vanity.data.code : currentCode;
  return (
    <SectionCard title="Vanity URL" description="A memorable invite link of your own choosing." id="vanity-url">
      {lockReason === null && vanity.isPending ? (
        <Skeleton h={60} />
      ) : (
        <VanityUrlForm key={code ?? ""} guildId={guildId} code={code} uses={vanity.data?.uses ?? null} lockReason={lockReason} />
      )}
    </SectionCard>
  );
}

function VanityUrlForm({ guildId, code, uses, lockReason }: { guildId: string; code: string | null; uses: number | null; lockReason: string | null }) {
  const utils = api.useUtils();
  const inviteLink = useInviteLink();
  const [value, setValue] = useState(code ?? "");
  const setVanity = api.invite.setVanity.useMutation({
    onSuccess: async (result) => {
      notifySuccess(result.code ? `The guild's link is now ${inviteLink(result.code)}.` : "The guild has no vanity URL now.", "Vanity URL saved");
      utils.invite.vanity.setData({ guildId }, result);
      await utils.guild.get.invalidate({ guildId });
    },
    onError: (error) => notifyFailure("Vanity URL not saved", error),
  });
  const fieldError = setVanity.error ? (fieldErrorsOf(setVanity.error).code ?? errorText(setVanity.error)) : null;
  const trimmed = value.trim();
  const locked = lockReason !== null;

  return (
    <Stack gap="sm">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setVanity.mutate({ guildId, code: trimmed });
        }}
      >
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            flex={1}
            label="Vanity code"
            placeholder="my-guild"
            leftSection={<Text size="sm">/invite/</Text>}
            leftSectionWidth={64}
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setVanity.reset();
            }}
            error={fieldError}
            disabled={locked}
            description={
              lockReason ? (
                <Text span size="xs" c="orange.8" fw={500}>
                  <IconLock size={11} style={{ verticalAlign: "-1px" }} /> {lockReason}
                </Text>
              ) : (
                "2 to 32 letters, digits and dashes."
              )
            }
          />
          <Button type="submit" mt={25} disabled={locked || !trimmed || trimmed === code} loading={setVanity.isPending && setVanity.variables?.code !== null}>
            Save
          </Button>
          <Button
            mt={25}
            variant="default"
            color="red"
            disabled={locked || code === null}
            loading={setVanity.isPending && setVanity.variables?.code === null}
            onClick={() => setVanity.mutate({ guildId, code: null })}
          >
            Remove
          </Button>
        </Group>
      </form>
      {trimmed ? (
        <Text size="sm" c="dimmed">
          {trimmed === code ? "Link: " : "Link once saved: "}
          <Text span ff="monospace" c="var(--mantine-color-text)">
            {inviteLink(trimmed)}
          </Text>
          {trimmed === code && uses !== null ? ` · used ${uses} ${uses === 1 ? "time" : "times"}` : null}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          No vanity URL set.
        </Text>
      )}
    </Stack>
  );
}
